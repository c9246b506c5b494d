/**
 * A bash call that removes or edits `.gitignore`: files it ignored — a person's data, a
 * build folder — suddenly show in the after-snapshot. They were recorded as created by the call, and
 * undo deleted them: the person's files gone. Through `bin/opencode -p` with the fake provider
 * scripting bash, real git and a real SQLite file: such files are left out of the turn (their ctime
 * says they were there before the call), `.gitignore` is put back, and the files stay.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

describe('a bash call that stops ignoring files', () => {
  it.each([
    [
      'removes .gitignore',
      'rm .gitignore && echo new > made.txt',
      'Undid the turn "tidy up":\n  created   .gitignore\n  removed   made.txt\n',
    ],
    [
      'edits .gitignore',
      "sed -i 's#ign/##' .gitignore && echo new > made.txt",
      'Undid the turn "tidy up":\n  restored  .gitignore\n  removed   made.txt\n',
    ],
  ])(
    '(%s): undo puts .gitignore back and leaves the files it ignored alone',
    async (_, command, report) => {
      const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-gitignore-'));
      writeFileSync(join(dir, '.gitignore'), 'ign/\n');
      mkdirSync(join(dir, 'ign'));
      writeFileSync(join(dir, 'ign', 'data'), 'precious\n');
      // the files were there a while before the call (the kernel's file clock is coarse)
      await new Promise((r) => setTimeout(r, 2_500));
      fake = await startFakeProvider([{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'Done.' }]);
      const run = await runCli(['-p', 'tidy up'], {
        cwd: dir,
        env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
      });
      expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });

      const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
      const { id } = db.prepare('SELECT id FROM sessions').get() as { id: string };
      db.close();
      const undo = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
      expect([undo.code, undo.stdout, undo.stderr]).toEqual([0, report, '']);
      expect([
        readFileSync(join(dir, '.gitignore'), 'utf8'),
        readdirSync(join(dir, 'ign')),
        readFileSync(join(dir, 'ign', 'data'), 'utf8'),
      ]).toEqual(['ign/\n', ['data'], 'precious\n']);
    },
    60_000,
  );
});
