/**
 * Memory after 30 prompts. Two children, each a fresh process sending 30 prompts into one
 * session (each a `view` step and a ~2 KB reply, the fake provider in a process of its own), with RSS
 * and V8 heap read after a full GC (`--expose-gc`) once the app is built and after every prompt:
 * - `bench/rss-dist-child.mjs`: the bundled `dist/` under plain `node`, through the runtime API
 *   (`createOpencode`: config, models, the App with its database, tools, permission, MCP, the agent —
 *   the services `opencode -p` builds). This is the figure the ≤ 120 MB target is read against.
 * - `bench/rss-child.ts`: the TUI's services (`chatServices`, as the TUI builds them) from the
 *   TypeScript sources under tsx's loader, which adds its own isolate, the transpiled sources and their
 *   source maps (~40 MB and more: compare the two "app built" rows); its growth from prompt 1 to 30 is
 *   what the TUI's services retain per prompt. (The TUI's Ink screen itself is measured by bench/tui.ts.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { log, type Row } from './lib.js';

interface Sample {
  rss: number;
  heapUsed: number;
  external: number;
}

interface ChildResult {
  built: Sample;
  first: Sample;
  last: Sample;
  peakRssKb: number;
}

const MB = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

function child(args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.at(-2)} exited ${code}: ${err.slice(-800)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult);
    });
  });
}

export async function benchRss(opts: { prompts: number }): Promise<Row[]> {
  const n = String(opts.prompts);
  log(
    `rss: ${opts.prompts} prompts through dist/ (createOpencode), then through the TUI's services under tsx, each in a child process`,
  );
  const dist = await child([join(import.meta.dirname, 'rss-dist-child.mjs'), n]);
  const tsx = await child(['--import', 'tsx', join(import.meta.dirname, 'rss-child.ts'), n]);
  const S = 'memory';
  return [
    {
      section: S,
      name: 'dist: app built, no prompt',
      value: MB(dist.built.rss),
      note: `heap ${MB(dist.built.heapUsed)}; createOpencode of dist/index.js under plain node`,
    },
    {
      section: S,
      name: 'dist: after prompt 1',
      value: MB(dist.first.rss),
      note: `heap ${MB(dist.first.heapUsed)}, external ${MB(dist.first.external)}`,
    },
    {
      section: S,
      name: `dist: after prompt ${opts.prompts}`,
      value: MB(dist.last.rss),
      ratio: `+${MB(dist.last.rss - dist.first.rss)} since prompt 1`,
      target: '≤ 120 MB',
      note: `heap ${MB(dist.last.heapUsed)} (+${MB(dist.last.heapUsed - dist.first.heapUsed)}), external ${MB(dist.last.external)}; peak RSS ${(dist.peakRssKb / 1024).toFixed(1)} MB`,
    },
    {
      section: S,
      name: 'TUI services (tsx): app built',
      value: MB(tsx.built.rss),
      note: `heap ${MB(tsx.built.heapUsed)}; tsx's loader, transpiled sources and source maps included`,
    },
    {
      section: S,
      name: `TUI services (tsx): after prompt ${opts.prompts}`,
      value: MB(tsx.last.rss),
      ratio: `+${MB(tsx.last.rss - tsx.first.rss)} since prompt 1`,
      note: `heap ${MB(tsx.last.heapUsed)} (+${MB(tsx.last.heapUsed - tsx.first.heapUsed)} since prompt 1), external ${MB(tsx.last.external)}`,
    },
  ];
}
