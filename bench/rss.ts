/**
 * Memory after 30 prompts (issue 16): bench/rss-child.ts in a fresh `node --expose-gc --import tsx`
 * process builds the app through the TUI's services and runs the prompts; the figures are RSS and
 * V8 heap after a full GC, once the app is built, after prompt 1 and after prompt 30. The child runs
 * from the TypeScript sources through tsx's loader (a second V8 isolate for the loader's hooks), so
 * the absolute RSS is above that of the bundled `dist/` the TUI runs from; the growth between prompt 1
 * and prompt 30 is what the process retains per prompt.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { log, type Row } from './lib.js';

interface Sample {
  rss: number;
  heapUsed: number;
  external: number;
}

const MB = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

function child(prompts: number): Promise<{ built: Sample; first: Sample; last: Sample }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'rss-child.ts'), String(prompts)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`rss-child exited ${code}: ${err.slice(-800)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!));
    });
  });
}

export async function benchRss(opts: { prompts: number }): Promise<Row[]> {
  log(`rss: ${opts.prompts} prompts through the TUI's services in a child process`);
  const r = await child(opts.prompts);
  const S = 'memory';
  return [
    { section: S, name: 'app built, no prompt', value: MB(r.built.rss), note: `heap ${MB(r.built.heapUsed)}; tsx loader included` },
    { section: S, name: 'after prompt 1', value: MB(r.first.rss), note: `heap ${MB(r.first.heapUsed)}, external ${MB(r.first.external)}` },
    {
      section: S,
      name: `after prompt ${opts.prompts}`,
      value: MB(r.last.rss),
      ratio: `+${MB(r.last.rss - r.first.rss)} since prompt 1`,
      note: `heap ${MB(r.last.heapUsed)} (+${MB(r.last.heapUsed - r.first.heapUsed)}), external ${MB(r.last.external)}; target ≤ 120 MB (for dist/)`,
    },
  ];
}
