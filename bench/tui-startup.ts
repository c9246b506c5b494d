/**
 * TUI start-up as a person meets it: `bin/opencode` run through its own shebang (as a
 * shell runs it, its /bin/sh line and the TUI's `--max-semi-space-size=4` included) in a real pty (`script`, 120×40), against the
 * loopback fake provider, in an initialised project (no Initialize Project dialog). Per run:
 * - skeleton: spawn → the pre-Ink frame (`OpenCode v…`) on the pty;
 * - status bar: spawn → a line holding both `ctrl+/ help` and the model's name (Ink's first full frame);
 * - full UI usable: a key is written to the pty the moment the status bar is complete; spawn → the
 *   editor line showing it (`> x`). With the terminal still in cooked mode the pty itself would echo
 *   the letter, so only the app's editor line counts;
 * - first keys: {@link FOLLOW_KEYS} more letters, one every {@link FOLLOW_GAP_MS} ms from then on
 *   (while grammars, tools and the rest load in the background): write → the editor line showing
 *   the text typed so far;
 * - peak RSS of the TUI process (`VmHWM` of /proc/<pid>/status) after {@link SETTLED_MS} ms.
 * Beside `node -e 0` started the same way (spawn → exit), runs interleaved. The untimed warm-up run
 * also writes the TUI's V8 code cache (src/cli/code-cache.ts): the timed runs start from it.
 * `OPENCODE_STARTUP_TRACE=<file>` in the environment of a run gives its phases (wall and CPU).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalogModel, DEFAULT_MODELS } from '../src/provider/catalog.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { tuiEnv } from '../test/support/tmux.js';
import { log, median, ms, ratio, smallProject, stats, type Row } from './lib.js';
import { snapshotBin } from './snapshot.js';

const COLUMNS = 120;
const ROWS = 40;
const MODEL_NAME = catalogModel(DEFAULT_MODELS.anthropic.coder)!.name;
/** letters typed after the first one, while the background loading runs */
export const FOLLOW_KEYS = 8;
/** ms between those letters (a quick typist) */
export const FOLLOW_GAP_MS = 120;
/** ms after spawn at which the TUI's peak RSS is read (everything loaded by then) */
export const SETTLED_MS = 3000;
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** One command in a 120×40 pty (`script`), its output kept with arrival times. */
export class PtyRun {
  readonly t0 = performance.now();
  readonly child: ChildProcessWithoutNullStreams;
  /** output so far, ANSI sequences removed */
  plain = '';
  exitMs = NaN;
  readonly exited: Promise<void>;
  private waiters: { test: (plain: string) => boolean; from: number; resolve: (ms: number) => void }[] = [];

  constructor(command: string, cwd: string, env: Record<string, string>) {
    this.child = spawn('script', ['-qfec', `stty rows ${ROWS} cols ${COLUMNS}; exec ${command}`, '/dev/null'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.plain += d.replace(ANSI, '');
      const now = this.now();
      this.waiters = this.waiters.filter((w) => (w.test(this.plain.slice(w.from)) ? (w.resolve(now), false) : true));
    });
    this.exited = new Promise((resolve) =>
      this.child.on('close', () => {
        clearTimeout(killer);
        this.exitMs = this.now();
        for (const w of this.waiters) w.resolve(NaN);
        resolve();
      }),
    );
  }

  now(): number {
    return performance.now() - this.t0;
  }

  /** ms since spawn when the output written from now on passes `test` (NaN if the command exits first) */
  next(test: (plain: string) => boolean, fromStart = false): Promise<number> {
    const from = fromStart ? 0 : this.plain.length;
    if (test(this.plain.slice(from))) return Promise.resolve(this.now());
    return new Promise((resolve) => this.waiters.push({ test, from, resolve }));
  }

  /** the pid of the command inside the pty (`script` → `sh -c` → exec) */
  innerPid(): number | undefined {
    try {
      const out = execFileSync('pgrep', ['-P', String(this.child.pid)], { encoding: 'utf8' }).trim();
      return Number(out.split('\n')[0]) || undefined;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    // closing the pty hangs the TUI up (SIGHUP): it restores the terminal and exits
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

export interface StartupRun {
  skeletonMs: number;
  statusBarMs: number;
  usableMs: number;
  /** write → echo of each later letter */
  keyMs: number[];
  peakRssMb: number;
  /** CPU (user + system) of the TUI process when the status bar was complete: less moved by a loaded machine than the wall times */
  statusBarCpuMs: number;
}

/** CPU time (user + system, ms) of process `pid` so far, from /proc/<pid>/stat (NaN when unknown). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    // fields after the command name (which is in parentheses and may hold spaces): utime is the 14th field, stime the 15th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: the unit of /proc/<pid>/stat times (100 on Linux everywhere in practice) */
const CLOCK_TICKS = 100;

// `ctrl+? help` before the keymap's rename: so a build of an older commit can be measured beside this one
const statusBarComplete = (plain: string) =>
  plain.split('\n').some((line) => /ctrl\+[/?] help/.test(line) && line.includes(MODEL_NAME));

/** One start of `command` (a shell line) in the pty, measured as above; exported for A/B runs. */
export async function tuiRun(command: string, cwd: string, env: Record<string, string>): Promise<StartupRun> {
  const pty = new PtyRun(command, cwd, env);
  try {
    const skeleton = pty.next((p) => p.includes('OpenCode v'), true);
    const statusBarMs = await pty.next(statusBarComplete, true);
    const statusBarCpuMs = cpuMs(pty.innerPid());
    if (Number.isNaN(statusBarMs))
      throw new Error(`the TUI exited without a status bar naming ${MODEL_NAME}; output:\n${pty.plain.slice(-2000)}`);
    let typed = 'x';
    pty.child.stdin.write(typed);
    const usableMs = await pty.next((p) => p.includes(`> ${typed}`));
    const keyMs: number[] = [];
    const letters = 'abcdefghijklmnopqrstuvw';
    for (let i = 0; i < FOLLOW_KEYS; i++) {
      await sleep(FOLLOW_GAP_MS);
      typed += letters[i % letters.length];
      const shown = pty.next((p) => p.includes(`> ${typed}`));
      const k0 = pty.now();
      pty.child.stdin.write(typed.at(-1)!);
      keyMs.push((await Promise.race([shown, sleep(5000).then(() => NaN)])) - k0);
    }
    await sleep(Math.max(0, SETTLED_MS - pty.now()));
    const pid = pty.innerPid();
    const hwm = pid ? /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')) : null;
    return {
      skeletonMs: await skeleton,
      statusBarMs,
      usableMs,
      keyMs,
      peakRssMb: hwm ? Number(hwm[1]) / 1024 : NaN,
      statusBarCpuMs,
    };
  } finally {
    await pty.stop();
  }
}

/** The start-up rows (section `tui start-up`), `runs` interleaved runs of `node -e 0` and the TUI. */
export async function benchTuiStartup(runs: number): Promise<Row[]> {
  const fake = await startFakeProvider([], { fallback: { text: 'hi' } });
  const dir = smallProject();
  // initialised, as a project is after its first session: the chat page comes up with the editor focused
  mkdirSync(join(dir, '.opencode'));
  writeFileSync(join(dir, '.opencode', 'init'), '');
  const env = tuiEnv(fake.anthropicBaseURL);
  const snapshot = snapshotBin();
  const node = `${quote(process.execPath)} -e 0`;
  // run as a person runs it: the file itself, its shebang line choosing node and its flags
  const tui = quote(snapshot.bin);
  try {
    log(
      `tui start-up: ${runs} interleaved pty runs of node -e 0 / bin/opencode (shebang), keys typed from the status bar on`,
    );
    await tuiRun(tui, dir, env); // warm-up: creates the project's database (not timed)
    const base: number[] = [];
    const results: StartupRun[] = [];
    for (let i = 0; i < runs; i++) {
      const n = new PtyRun(node, dir, env);
      await n.exited;
      base.push(n.exitMs);
      results.push(await tuiRun(tui, dir, env));
    }
    const b = median(base);
    const pick = (f: (r: StartupRun) => number) => results.map(f);
    const keys = results.flatMap((r) => r.keyMs);
    const lost = keys.filter((k) => Number.isNaN(k)).length;
    const shownKeys = keys.filter((k) => !Number.isNaN(k));
    const section = 'tui start-up';
    return [
      {
        section,
        name: 'pty: node -e 0 (spawn → exit)',
        value: stats(base),
        ratio: '1.00×',
        note: `script -qfec "stty rows ${ROWS} cols ${COLUMNS}; exec node -e 0"`,
      },
      {
        section,
        name: 'skeleton frame',
        value: stats(pick((r) => r.skeletonMs)),
        ratio: ratio(median(pick((r) => r.skeletonMs)), b),
        target: '≤ 200 ms',
        note: 'spawn of bin/opencode (shebang) → the pre-Ink frame ("OpenCode v…") on the pty',
      },
      {
        section,
        name: 'status bar complete',
        value: stats(pick((r) => r.statusBarMs)),
        ratio: ratio(median(pick((r) => r.statusBarMs)), b),
        note: `spawn → a line with "ctrl+/ help" and "${MODEL_NAME}": Ink's first full frame`,
      },
      {
        section,
        name: '  CPU of the TUI by then',
        value: stats(pick((r) => r.statusBarCpuMs)),
        note: 'user + system time of the node process when the status bar was complete (/proc/<pid>/stat, 10 ms ticks): compare across loaded runs',
      },
      {
        section,
        name: 'full UI usable',
        value: stats(pick((r) => r.usableMs)),
        ratio: ratio(median(pick((r) => r.usableMs)), b),
        target: '≤ 500 ms',
        note: 'spawn → the editor line showing a key written to the pty the moment the status bar was complete',
      },
      {
        section,
        name: 'first keys after that: key → echo',
        value: shownKeys.length ? stats(shownKeys) : 'none shown',
        ratio: shownKeys.length
          ? `max ${ms(Math.max(...shownKeys))}${lost ? `, ${lost} not shown in 5 s` : ''}`
          : undefined,
        target: '≤ 60 ms',
        note: `${FOLLOW_KEYS} letters per run, ${FOLLOW_GAP_MS} ms apart, from the first echo on (background loading meanwhile): write to the pty → the editor line with the text so far`,
      },
      {
        section,
        name: `peak RSS of the TUI at ${SETTLED_MS / 1000} s`,
        value: `${median(pick((r) => r.peakRssMb)).toFixed(0)} MB`,
        target: '≤ 120 MB',
        note: 'VmHWM of /proc/<pid>/status of the node process in the pty, everything loaded',
      },
    ];
  } finally {
    snapshot.dispose();
    await fake.close();
    for (const d of [dir, env.HOME!]) rmSync(d, { recursive: true, force: true });
  }
}
