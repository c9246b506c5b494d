/**
 * Two opencode processes in one project at once: each `-p` run's bash call is snapshotted
 * before and after; calls that overlap in time would each record the other's changes, and undoing one
 * session would take back the other's work. Through two `bin/opencode -p` runs at the same time, each
 * with its own fake provider, a real SQLite file and real git: calls take turns (`call-lock.ts`) and
 * each session records exactly its own files; calls that cannot take turns (each waits for the other)
 * both run untracked and say why, and undo takes back neither. A lock left by a killed process is
 * taken over.
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectCallLock } from '../../src/undo/call-lock.js';
import { OTHER_CALL } from '../../src/undo/bash-changes.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { queryProjectDb } from '../support/project-db.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

const query = queryProjectDb;

/** Runs `-p <prompt>` in `dir` for each [prompt, bash command] at the same time. */
async function runTogether(dir: string, runs: [string, string][]): Promise<void> {
  const done = await Promise.all(
    runs.map(async ([prompt, command]) => {
      const fake = await startFakeProvider([{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'Done.' }]);
      fakes.push(fake);
      return runCli(['-p', prompt], {
        cwd: dir,
        env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
      });
    }),
  );
  for (const run of done) expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
}

/** The session started by `prompt`: its id, the relative paths of its turn changes, its bash result's untracked reasons. */
function sessionOf(dir: string, prompt: string) {
  const [{ session_id: id }] = query<{ session_id: string }>(
    dir,
    "SELECT session_id FROM messages WHERE role = 'user' AND parts LIKE ?",
    `%"text":"${prompt}"%`,
  ) as [{ session_id: string }];
  const paths = query<{ path: string }>(
    dir,
    'SELECT path FROM turn_changes WHERE session_id = ? ORDER BY path',
    id,
  ).map((r) => r.path.slice(dir.length + 1));
  let untracked: unknown;
  for (const row of query<{ parts: string }>(
    dir,
    "SELECT parts FROM messages WHERE role = 'tool' AND session_id = ?",
    id,
  )) {
    for (const part of JSON.parse(row.parts)) if (part.name === 'bash') untracked = part.metadata?.untrackedChanges;
  }
  return { id, paths, untracked };
}

async function undo(dir: string, id: string): Promise<[number | null, string, string]> {
  const run = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
  return [run.code, run.stdout, run.stderr];
}

describe('two opencode runs in one project at once', () => {
  it('take turns: each session records exactly the files its own command changed, and its undo takes back only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-concurrent-'));
    for (const name of ['a1', 'a2', 'b1', 'b2']) writeFileSync(join(dir, name), `${name}\n`);
    // each command spans a second: without taking turns, the two windows overlap
    await runTogether(dir, [
      ['job A', 'echo A >> a1; sleep 1; echo A >> a2; echo A > onlyA'],
      ['job B', 'echo B >> b1; sleep 1; echo B >> b2; echo B > onlyB'],
    ]);
    const a = sessionOf(dir, 'job A');
    const b = sessionOf(dir, 'job B');
    expect([a.paths, a.untracked]).toEqual([['a1', 'a2', 'onlyA'], undefined]);
    expect([b.paths, b.untracked]).toEqual([['b1', 'b2', 'onlyB'], undefined]);

    expect(await undo(dir, a.id)).toEqual([
      0,
      'Undid the turn "job A":\n  restored  a1\n  restored  a2\n  removed   onlyA\n',
      '',
    ]);
    expect(['a1', 'a2', 'b1', 'b2', 'onlyB'].map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual([
      'a1\n',
      'a2\n',
      'b1\nB\n',
      'b2\nB\n',
      'B\n',
    ]);
    expect(existsSync(join(dir, 'onlyA'))).toBe(false);
  });

  it('calls that cannot take turns (each waits for the other) both run untracked and say why; undo takes back neither', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-concurrent-'));
    writeFileSync(join(dir, 'shared.txt'), 'start\n');
    // whichever holds the lock waits for the other's command to start: the other gives up waiting
    // (10 s) and runs without it
    const meet = (me: string, other: string) =>
      `touch .${me}; until [ -e .${other} ]; do sleep 0.05; done; echo ${me} >> shared.txt; echo ${me} > only${me}`;
    await runTogether(dir, [
      ['job A', meet('A', 'B')],
      ['job B', meet('B', 'A')],
    ]);
    const reason = [`files changed by bash are not tracked: ${OTHER_CALL}`];
    for (const prompt of ['job A', 'job B']) {
      const session = sessionOf(dir, prompt);
      expect([session.paths, session.untracked]).toEqual([[], reason]);
      expect(await undo(dir, session.id)).toEqual([
        1,
        '',
        `opencode: Nothing to undo: no turn of this session has file changes left to undo. Not tracked: ${reason[0]}.\n`,
      ]);
    }
    expect(['onlyA', 'onlyB'].map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['A\n', 'B\n']);
  }, 60_000);

  it('a lock left by a process that is gone is taken over at once', async () => {
    const gitDir = mkdtempSync(join(tmpdir(), 'opencode-call-lock-'));
    mkdirSync(gitDir, { recursive: true });
    // a pid above the kernel's maximum (4194304) never runs
    writeFileSync(join(gitDir, 'opencode-call.lock'), '4999999 deadbeef');
    const lock = new ProjectCallLock(gitDir);
    expect(await lock.acquire(0)).toBe(true);
    expect(readFileSync(join(gitDir, 'opencode-call.lock'), 'utf8')).toMatch(
      new RegExp(`^${process.pid} [0-9a-f]{12} 1$`),
    );
    // a second holder (another process, as far as the lock can tell) waits and gives up
    expect(await new ProjectCallLock(gitDir).acquire(0)).toBe(false);
    lock.release();
    expect(existsSync(join(gitDir, 'opencode-call.lock'))).toBe(false);
    expect(await new ProjectCallLock(gitDir).acquire(0)).toBe(true);
  });

  it("a call that outlasted one wait is not waited for again; the same process's next call is", async () => {
    const gitDir = mkdtempSync(join(tmpdir(), 'opencode-call-lock-'));
    const long = new ProjectCallLock(gitDir);
    const waiter = new ProjectCallLock(gitDir);
    expect(await long.acquire(0)).toBe(true);
    expect(await waiter.acquire(100)).toBe(false);
    // while the same hold lasts, no second wait: false at once, though the wait would outlast the test
    expect(await waiter.acquire(600_000)).toBe(false);
    long.release();
    expect(await long.acquire(0)).toBe(true);
    // a new hold is waited for again: got once it is let go
    const got = waiter.acquire(600_000);
    setTimeout(() => long.release(), 100);
    expect(await got).toBe(true);
  });
});
