/**
 * Child process of bench/rss.ts: builds the app as the TUI does (`startTuiApp`: real App, SQLite
 * file, the TUI's ChatServices, the real Anthropic SDK against the loopback fake provider) and sends
 * `PROMPTS` prompts through `services.agent.run`, each one tool step (`view`) and a text reply of
 * ~2 KB. Prints one JSON line: RSS and heap (bytes) after the app is built, after the first prompt
 * and after the last, each after a full GC (`--expose-gc`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTuiApp } from '../test/support/tui-app.js';
import type { FakeTurn } from '../test/support/fake-provider.js';

const PROMPTS = Number(process.argv[2] ?? 30);
const gc = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
};
const reply = 'The file exports `answer` and `double`. '.repeat(50);
const turns: FakeTurn[] = [];
for (let i = 0; i < PROMPTS; i++) turns.push({ toolCalls: [{ name: 'view', input: { file_path: 'small.ts' } }] }, { text: `${i}: ${reply}` });
const t = await startTuiApp(turns);
writeFileSync(join(t.dir, 'small.ts'), 'export const answer = 42;\nexport function double(x: number) {\n  return x * 2;\n}\n');
const session = t.services.sessions.create();
const built = sample();
let first = built;
for (let i = 0; i < PROMPTS; i++) {
  const result = await t.services.agent.run(session.id, `Prompt ${i}: what does small.ts export?`, []);
  if (result.reason !== 'end_turn') throw new Error(`prompt ${i} ended with ${result.reason}: ${result.error}`);
  if (i === 0) first = sample();
}
const last = sample();
await t.close();
process.stdout.write(`${JSON.stringify({ prompts: PROMPTS, built, first, last, peakRssKb: process.resourceUsage().maxRSS })}\n`);
