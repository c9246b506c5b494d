// Child process of bench/rss.ts, the `dist/` variant (plain JavaScript: it runs under plain `node`, no tsx
// loader): the bundled runtime API (`createOpencode` of dist/index.js, the services `opencode -p` builds)
// sends PROMPTS prompts into one session, each a `view` step and a ~2 KB reply from the loopback fake
// provider (bench/fake-provider-child.ts, a process of its own). Prints one JSON line: RSS and heap
// (bytes) after the app is built, after each prompt, each after a full GC (`--expose-gc`).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const PROMPTS = Number(process.argv[2] ?? 30);
const sample = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
};
const turns = [];
for (let i = 0; i < PROMPTS; i++) {
  turns.push(
    { toolCalls: [{ name: 'view', input: { file_path: 'small.ts' } }] },
    { text: { chunk: 'The file exports `answer` and `double`. ', times: 50 } },
  );
}
const here = import.meta.dirname;
const fakeChild = spawn(process.execPath, ['--import', 'tsx', join(here, 'fake-provider-child.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
fakeChild.stdin.write(`${JSON.stringify({ turns })}\n`);
const url = await new Promise((resolve, reject) => {
  fakeChild.once('exit', (code) => reject(new Error(`fake provider child exited ${code}`)));
  createInterface({ input: fakeChild.stdout }).on('line', (line) => line.startsWith('url ') && resolve(line.slice(4)));
});
const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-rss-'));
mkdirSync(join(dir, '.home'), { recursive: true });
writeFileSync(
  join(dir, 'small.ts'),
  'export const answer = 42;\nexport function double(x: number) {\n  return x * 2;\n}\n',
);
const env = { HOME: join(dir, '.home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url };
const { createOpencode } = await import(join(here, '..', 'dist', 'index.js'));
const opencode = await createOpencode({ directory: dir, env, model: 'anthropic/claude-haiku-4-5' });
const built = sample();
const after = [];
for (let i = 0; i < PROMPTS; i++) {
  const result = await opencode.run('rss', `Prompt ${i}: what does small.ts export?`);
  if (result.reason !== 'end_turn') throw new Error(`prompt ${i} ended with ${result.reason}: ${result.error}`);
  after.push(sample());
}
await opencode.close();
fakeChild.stdin.end();
process.stdout.write(
  `${JSON.stringify({ prompts: PROMPTS, built, first: after[0], last: after.at(-1), after, peakRssKb: process.resourceUsage().maxRSS })}\n`,
);
