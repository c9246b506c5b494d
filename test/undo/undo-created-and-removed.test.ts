/**
 * A file that a turn created and removed again: `write` then `rm`, a scratch file a bash
 * call made and a later one deleted, `write` then `mv`. The turn recorded it as "nothing before,
 * nothing after", and undo tried to remove it: `ENOENT … unlink`, the whole undo failed, and since undo
 * always finds the latest turn first, no earlier turn could be undone either. Through `bin/opencode -p`
 * with the fake provider, real git and a real SQLite file.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function runTurn(dir: string, prompt: string, turns: FakeTurn[], first: boolean): Promise<void> {
  fake = await startFakeProvider([...turns, { text: 'Done.' }]);
  const run = await runCli(['-p', prompt, ...(first ? [] : ['--continue'])], {
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
  });
  await fake.close();
  fake = undefined;
  expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
}

async function undo(dir: string, ...args: string[]): Promise<[number | null, string, string]> {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  const { id } = db.prepare('SELECT id FROM sessions').get() as { id: string };
  db.close();
  const run = await runCli(['sessions', 'undo', id, ...args], { cwd: dir, env: cleanEnv() });
  return [run.code, run.stdout, run.stderr];
}

const bash = (command: string): FakeTurn => ({ toolCalls: [{ name: 'bash', input: { command } }] });
const write = (path: string, content: string): FakeTurn => ({
  toolCalls: [{ name: 'write', input: { file_path: path, content } }],
});

describe('a file a turn created and removed again', () => {
  it('is passed over: the rest of the turn is undone and redone, and so is the turn before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-scratch-'));
    writeFileSync(join(dir, 'f'), '0\n');
    await runTurn(dir, 'first', [bash('echo 1 > f')], true);
    await runTurn(
      dir,
      'second',
      [write('new.txt', 'hello\n'), bash('mv new.txt moved.txt; echo t > scratch'), bash('rm scratch; echo 2 > f')],
      false,
    );
    expect(await undo(dir)).toEqual([0, 'Undid the turn "second":\n  restored  f\n  removed   moved.txt\n', '']);
    expect([
      readFileSync(join(dir, 'f'), 'utf8'),
      existsSync(join(dir, 'moved.txt')),
      existsSync(join(dir, 'new.txt')),
    ]).toEqual(['1\n', false, false]);
    expect(await undo(dir)).toEqual([0, 'Undid the turn "first":\n  restored  f\n', '']);
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('0\n');
    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(await undo(dir, '--redo')).toEqual([
      0,
      'Redid the turn "second":\n  restored  f\n  created   moved.txt\n',
      '',
    ]);
    expect([
      readFileSync(join(dir, 'f'), 'utf8'),
      readFileSync(join(dir, 'moved.txt'), 'utf8'),
      existsSync(join(dir, 'scratch')),
    ]).toEqual(['2\n', 'hello\n', false]);
  }, 60_000);

  it('a turn whose only change was such a file counts as nothing to undo: the turn before is undone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-scratch-'));
    writeFileSync(join(dir, 'f'), '0\n');
    await runTurn(dir, 'first', [bash('echo 1 > f')], true);
    await runTurn(dir, 'second', [bash('echo t > tmp'), bash('rm tmp')], false);
    expect(await undo(dir)).toEqual([0, 'Undid the turn "first":\n  restored  f\n', '']);
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('0\n');
  }, 60_000);
});
