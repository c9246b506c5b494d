/**
 * A turn that made many files (a code generator, `npm init`, an unpacked archive). The undo's
 * note goes into the conversation and so to the model with every later request: it named all 10,000
 * files (220 kB of text). Through `bin/opencode -p` with the fake provider scripting bash, real git and
 * a real SQLite file: the note names 20 files and counts the rest, the printed report lists 200 and
 * counts the rest, `--json` lists every one, and every file is removed and made again.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { queryProjectDb } from '../support/project-db.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const query = queryProjectDb;

const names = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `gen/f${String(from + i).padStart(3, '0')}`);

describe('undo of a turn that made 250 files', () => {
  it('names 20 of them in the note, lists 200 in the report and every one in --json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-many-'));
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'bash', input: { command: 'mkdir gen && for i in $(seq -w 1 250); do echo $i > gen/f$i; done' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = await runCli(['-p', 'generate'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
    const id = query<{ id: string }>(dir, 'SELECT id FROM sessions')[0]!.id;

    const undo = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
    expect([undo.code, undo.stderr]).toEqual([0, '']);
    expect(undo.stdout).toBe(
      [
        'Undid the turn "generate":',
        ...names(1, 200).map((n) => `  removed   ${n}`),
        '  … and 50 more files (--json lists every one)',
        '',
      ].join('\n'),
    );
    expect(readdirSync(join(dir, 'gen'))).toEqual([]);
    const [note] = query<{ parts: string }>(
      dir,
      "SELECT parts FROM messages WHERE role = 'user' ORDER BY seq DESC LIMIT 1",
    );
    expect(JSON.parse(note!.parts)[0].text).toBe(
      `The user undid the last turn's file changes: ${names(1, 20)
        .map((n) => `${n} removed`)
        .join(', ')}, and 230 more files (230 removed). Read a file again before changing it.`,
    );

    const redo = await runCli(['sessions', 'undo', id, '--redo', '--json'], { cwd: dir, env: cleanEnv() });
    expect(redo.code).toBe(0);
    expect(JSON.parse(redo.stdout).files).toEqual(names(1, 250).map((path) => ({ path, action: 'created' })));
    expect(readdirSync(join(dir, 'gen')).length).toBe(250);
  }, 60_000);
});
