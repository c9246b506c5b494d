/**
 * Runs a declarative tool's program: an argv (never a shell line) in its own process group, with
 * stdin, a timeout and cancellation that kill the whole group as the bash tool does (SIGTERM, then
 * SIGKILL after a grace period; `tools/shell.ts`), output kept as bytes for decoding. What the program
 * left running in its group when it exited (a background child, a grandchild holding its stdout, one
 * that ignores SIGTERM) is ended the same way before the result is given, so nothing of a call
 * outlives it; the group is in the run's journal meanwhile (`tools/leftovers.ts`), so a killed
 * opencode's next start ends it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { extname } from 'node:path';
import { leftovers } from '../tools/leftovers.js';
import { groupProcesses } from '../tools/process-group.js';
import { terminateGroup } from '../tools/shell.js';

/** Bytes kept per stream; what a program writes beyond this is dropped (the model sees a cut text anyway). */
export const MAX_CAPTURE_BYTES = 8 * 1024 * 1024;
/** How long a killed group has between SIGTERM and SIGKILL, in ms (the bash tool's). */
export const KILL_GRACE_MS = 1_000;
/** After the program exits, how long its streams may still deliver output, in ms (a daemonised grandchild may hold them open). */
const DRAIN_MS = 200;

/**
 * Interpreters of scripts that are not executable, by extension (a script with the executable bit runs
 * by itself, through its `#!` line).
 */
export const SCRIPT_INTERPRETERS: Record<string, string[]> = {
  '.sh': ['/bin/sh'], // status.sh
  '.bash': ['bash'], // status.bash
  '.py': ['python3'], // status.py
  '.js': [process.execPath], // status.js, run by the Node running us
  '.mjs': [process.execPath], // status.mjs
  '.rb': ['ruby'], // status.rb
};

/** What ran and how it ended. */
export interface ProcessResult {
  stdout: Buffer;
  stderr: Buffer;
  /** null when killed by a signal */
  exitCode: number | null;
  timedOut: boolean;
  canceled: boolean;
  /** set when the program could not be started, e.g. `spawn nope ENOENT` */
  startError?: string;
  /** the program exited leaving processes in its group (background children): they were ended */
  endedBackground?: boolean;
}

export interface ProcessOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  killGraceMs?: number;
}

/** The argv that runs `script` with `args`: the script itself, or its interpreter from {@link SCRIPT_INTERPRETERS}. */
export function scriptArgv(script: string): string[] {
  try {
    accessSync(script, constants.X_OK);
    return [script];
  } catch {
    const interpreter = SCRIPT_INTERPRETERS[extname(script).toLowerCase()];
    return interpreter ? [...interpreter, script] : [script];
  }
}

/** Runs the program. Never rejects: a program that cannot start is a result with `startError`. */
export function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const [file, ...args] = options.argv;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let timedOut = false;
    let canceled = false;
    let settled = false;
    const child = spawn(file!, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const graceMs = options.killGraceMs ?? KILL_GRACE_MS;
    const kill = () => {
      if (child.pid !== undefined && child.exitCode === null) terminateGroup(child.pid, graceMs);
    };
    if (child.pid !== undefined) leftovers().processGroupStarted(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      canceled = true;
      kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | null, startError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const pid = child.pid;
      // whatever is left in the group is ended before the result: a call leaves nothing running
      const leftBehind = pid !== undefined && !timedOut && !canceled && groupAlive(pid);
      // after a timeout or esc too: a child that ignores SIGTERM must not outlive the call (or opencode,
      // which may exit right after a cancelled run); a group whose members die at SIGTERM costs no wait
      void (pid === undefined ? Promise.resolve() : endGroup(pid, graceMs)).then(() => {
        if (pid !== undefined && !groupAlive(pid)) leftovers().processGroupEnded(pid);
        resolve({
          stdout: Buffer.concat(stdout),
          stderr: Buffer.concat(stderr),
          exitCode,
          timedOut,
          canceled,
          ...(startError ? { startError } : {}),
          ...(leftBehind ? { endedBackground: true } : {}),
        });
      });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      if (stdoutBytes < MAX_CAPTURE_BYTES) stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderrBytes < MAX_CAPTURE_BYTES) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('error', (err) => finish(null, err.message));
    child.on('close', (code) => finish(code));
    child.on('exit', (code) => {
      // a background child that keeps our pipes open must not hold the result: after a short drain it
      // is ended with the rest of the group (finish)
      setTimeout(() => finish(code), DRAIN_MS).unref();
    });
    child.stdin!.on('error', () => {
      // a program that does not read its stdin closes it: not a failure
    });
    child.stdin!.end(options.stdin ?? '');
    if (options.signal?.aborted) onAbort();
  });
}

/** How often a group being ended is checked for survivors, in ms. */
const GROUP_POLL_MS = 25;

/**
 * Ends process group `pgid`: SIGTERM, then SIGKILL to what is left after `graceMs`; resolves when no
 * process of the group is left (or, for a process that cannot be killed, after another `graceMs`).
 */
function endGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return Promise.resolve();
  signalGroup(pgid, 'SIGTERM');
  const killAt = Date.now() + graceMs;
  const giveUpAt = killAt + graceMs;
  let killed = false;
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!groupAlive(pgid) || Date.now() >= giveUpAt) {
        clearInterval(poll);
        resolve();
      } else if (!killed && Date.now() >= killAt) {
        killed = true;
        signalGroup(pgid, 'SIGKILL');
      }
    }, GROUP_POLL_MS);
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Whether any process of group `pgid` still runs (signal 0 checks without sending). On Linux a group
 * whose only members are zombies counts as gone: an orphan that ended waits to be reaped by init, and
 * an init that reaps late (some containers' first process) would otherwise make every finished
 * program look as if it left something running.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform !== 'linux' || groupHasLiveMember(pgid);
}

/** Whether /proc lists a process of group `pgid` that is not a zombie (true when /proc cannot be read). */
function groupHasLiveMember(pgid: number): boolean {
  if (!existsSync('/proc/self/stat')) return true;
  return groupProcesses(pgid).some((p) => p.state !== 'Z');
}
