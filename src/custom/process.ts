/**
 * Runs a declarative tool's program: an argv (never a shell line) in its own process group, with
 * stdin, a timeout and cancellation that kill the whole group as the bash tool does (SIGTERM, then
 * SIGKILL after a grace period; `tools/shell.ts`), output kept as bytes for decoding.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { extname } from 'node:path';
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
    const kill = () => {
      if (child.pid !== undefined && child.exitCode === null) terminateGroup(child.pid, options.killGraceMs ?? KILL_GRACE_MS);
    };
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
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        exitCode,
        timedOut,
        canceled,
        ...(startError ? { startError } : {}),
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
      // the group is killed with the program only on timeout/cancel; a background child that keeps our
      // pipes open must not hold the result
      setTimeout(() => finish(code), DRAIN_MS).unref();
    });
    child.stdin!.on('error', () => {
      // a program that does not read its stdin closes it: not a failure
    });
    child.stdin!.end(options.stdin ?? '');
    if (options.signal?.aborted) onAbort();
  });
}
