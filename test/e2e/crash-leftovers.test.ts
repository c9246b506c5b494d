/**
 * End to end: `opencode -p` is killed with SIGKILL while the bash tool runs
 * `sleep 300` (the scripted model asked for it). Then:
 * - the shell's own process group ends with it (the watcher in the group sees the agent die), and so
 *   does a background job of an earlier call (`sleep 301 &`, whose watcher stayed for it);
 * - a job of another call that the shell did not know (`(sleep 300 &)`, from a subshell) outlives it, and so do
 *   the shell's state directory (mode 0700, files 0600, no key in them) and the journal in `.opencode/state`;
 * - the next start in the project ends that background job (its group was journaled with the leader's
 *   start time), removes the state directory and the journal, and stores the cut-off call as
 *   interrupted (not "canceled by user") in the killed session.
 * Real bin/opencode, real shells and processes, real SQLite, the loopback fake provider.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT } from '../../src/agent/history.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

const KEY = 'sk-ant-test-crash-0123456789';
const fakes: FakeProvider[] = [];
const strays: number[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Alive and not a zombie waiting to be reaped (a killed process whose parent died lingers as one for a moment). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `condition` every 50 ms until it holds or `limitMs` passes; returns whether it held (no timing is asserted). */
async function eventually(condition: () => boolean, limitMs = 20_000): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if (condition()) return true;
  }
  return condition();
}

describe.skipIf(process.platform !== 'linux')('kill -9 of opencode -p during a bash call, then a restart', () => {
  it('ends the shell at once, and the restart cleans what was left and stores the call as interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-crash-'));
    const shellTmp = mkdtempSync(join(tmpdir(), 'opencode-e2e-crash-tmp-'));
    mkdirSync(join(dir, 'src'));
    // sandbox off (trusted, as a project's own setting that loosens the sandbox waits for trust): the test reads the commands' host pids, which the sandbox's pid namespace hides (a background job also ends with its command there)
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ sandbox: 'off', permission: { bash: { '*': 'allow' } } }),
    );
    const first = await startFakeProvider([
      {
        toolCalls: [
          { id: 'toolu_bg', name: 'bash', input: { command: '(sleep 300 >/dev/null 2>&1 & echo $! > bg.pid)' } },
        ],
      },
      {
        toolCalls: [
          { id: 'toolu_job', name: 'bash', input: { command: 'sleep 301 >/dev/null 2>&1 & echo $! > job.pid' } },
        ],
      },
      {
        toolCalls: [
          { id: 'toolu_fg', name: 'bash', input: { command: 'echo $$ > fg.pid; sleep 300', timeout: 600_000 } },
        ],
      },
      { text: 'never sent' },
    ]);
    fakes.push(first);
    const env = cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: first.anthropicBaseURL, TMPDIR: shellTmp });

    let cliPid = 0;
    const killed = runCli(['--trust', '-p', 'start the server, then wait'], {
      cwd: dir,
      env,
      onSpawn: (pid) => (cliPid = pid),
    });
    expect(
      await eventually(
        () => existsSync(join(dir, 'fg.pid')) && readFileSync(join(dir, 'fg.pid'), 'utf8').endsWith('\n'),
      ),
    ).toBe(true);
    const bgPid = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
    const jobPid = Number(readFileSync(join(dir, 'job.pid'), 'utf8'));
    const fgPgid = Number(readFileSync(join(dir, 'fg.pid'), 'utf8'));
    strays.push(bgPid, jobPid);
    expect(alive(bgPid)).toBe(true);
    expect(alive(jobPid)).toBe(true);
    process.kill(cliPid, 'SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');

    // the running command's whole group dies with opencode, and the shell's background job of an earlier call;
    // a job started from a subshell in another call, which the shell could not see, does not
    expect(await eventually(() => !alive(fgPgid) && !alive(jobPid))).toBe(true);
    expect(alive(bgPid)).toBe(true);

    // left behind: the shell state directory, private and without the key, and the journal
    const stateDirs = readdirSync(shellTmp).filter((n) => n.startsWith(`opencode-shell-${cliPid}-`));
    expect(stateDirs).toHaveLength(1);
    const stateDir = join(shellTmp, stateDirs[0]!);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    // files 0600; folders (the running command's own state folder) 0700
    const stateFiles = readdirSync(stateDir, { recursive: true, encoding: 'utf8' }).map((name) => join(stateDir, name));
    expect(stateFiles.length).toBeGreaterThan(0);
    for (const path of stateFiles) {
      const stat = statSync(path);
      expect(stat.mode & 0o777).toBe(stat.isDirectory() ? 0o700 : 0o600);
      if (!stat.isDirectory()) expect(readFileSync(path, 'utf8')).not.toContain(KEY);
    }
    const journal = join(dir, '.opencode', 'state', `run-${cliPid}.json`);
    expect(existsSync(journal)).toBe(true);

    // the next start in the project
    const second = await startFakeProvider([{ text: 'All clean.' }]);
    fakes.push(second);
    const restart = await runCli(['--trust', '-p', 'anything left?'], {
      cwd: dir,
      env: { ...env, ANTHROPIC_BASE_URL: second.anthropicBaseURL },
    });
    expect(restart).toMatchObject({ code: 0, stdout: 'All clean.\n' });

    expect(await eventually(() => !alive(bgPid))).toBe(true);
    expect(existsSync(stateDir)).toBe(false);
    expect(existsSync(journal)).toBe(false);
    expect(readdirSync(join(dir, '.opencode', 'state'))).toEqual([]);

    // the killed session: the cut-off call is interrupted, not canceled by the person
    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    try {
      const rows = db
        .prepare<[], { role: string; parts: string; finished_at: number | null }>(
          `SELECT role, parts, finished_at FROM messages WHERE session_id = (SELECT id FROM sessions ORDER BY created_at LIMIT 1) ORDER BY seq`,
        )
        .all();
      const results = rows.flatMap((r) =>
        (JSON.parse(r.parts) as { type: string; toolCallId?: string; content?: string }[]).filter(
          (p) => p.type === 'tool_result',
        ),
      );
      expect(results.map((r) => [r.toolCallId, r.content])).toEqual([
        ['toolu_bg', 'no output'],
        ['toolu_job', 'no output'],
        ['toolu_fg', INTERRUPTED_RESULT],
      ]);
      expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    } finally {
      db.close();
    }
  }, 90_000);
});
