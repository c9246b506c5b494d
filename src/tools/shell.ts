/**
 * The session shell behind the `bash` tool (the original's persistent shell, with its faults fixed).
 *
 * ## Design: a fresh shell per command, with the state carried over
 *
 * The original keeps one long-lived shell and writes each command to its stdin. Its commands run in the
 * shell's own process group, so on a timeout it can only signal direct children: grandchildren survive
 * and keep pipes open. Here every command runs in a **new shell process started in its own process
 * group** (`detached: true`, i.e. `setsid`), and what should persist between calls is saved and restored:
 *
 * - after the command (in the same shell, or in an `EXIT` trap when it calls `exit`), the exported
 *   variables (`env -0`: NUL-separated `NAME=value`) and `pwd` are written to state files, which the
 *   agent reads as data and removes at once;
 * - the next command starts in that directory and sources a snapshot the agent writes from those
 *   variables (`export NAME='value'`, quoted by us): nothing the command wrote is ever sourced as code.
 *   The shell starts from an otherwise empty environment, so a variable the command `unset` stays unset.
 *   The first command sources the same kind of snapshot of the agent's environment, so every command
 *   takes the same path (and `BASH_ENV` is never run by our wrapper shell, only passed on to the
 *   programs it starts). Variables whose names are not shell identifiers are dropped.
 *
 * A sandboxed command must not plant state for the next one, which may run at a looser level: the
 * snapshot sourced is written where the sandbox can't write, a command's state goes to a directory made
 * for it alone and is read as data (`shell-state.ts`, which also resets the variables that run code).
 *
 * Trade-offs, chosen deliberately:
 * - Persists: the working directory and exported variables (as the model uses them: `cd`, `export`).
 *   Not persisted: unexported variables, functions, aliases and `set` options. A model rarely relies on
 *   those, and a shell left in a strange state (`set -e`, a half-typed heredoc, `exec > file`) can no
 *   longer poison every later command.
 * - A timeout or cancel kills the **whole process group** (SIGTERM, then SIGKILL after
 *   {@link ShellOptions.killGraceMs}); the call returns as soon as the shell has exited, even if a
 *   background process still holds the output pipes. A SIGTERM trap lets the shell save its state, so a
 *   `cd` done before the timeout still counts. Processes that leave the group (`setsid`, daemons) survive.
 * - Background jobs of a command that finished normally (`npm run dev > log 2>&1 &`) keep running: their
 *   group is remembered and killed by {@link ShellRunner.close}. Output they write to our pipes after the
 *   command ended is read and dropped, so they don't die of SIGPIPE.
 * - "The shell died" cannot happen between commands; a directory deleted meanwhile falls back to the
 *   initial directory (with a note on stderr).
 * - Cost: one shell start per command (a few ms for a non-login bash).
 *
 * The shell is not started as a login shell by default (the original passed `-l`): a login shell reads
 * profile files on every command, which is slow here and can print noise into the output. The agent
 * process already inherits the person's environment (PATH etc.). `shellArgs: ['-l']` restores it.
 *
 * stdin is `/dev/null` and there is no controlling terminal, so nothing can wait for a person; the
 * environment also disables pagers and editors ({@link NON_INTERACTIVE_ENV}). POSIX only (no Windows).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { NESTED_RUN_MARK } from '../permission/nested-run.js';
import type { Sandbox, SandboxLevel } from '../sandbox/types.js';
import { leftovers, STATE_DIR_PREFIX } from './leftovers.js';
import { LEVEL_RANK, MAX_ENV_BYTES, parseEnvironment, readStateFile, resetCodeVariables } from './shell-state.js';
import { groupAlive, terminateGroup } from './process-group.js';
import { withoutCredentials } from './redact.js';
import { COMMAND_WRAPPER, exportScript, withoutKillReports } from './shell-wrapper.js';
import { OutputCapture } from './output-capture.js';
import type { ShellRunner } from './tool.js';
import { MAX_OUTPUT_CHARS } from './tool.js';

/** What {@link ShellRunner.exec} resolves with. */
export type ShellExecResult = Awaited<ReturnType<ShellRunner['exec']>>;

/**
 * Environment added to every command so nothing waits for a person. `CI` is deliberately **not** set:
 * it changes how test runners behave (jest/vitest refuse to write new snapshots, some tools change
 * their output), which would make the agent see results the person doesn't.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat', // man, psql, … print instead of opening less
  GIT_PAGER: 'cat', // git log / diff don't page
  GIT_EDITOR: 'true', // git commit/rebase/merge never open an editor (the original set only this)
  EDITOR: 'true',
  VISUAL: 'true',
  GIT_TERMINAL_PROMPT: '0', // git fails instead of asking for credentials
  npm_config_yes: 'true', // npx installs without "Ok to proceed? (y)"
  DEBIAN_FRONTEND: 'noninteractive', // apt never shows dialogs
  PIP_NO_INPUT: '1', // pip never prompts
  ...NESTED_RUN_MARK, // an opencode a command starts approves nothing by itself (permission/nested-run.ts)
};

export interface ShellOptions {
  /** the initial working directory (absolute), usually the project directory */
  cwd: string;
  /** the shell binary (config `shell.path`); default: `$SHELL` when it is bash, else `/bin/bash` */
  shellPath?: string;
  /** arguments before `-c` (config `shell.args`); default none (see the module doc on `-l`) */
  shellArgs?: string[];
  /** variables added to the inherited environment (after {@link NON_INTERACTIVE_ENV}) */
  env?: Record<string, string>;
  /**
   * Credential variables (`CREDENTIAL_ENV_NAMES` in `redact.ts`) to pass to commands anyway (config
   * `shell.passEnv`); by default the shell's environment holds none of the keys opencode uses.
   */
  passEnv?: readonly string[];
  /** stdout and stderr are each cut to this many characters, head and tail kept; default 30,000 */
  maxOutputChars?: number;
  /** time between SIGTERM and SIGKILL when a command is stopped; default 1,000 ms */
  killGraceMs?: number;
  /**
   * The OS sandbox commands run in (at the level each `exec` names, `strict` by default). With one,
   * `TMPDIR` points to a private directory inside the shell's state directory, writable in the sandbox.
   */
  sandbox?: Sandbox;
}

/** What one command's `exec` takes. */
export interface ShellExecOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
  /** how the command is contained when the shell has a sandbox; default `strict` */
  sandbox?: SandboxLevel;
}

/**
 * Creates the persistent shell of one session. The agent keeps one per session id and closes it when
 * the session ends or the app quits. Commands given to one runner run one at a time, in order.
 */
export function createShell(options: ShellOptions): ShellRunner {
  return new SessionShell(options);
}

/**
 * The shell binary to use: the configured one; else `$SHELL` if it is bash (the tool is called bash and
 * models write bash, so a zsh or fish login shell is not used unless configured); else `/bin/bash`.
 */
export function resolveShellPath(configured?: string, envShell = process.env.SHELL): string {
  if (configured) return configured;
  if (envShell && basename(envShell) === 'bash' && existsSync(envShell)) return envShell;
  return existsSync('/bin/bash') ? '/bin/bash' : 'bash';
}

/**
 * State directories of open shells. Their snapshots hold the environment (the person's variables), so
 * they are removed even when the agent exits without closing its shells; after a kill -9 the next
 * start removes them (their names carry our pid: {@link STATE_DIR_PREFIX}).
 */
const liveStateDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of liveStateDirs) rmSync(dir, { recursive: true, force: true });
});

// defined in leftovers.ts, which the TUI's start reads without this module's (zod's) chunk
export { STATE_DIR_PREFIX };
// custom tools' processes stop their groups the same way
export { terminateGroup };
// the capture of a command's output, which the shell's tests exercise alone
export { OutputCapture };

/** How long to wait after the shell exits for the last output before giving up on the pipes. */
const DRAIN_AFTER_EXIT_MS = 200;

class SessionShell implements ShellRunner {
  private currentCwd: string;
  private readonly initialCwd: string;
  private readonly shellPath: string;
  private readonly shellArgs: string[];
  private readonly baseEnv: Record<string, string>;
  private readonly maxOutputChars: number;
  private readonly killGraceMs: number;
  private stateDir: string | undefined;
  /**
   * The exported variables: the agent's at first, then those of the last command that saved its state.
   * Kept in memory, not in a file, so no file holds it between commands.
   */
  private envState: Record<string, string> | undefined;
  /** the loosest level the variables of {@link envState} may run code at: that of the command that set them */
  private envLevel: SandboxLevel = 'none';
  private sequence = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** process groups of finished commands that left background jobs behind */
  private readonly backgroundGroups = new Set<number>();
  /** the watcher sockets of those groups (`WATCH_AGENT` in shell-wrapper.ts): open while the group lives, so it dies with us */
  private readonly lifelines = new Map<number, Readable>();
  private closed = false;
  private readonly sandbox: Sandbox | undefined;
  /** variables the sandbox set for the last command (proxy settings): unset again for a command outside it */
  private sandboxEnvNames: string[] = [];
  /** `shell.passEnv`: credential variables commands get anyway, in the sandbox too */
  private readonly passEnv: readonly string[] | undefined;

  constructor(options: ShellOptions) {
    this.sandbox = options.sandbox;
    this.passEnv = options.passEnv;
    this.initialCwd = options.cwd;
    this.currentCwd = options.cwd;
    this.shellPath = resolveShellPath(options.shellPath);
    this.shellArgs = options.shellArgs ?? [];
    this.maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
    this.killGraceMs = options.killGraceMs ?? 1_000;
    const inherited: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) inherited[k] = v;
    // the provider keys stay ours: `env` is a read-only command that never asks
    this.baseEnv = { ...withoutCredentials(inherited, options.passEnv), ...NON_INTERACTIVE_ENV, ...options.env };
  }

  get cwd(): string {
    return this.currentCwd;
  }

  exec(command: string, options: ShellExecOptions): Promise<ShellExecResult> {
    if (this.closed) return Promise.reject(new Error('The shell of this session was closed'));
    const run = this.queue.then(() => this.runOne(command, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async sandboxActive(): Promise<boolean> {
    if (!this.sandbox) return false;
    const status = await this.sandbox.status();
    // inside another opencode's sandbox: no choice here can run a command outside it
    return status.active && !status.inherited;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pgid of this.backgroundGroups) terminateGroup(pgid, this.killGraceMs);
    this.backgroundGroups.clear();
    for (const lifeline of this.lifelines.values()) lifeline.destroy();
    this.lifelines.clear();
    if (this.stateDir) {
      rmSync(this.stateDir, { recursive: true, force: true });
      liveStateDirs.delete(this.stateDir);
      leftovers().stateDirRemoved(this.stateDir);
    }
  }

  private async runOne(command: string, options: ShellExecOptions): Promise<ShellExecResult> {
    const { signal, onOutput } = options;
    if (signal?.aborted || this.closed) {
      return { stdout: '', stderr: '', exitCode: null, interrupted: true, timedOut: false };
    }
    if (!this.stateDir) {
      this.stateDir = mkdtempSync(join(tmpdir(), `${STATE_DIR_PREFIX}${process.pid}-`));
      chmodSync(this.stateDir, 0o700); // mkdtemp's mode already; said here because the files rely on it
      liveStateDirs.add(this.stateDir);
      leftovers().stateDirCreated(this.stateDir);
      // the sandbox's private temp directory: removed with the state directory
      if (this.sandbox) mkdirSync(join(this.stateDir, 'tmp'), { mode: 0o700 });
    }
    const sequence = ++this.sequence;
    // the only place this command may write its state: made fresh for it (a sandboxed command can't make
    // the next one's), while the snapshot it sources lies beside it in the directory the sandbox can't write
    const outDir = join(this.stateDir, `out-${sequence}`);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { mode: 0o700 });
    const statePrefix = join(outDir, 'state');
    // made here, private and empty: the shell's `>` keeps the mode; an empty status means "not saved"
    for (const suffix of STATE_FILE_SUFFIXES)
      writeFileSync(`${statePrefix}.${suffix}`, '', { mode: 0o600, flag: 'wx' });

    let dir = this.currentCwd;
    let note = '';
    if (!isDirectory(dir)) {
      if (!isDirectory(this.initialCwd)) throw new Error(`The working directory ${dir} no longer exists`);
      note = `(the working directory ${dir} no longer exists; running in ${this.initialCwd})\n`;
      dir = this.initialCwd;
    }
    const tempDir = join(this.stateDir, 'tmp');
    this.envState ??= this.sandbox ? { ...this.baseEnv, TMPDIR: tempDir } : { ...this.baseEnv };
    const inputPath = join(this.stateDir, `${sequence}.in`);
    const name = basename(this.shellPath);
    const args = [...this.shellArgs, '-c', COMMAND_WRAPPER, name, inputPath, dir, statePrefix];
    const level = options.sandbox ?? 'strict';
    const wrapped = this.sandbox
      ? await this.sandbox.wrap([this.shellPath, ...args], {
          level,
          writable: [outDir, tempDir],
          keepEnv: this.passEnv,
        })
      : { file: this.shellPath, args, env: {}, afterExit: () => [] };
    const runsAt: SandboxLevel = wrapped.file !== this.shellPath ? level : 'none';
    const dropped =
      LEVEL_RANK[runsAt] > LEVEL_RANK[this.envLevel] ? resetCodeVariables(this.envState, this.baseEnv) : [];
    this.envLevel = runsAt;
    // outside the sandbox, a temp directory of its own: what a sandboxed command left in the shared one
    // (a link at a name a program writes to) is not where a program run outside writes
    const outsideTemp = join(this.stateDir, 'tmp-outside');
    if (this.sandbox && [tempDir, outsideTemp].includes(this.envState.TMPDIR ?? '')) {
      this.envState.TMPDIR = runsAt === 'none' ? outsideTemp : tempDir;
      if (runsAt === 'none') mkdirSync(outsideTemp, { recursive: true, mode: 0o700 });
    }
    // the sandbox's variables override the snapshot's (a proxy the person's environment names can't be
    // reached inside); those of the last command that this one does not get go back to their first value
    // the agent sockets and cloud tokens the sandbox withholds (`sandbox/env.ts`) are unset the same way
    const unsetNames = wrapped.unsetEnv ?? [];
    const gone = this.sandboxEnvNames.filter((v) => !(v in wrapped.env) && !unsetNames.includes(v));
    const restored = Object.fromEntries(gone.filter((v) => v in this.baseEnv).map((v) => [v, this.baseEnv[v]!]));
    const sandboxEnv =
      exportScript({ ...restored, ...wrapped.env }) +
      [...gone.filter((v) => !(v in this.baseEnv)), ...unsetNames].map((v) => `unset ${v}\n`).join('');
    this.sandboxEnvNames = [...Object.keys(wrapped.env), ...unsetNames];
    // 0600: it holds the environment; removed once sourced. 'wx' after the unlink: never written through a link
    removeQuietly(inputPath);
    const script = `${exportScript(this.envState)}\n${sandboxEnv}__oc_cmd='${command.replaceAll("'", "'\\''")}'\n`;
    writeFileSync(inputPath, script, { mode: 0o600, flag: 'wx' });
    // Everything else comes from the snapshot, so that variables the last command unset stay unset;
    // PWD lets the shell keep a logical path (through symlinks) for `pwd`.
    const env = { PWD: dir };

    const stdout = new OutputCapture(this.maxOutputChars);
    const stderr = new OutputCapture(this.maxOutputChars);
    if (note) stderr.append(note);
    if (dropped.length > 0) {
      stderr.append(
        `(not passed on from a command run in a stricter sandbox, as they make programs run code: ${dropped.join(', ')})\n`,
      );
    }

    // fd 3: the socket whose end tells the shell's watcher that we died (`WATCH_AGENT` in shell-wrapper.ts)
    const child = spawn(wrapped.file, wrapped.args, {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const lifeline = child.stdio[3] as Readable | null;
    if (lifeline) unrefStream(lifeline);
    if (child.pid !== undefined) leftovers().processGroupStarted(child.pid);
    // in the sandbox the launcher (bwrap and its pid-1 reaper) is spared SIGTERM: were it to die first, its
    // namespace's processes would be killed before the shell's TERM trap saved the directory and exports
    const launcher = wrapped.file !== this.shellPath ? basename(wrapped.launcher ?? wrapped.file) : undefined;
    const outcome = await this.supervise(child, { ...options, stdout, stderr, onOutput, signal, launcher });

    removeQuietly(inputPath); // sourced, or the shell died first; the sandbox can't remove it
    this.adoptState(statePrefix);
    rmSync(outDir, { recursive: true, force: true });
    for (const path of wrapped.afterExit()) {
      stderr.append(
        `(the sandbox removed ${path}, which the command created: a file that decides what runs is not created without the person's approval)\n`,
      );
    }
    if (child.pid !== undefined && groupAlive(child.pid)) {
      // background jobs, or a group still dying after a timeout: ended by close(), journaled until gone
      this.backgroundGroups.add(child.pid);
      if (lifeline) this.lifelines.set(child.pid, lifeline);
    } else {
      if (child.pid !== undefined) leftovers().processGroupEnded(child.pid);
      lifeline?.destroy();
    }
    this.forgetDeadGroups();
    return {
      stdout: stdout.text(),
      stderr: outcome.interrupted ? withoutKillReports(stderr.text()) : stderr.text(),
      exitCode: outcome.interrupted ? null : outcome.exitCode,
      interrupted: outcome.interrupted,
      timedOut: outcome.timedOut,
      ...(wrapped.file !== this.shellPath ? { sandboxed: true } : {}),
    };
  }

  /** Waits for the shell to exit, enforcing the timeout and the abort signal on its process group. */
  private supervise(
    child: ChildProcess,
    o: {
      timeoutMs: number;
      signal?: AbortSignal;
      onOutput?: (chunk: string) => void;
      stdout: OutputCapture;
      stderr: OutputCapture;
      /** the sandbox launcher's program name, spared the SIGTERM of a stop */
      launcher?: string;
    },
  ): Promise<{ exitCode: number | null; interrupted: boolean; timedOut: boolean }> {
    return new Promise((resolve, reject) => {
      const streams = [child.stdout!, child.stderr!];
      const captures = [o.stdout, o.stderr];
      let openStreams = streams.length;
      let exited = false;
      let exitCode: number | null = null;
      let interrupted = false;
      let timedOut = false;
      let settled = false;
      let drainTimer: NodeJS.Timeout | undefined;

      const stop = (reason: 'timeout' | 'abort') => {
        if (interrupted || exited) return;
        interrupted = true;
        timedOut = reason === 'timeout';
        if (child.pid !== undefined) terminateGroup(child.pid, this.killGraceMs, o.launcher);
      };
      const timer = setTimeout(() => stop('timeout'), Math.max(1, o.timeoutMs));
      const onAbort = () => stop('abort');
      o.signal?.addEventListener('abort', onAbort, { once: true });

      const settle = () => {
        settled = true;
        clearTimeout(timer);
        if (drainTimer) clearTimeout(drainTimer);
        o.signal?.removeEventListener('abort', onAbort);
      };
      const finish = () => {
        if (settled) return;
        settle();
        // pipes still held by background jobs must not keep the agent process alive
        for (const s of streams) unrefStream(s);
        resolve({ exitCode, interrupted, timedOut });
      };

      streams.forEach((stream, i) => {
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          if (settled) return; // a background job still writing: read and drop (no SIGPIPE for it)
          captures[i]!.append(chunk);
          try {
            o.onOutput?.(chunk);
          } catch {
            // a UI callback must not break the command
          }
        });
        stream.on('error', () => {});
        stream.on('end', () => {
          openStreams--;
          if (exited && openStreams === 0) finish();
        });
      });

      child.on('exit', (code, signal) => {
        exited = true;
        exitCode = code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : null);
        clearTimeout(timer);
        // a background job may hold the pipes open: take what has arrived shortly after the exit
        if (openStreams === 0) finish();
        else drainTimer = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
      });
      child.on('error', (err) => {
        if (settled) return;
        settle();
        reject(new Error(`Could not start the shell ${this.shellPath}: ${err.message}`));
      });
    });
  }

  /** Takes over the directory and environment the command saved, if it got that far; removes the files. */
  private adoptState(statePrefix: string): void {
    const files = { env: `${statePrefix}.env`, cwd: `${statePrefix}.cwd`, status: `${statePrefix}.status` };
    if (readStateFile(files.status, 64)) {
      const cwd = (readStateFile(files.cwd, 64 * 1024) ?? '').replace(/\n$/, '');
      if (cwd.startsWith('/')) this.currentCwd = cwd;
      // unreadable (disk full, or not a plain file): keep the previous environment
      const env = readStateFile(files.env, MAX_ENV_BYTES);
      if (env) this.envState = parseEnvironment(env);
    }
    for (const f of Object.values(files)) removeQuietly(f);
  }

  private forgetDeadGroups(): void {
    for (const pgid of this.backgroundGroups) {
      if (groupAlive(pgid)) continue;
      this.backgroundGroups.delete(pgid);
      this.lifelines.get(pgid)?.destroy();
      this.lifelines.delete(pgid);
      leftovers().processGroupEnded(pgid);
    }
  }
}

function unrefStream(stream: Readable): void {
  (stream as Readable & { unref?: () => void }).unref?.();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The state files of one command: exported variables, directory, exit status. */
const STATE_FILE_SUFFIXES = ['env', 'cwd', 'status'] as const;

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
