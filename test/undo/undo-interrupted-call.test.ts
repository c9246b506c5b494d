/**
 * A process killed in the middle of a bash call (`kill -9`, a closed terminal): it never
 * took the after-snapshot, so what the command changed was out of reach of undo, and undo said
 * "Nothing to undo" about a turn that deleted a file. Through `bin/opencode -p` with the fake provider
 * scripting bash, real git and a real SQLite file: the next run (`--continue`) records the killed
 * call's changes into its own turn, so undo walks back through it exactly.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = (provider: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: provider.anthropicBaseURL });

async function undo(dir: string): Promise<[number | null, string, string]> {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  const { id } = db.prepare('SELECT id FROM sessions').get() as { id: string };
  db.close();
  const run = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
  return [run.code, run.stdout, run.stderr];
}

describe('a run killed during a bash call', () => {
  it('leaves its changes to the next run, which records them into the killed turn: undo takes back both turns exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-killed-'));
    writeFileSync(join(dir, 'f'), '0\n');
    writeFileSync(join(dir, 'keep.txt'), 'precious\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'bash', input: { command: 'echo 1 > f; rm keep.txt; touch started; sleep 5' } }] },
      { text: 'Done.' },
    ]);
    let pid = 0;
    const killed = runCli(['-p', 'clean up'], { cwd: dir, env: env(fake), onSpawn: (p) => (pid = p) });
    while (!existsSync(join(dir, 'started'))) await new Promise((r) => setTimeout(r, 50));
    process.kill(pid, 'SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');
    await fake.close();

    fake = await startFakeProvider([
      { toolCalls: [{ name: 'bash', input: { command: 'echo 2 > f' } }] },
      { text: 'Done.' },
    ]);
    expect(await runCli(['-p', 'next', '--continue'], { cwd: dir, env: env(fake) })).toMatchObject({
      code: 0,
      stdout: 'Done.\n',
      stderr: '',
    });

    expect(await undo(dir)).toEqual([0, 'Undid the turn "next":\n  restored  f\n', '']);
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('1\n');
    expect(await undo(dir)).toEqual([
      0,
      'Undid the turn "clean up":\n  restored  f\n  created   keep.txt\n  removed   started\n',
      '',
    ]);
    expect([
      readFileSync(join(dir, 'f'), 'utf8'),
      readFileSync(join(dir, 'keep.txt'), 'utf8'),
      existsSync(join(dir, 'started')),
    ]).toEqual(['0\n', 'precious\n', false]);
  }, 60_000);
});
