/**
 * The private snapshot repository damaged between runs: a broken index, objects gone or
 * overwritten with garbage (a disk error, a person poking at `.opencode/snapshots`). Through
 * `bin/opencode -p` with the fake provider scripting bash, real git and a real SQLite file: the
 * repository is made anew (tracking goes on, it did not stay broken for every later run), a call whose
 * before-snapshot was lost says so in plain words, and undo never writes garbage.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
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

/** One `-p` turn (continuing the session after the first) whose one call is bash running `command`; returns the call's untracked reasons. */
async function runTurn(dir: string, prompt: string, command: string, first: boolean): Promise<unknown> {
  fake = await startFakeProvider([{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'Done.' }]);
  const run = await runCli(['-p', prompt, ...(first ? [] : ['--continue'])], {
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
  });
  await fake.close();
  fake = undefined;
  expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
  const rows = query<{ parts: string }>(dir, "SELECT parts FROM messages WHERE role = 'tool' ORDER BY seq");
  return JSON.parse(rows.at(-1)!.parts)[0].metadata?.untrackedChanges;
}

const repoOf = (dir: string) =>
  join(
    dir,
    '.opencode',
    'snapshots',
    readdirSync(join(dir, '.opencode', 'snapshots')).find((n) => /^[0-9a-f]{16}$/.test(n))!,
  );

async function undo(dir: string): Promise<[number | null, string, string]> {
  const id = query<{ id: string }>(dir, 'SELECT id FROM sessions')[0]!.id;
  const run = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
  return [run.code, run.stdout, run.stderr];
}

const read = (dir: string) =>
  ['f', 'k'].map((name) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return null;
    }
  });

describe('a damaged snapshot repository', () => {
  it.each([
    ['its index overwritten', (repo: string) => writeFileSync(join(repo, 'index'), 'junk\n')],
    ['its objects removed', (repo: string) => rmSync(join(repo, 'objects'), { recursive: true })],
  ])('(%s) is made anew: the next call is tracked and both turns undo exactly', async (_, damage) => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-damaged-'));
    writeFileSync(join(dir, 'f'), '0\n');
    writeFileSync(join(dir, 'k'), 'k\n');
    expect(await runTurn(dir, 'first', 'echo 1 > f', true)).toBeUndefined();
    damage(repoOf(dir));
    expect(await runTurn(dir, 'second', 'echo 2 > f; rm k', false)).toBeUndefined();
    expect(await undo(dir)).toEqual([0, 'Undid the turn "second":\n  restored  f\n  created   k\n', '']);
    expect(read(dir)).toEqual(['1\n', 'k\n']);
    expect(await undo(dir)).toEqual([0, 'Undid the turn "first":\n  restored  f\n', '']);
    expect(read(dir)).toEqual(['0\n', 'k\n']);
  });

  it('(its objects overwritten with garbage) loses the one call whose before-snapshot was in it, says so, and tracks the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-damaged-'));
    writeFileSync(join(dir, 'f'), '0\n');
    writeFileSync(join(dir, 'k'), 'k\n');
    expect(await runTurn(dir, 'first', 'echo 1 > f', true)).toBeUndefined();
    const objects = join(repoOf(dir), 'objects');
    for (const folder of readdirSync(objects).filter((n) => /^[0-9a-f]{2}$/.test(n))) {
      for (const name of readdirSync(join(objects, folder))) {
        rmSync(join(objects, folder, name), { force: true });
        writeFileSync(join(objects, folder, name), 'garbage\n');
      }
    }
    const lost = (await runTurn(dir, 'second', 'echo 2 > f', false)) as string[];
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(
      /^files changed by bash are not tracked: taking a snapshot failed: the snapshot repository was damaged \(git .* failed \(exit 128\): .*\); it was made anew, and later calls are tracked$/,
    );
    expect(await runTurn(dir, 'third', 'echo 3 > f; rm k', false)).toBeUndefined();
    expect(await undo(dir)).toEqual([0, 'Undid the turn "third":\n  restored  f\n  created   k\n', '']);
    expect(read(dir)).toEqual(['2\n', 'k\n']);
    // the first turn's f is no longer as it left it (the untracked second turn changed it): left alone, no garbage written
    const [code, out] = await undo(dir);
    expect(code).toBe(1);
    expect(out).toMatch(
      /^Nothing undone: every file of the turn "first" changed since\.\nLeft alone, changed since \(your changes are kept\):\n  f: changed since\n    --- a\/f\n    \+\+\+ b\/f\n    @@ -1,1 \+1,1 @@\n    -1\n    \+2\n/,
    );
    expect(read(dir)).toEqual(['2\n', 'k\n']);
  });
});
