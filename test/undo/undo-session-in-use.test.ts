/**
 * `opencode sessions undo` while another process runs the session: the undo wrote files
 * under a running reply, whose bash call then took the undo's writes for its own changes (a later
 * undo of that turn put the undone turn back). Through `bin/opencode -p` with the fake provider
 * scripting a slow bash call, a real SQLite file and real git: the undo is refused, naming the
 * process, and nothing is written; once the run ends it works.
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

describe('sessions undo of a session a -p run is replying in', () => {
  it('is refused, naming the run, and writes nothing; after the run it undoes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-in-use-'));
    writeFileSync(join(dir, 'f'), '0\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'bash', input: { command: 'echo 1 > f' } }] },
      { text: 'Done.' },
    ]);
    expect(await runCli(['-p', 'first'], { cwd: dir, env: env(fake) })).toMatchObject({
      code: 0,
      stdout: 'Done.\n',
      stderr: '',
    });
    await fake.close();
    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    const { id } = db.prepare('SELECT id FROM sessions').get() as { id: string };
    db.close();

    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'bash', input: { command: 'touch started; until [ -e go ]; do sleep 0.05; done; echo 2 > g' } },
        ],
      },
      { text: 'Done.' },
    ]);
    let pid = 0;
    const running = runCli(['-p', 'second', '--continue'], { cwd: dir, env: env(fake), onSpawn: (p) => (pid = p) });
    while (!existsSync(join(dir, 'started'))) await new Promise((r) => setTimeout(r, 50));
    const refused = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^opencode: session ${id} is in use by opencode -p \\(pid ${pid}, since [^)]+\\): undo it once that ends \\(or with /undo in that TUI\\)\\n$`,
      ),
    );
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('1\n');
    writeFileSync(join(dir, 'go'), '');
    expect(await running).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });

    const undone = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
    expect([undone.code, undone.stdout, undone.stderr]).toEqual([
      0,
      'Undid the turn "second":\n  removed   g\n  removed   go\n  removed   started\n',
      '',
    ]);
  }, 60_000);
});
