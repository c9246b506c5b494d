/**
 * `opencode sessions undo ID [--redo] [--json]`, through the built binary against a project
 * whose session had a real turn (agent, tools, SQLite, fake provider): the turn's files are put back,
 * a file changed since is left alone with exit 1 and its diff, and bad ids say what to do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentHarness, type Harness } from '../support/agent-harness.js';
import { cleanEnv, runCli } from '../support/cli.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A project whose session's one turn changed a.txt from `one` to `two`; the harness's database is closed. */
async function projectWithTurn(): Promise<{ dir: string; sessionId: string }> {
  const harness = await agentHarness([
    { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
    { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }] },
    { text: 'ok' },
  ]);
  writeFileSync(join(harness.dir, 'a.txt'), 'one\n');
  await harness.agent.run(harness.sessionId, 'change a');
  await harness.close();
  return { dir: harness.dir, sessionId: harness.sessionId };
}

describe('opencode sessions undo', () => {
  it('undoes the last turn by a unique id prefix, and --redo --json puts it back', async () => {
    const { dir, sessionId } = await projectWithTurn();
    const env = cleanEnv();
    const undo = await runCli(['sessions', 'undo', sessionId.slice(0, 8)], { cwd: dir, env });
    expect(undo.stderr).toBe('');
    expect(undo.stdout).toBe('Undid the turn "change a":\n  restored  a.txt\n');
    expect(undo.code).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');

    const redo = await runCli(['sessions', 'undo', sessionId, '--redo', '--json'], { cwd: dir, env });
    expect(redo.code).toBe(0);
    const json = JSON.parse(redo.stdout);
    expect({ ...json, turnId: typeof json.turnId, noteMessageId: typeof json.noteMessageId }).toEqual({
      kind: 'redo',
      turnId: 'string',
      prompt: 'change a',
      files: [{ path: 'a.txt', action: 'restored' }],
      conflicts: [],
      untracked: [],
      noteMessageId: 'string',
    });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('leaves a file changed since alone: exit 1, the difference printed, the file untouched', async () => {
    const { dir, sessionId } = await projectWithTurn();
    writeFileSync(join(dir, 'a.txt'), 'two\nmine\n');
    const run = await runCli(['sessions', 'undo', sessionId], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      'Nothing undone: every file of the turn "change a" changed since.\n' +
        'Left alone, changed since (your changes are kept):\n' +
        '  a.txt: changed since\n' +
        '    --- a/a.txt\n    +++ b/a.txt\n    @@ -1,1 +1,2 @@\n     two\n    +mine\n',
    );
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\nmine\n');
  });

  it('says what is wrong with an unknown id (exit 2) and when there is nothing left to undo (exit 1)', async () => {
    const { dir, sessionId } = await projectWithTurn();
    const env = cleanEnv();
    const unknown = await runCli(['sessions', 'undo', 'zzz'], { cwd: dir, env });
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      'opencode: no session zzz; `opencode sessions list` shows them\n',
    ]);
    await runCli(['sessions', 'undo', sessionId], { cwd: dir, env });
    const again = await runCli(['sessions', 'undo', sessionId], { cwd: dir, env });
    expect([again.code, again.stdout, again.stderr]).toEqual([
      1,
      '',
      'opencode: Nothing to undo: no turn of this session has file changes left to undo.\n',
    ]);
  });
});
