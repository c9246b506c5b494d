/**
 * End to end in a real terminal (tmux): SIGTERM or SIGHUP (the terminal window closed) while the
 * bash tool runs a command: the terminal is restored, the exit code is 128+n, and the command's
 * process is stopped with us instead of running on (it was found still alive before the fix).
 *
 * Run alone: `npx vitest run test/e2e/tui-signal-cleanup.test.ts` (needs tmux and a built dist/).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider | undefined;
let tui: Terminal | undefined;
let dir: string | undefined;

afterEach(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  tui = fake = dir = undefined;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of the `bin/opencode` node process running in `cwd` (found through /proc). */
function opencodePid(cwd: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[1] === BIN && readlinkSync(`/proc/${entry}/cwd`) === cwd) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  throw new Error(`no opencode process in ${cwd}`);
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('opencode TUI in tmux: killed while a command runs', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: exit ${code}, terminal restored, the running command stopped`, async () => {
      fake = await startFakeProvider(
        [
          {
            toolCalls: [
              { id: 'toolu_sleep', name: 'bash', input: { command: 'echo $$ > sleeper.pid; exec sleep 60' } },
            ],
          },
        ],
        { sideTurn: answerTitles() },
      );
      // the pid the command writes must be the host's: in the sandbox's pid namespace it is another number
      // (--trust: a project's own setting that loosens the sandbox waits for trust)
      dir = tuiProject({ '.opencode.json': JSON.stringify({ sandbox: 'off' }) });
      const command = ['sh', '-c', `"$0" "$1" --trust; echo EXITED:$?; exec sleep 60`, process.execPath, BIN];
      tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
      await tui.submit('sleep a while');
      await tui.waitFor('Permission Required');
      await tui.press('a');
      const pidFile = join(dir, 'sleeper.pid');
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(true);
      const sleeper = Number(readFileSync(pidFile, 'utf8'));
      expect(alive(sleeper)).toBe(true);

      process.kill(opencodePid(dir), signal);
      const screen = await tui.waitFor('EXITED:', 5_000);
      expect(screen).toBe(`EXITED:${code}`);
      expect(await until(() => !alive(sleeper))).toBe(true);
    });
  }
});
