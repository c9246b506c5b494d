/**
 * Child process of bench/rss.ts: builds the app as the TUI does (as test/support/tui-app.ts: real
 * App, SQLite file, the TUI's ChatServices, the real Anthropic SDK against the loopback fake provider,
 * which runs in a process of its own — in this one it would keep every request body) and sends
 * `PROMPTS` prompts through `services.agent.run`, each one tool step (`view`) and a text reply of
 * ~2 KB. Prints one JSON line: RSS and heap (bytes) after the app is built and after each prompt
 * (`first`, `last`, `after`), each after a full GC (`--expose-gc`). Its dist/ twin: rss-dist-child.mjs.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createApp } from '../src/app/app.js';
import { resolveModels } from '../src/app/models.js';
import { chatServices } from '../src/cli/tui-services.js';
import { loadConfig } from '../src/config/load.js';
import type { ChildTurn } from './fake-provider-child.js';

const PROMPTS = Number(process.argv[2] ?? 30);
const gc = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
};
const turns: ChildTurn[] = [];
for (let i = 0; i < PROMPTS; i++) {
  turns.push(
    { toolCalls: [{ name: 'view', input: { file_path: 'small.ts' } }] },
    { text: { chunk: 'The file exports `answer` and `double`. ', times: 50 } },
  );
}
const fakeChild = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fake-provider-child.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
fakeChild.stdin.write(`${JSON.stringify({ turns })}\n`);
const url = await new Promise<string>((resolve, reject) => {
  fakeChild.once('exit', (code) => reject(new Error(`fake provider child exited ${code}`)));
  createInterface({ input: fakeChild.stdout }).on('line', (line) => line.startsWith('url ') && resolve(line.slice(4)));
});
const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-rss-'));
mkdirSync(join(dir, '.home'), { recursive: true });
mkdirSync(join(dir, '.opencode'), { recursive: true });
writeFileSync(join(dir, '.opencode', 'init'), '');
writeFileSync(
  join(dir, 'small.ts'),
  'export const answer = 42;\nexport function double(x: number) {\n  return x * 2;\n}\n',
);
const env = { HOME: join(dir, '.home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url };
const { config } = loadConfig({ cwd: dir, env });
const models = await resolveModels(config, env);
const app = createApp({
  cwd: dir,
  config,
  models: models.models,
  providerSettings: models.settings,
  generateTitles: false,
});
const services = chatServices(app, models.settings, env);
const session = services.sessions.create();
const built = sample();
const after: ReturnType<typeof sample>[] = [];
for (let i = 0; i < PROMPTS; i++) {
  const result = await services.agent.run(session.id, `Prompt ${i}: what does small.ts export?`, []);
  if (result.reason !== 'end_turn') throw new Error(`prompt ${i} ended with ${result.reason}: ${result.error}`);
  after.push(sample());
}
const first = after[0] ?? built;
const last = after.at(-1) ?? built;
await app.close();
fakeChild.stdin.end();
process.stdout.write(
  `${JSON.stringify({ prompts: PROMPTS, built, first, last, after, peakRssKb: process.resourceUsage().maxRSS })}\n`,
);
