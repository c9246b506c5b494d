/**
 * `-f stream-json` with hostile content: a reply holding a lone UTF-16 surrogate and a NUL,
 * a tool printing NUL bytes and a 1 MiB line, an answer with a 1 MiB line. Every line of stdout stays one valid JSON object, and
 * each string survives exactly as the model or the tool gave it (the surrogate escaped as JSON
 * allows). Real bin/opencode, a real shell, the loopback fake provider.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

it('keeps one valid JSON object per line through lone surrogates, NUL bytes and a 1 MiB output line', async () => {
  const hostile = 'half \ud800 pair, NUL \u0000 and a\nnew line';
  // a 1 MiB line in the answer itself (a tool's output is cut to the tools' limit before it gets here)
  const final = `done ${hostile} ${'y'.repeat(1 << 20)}`;
  fake = await startFakeProvider([
    {
      text: hostile,
      toolCalls: [
        {
          id: 'toolu_big',
          name: 'bash',
          input: { command: "printf 'a\\0b\\n'; head -c 1048576 /dev/zero | tr '\\0' x; echo" },
        },
      ],
    },
    { text: final },
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'opencode-stream-hostile-'));
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  const run = await runCli(['-p', 'print things', '-f', 'stream-json'], { cwd: dir, env });
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  const raw = run.stdout.slice(0, -1).split('\n');
  const lines = raw.map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.map((l) => l.type)).toEqual([
    'session',
    'message',
    'usage',
    'text',
    'tool_call',
    'permission',
    'tool_result',
    'usage',
    'text',
    'result',
  ]);
  expect(lines[3]!.text).toBe(hostile);
  expect(lines[8]!.text).toBe(final);
  expect(lines[9]!.text).toBe(final);
  // the surrogate is escaped, so the bytes on the wire are valid UTF-8 and the line has no raw NUL
  expect(raw[3]).toContain('\\ud800');
  expect(raw.every((l) => !l.includes('\u0000'))).toBe(true);
  expect(lines[6]).toMatchObject({ name: 'bash', isError: false, summary: '6 lines: a\u0000b' });
}, 60_000);
