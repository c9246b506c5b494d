/**
 * A bash call that printed nothing reads as `no output` in `opencode sessions show` and in the
 * markdown export, not `1 line: no output` (bash stores the words "no output" for the model, and the
 * summary counted them as a line of output). Sessions made by real `-p` runs against the loopback
 * fake provider, read back through bin/opencode.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider;
let dir: string;
let env: Record<string, string>;
let sessionId: string;
const cli = (args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(async () => {
  fake = await startFakeProvider([
    { toolCalls: [{ id: 'toolu_true', name: 'bash', input: { command: 'true' } }] },
    { toolCalls: [{ id: 'toolu_cd', name: 'bash', input: { command: 'cd src' } }] },
    { text: 'Done.' },
  ]);
  dir = mkdtempSync(join(tmpdir(), 'opencode-empty-output-'));
  mkdirSync(join(dir, 'src'));
  env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  expect(await cli(['-p', 'run them'])).toMatchObject({ code: 0, stdout: 'Done.\n' });
  sessionId = (JSON.parse((await cli(['sessions', 'list', '--json'])).stdout) as { id: string }[])[0]!.id;
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

describe('a bash call that printed nothing', () => {
  it('shows as "no output" in sessions show, with the working-directory note after a cd', async () => {
    const run = await cli(['sessions', 'show', sessionId]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines.slice(lines.indexOf('  ▸ bash: true'), lines.indexOf('Done.'))).toEqual([
      '  ▸ bash: true',
      '    no output',
      '  ▸ bash: cd src',
      `    no output (the working directory is now ${join(dir, 'src')})`,
    ]);
  }, 60_000);

  it('shows as "no output" in the markdown export summary', async () => {
    const md = (await cli(['sessions', 'export', sessionId, '--format', 'md'])).stdout;
    expect(md).toContain('<details><summary>bash: true — no output</summary>');
    expect(md).toContain(
      `<details><summary>bash: cd src — no output (the working directory is now ${join(dir, 'src')})</summary>`,
    );
  }, 60_000);
});
