/**
 * Run a search tool with ripgrep and again with the pure-Node fallback, to show both give the same
 * result; and a stand-in "rg" that never finishes, to show an abort kills it.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRipgrep } from '../../src/tools/ripgrep.js';
import { isRunning } from './recording-context.js';

/** Runs `fn` with `OPENCODE_DISABLE_RIPGREP=1` (the Node fallback). */
export async function withoutRipgrep<T>(fn: () => Promise<T>): Promise<T> {
  return withEnv({ OPENCODE_DISABLE_RIPGREP: '1' }, fn);
}

/** Runs `fn` with the environment changed, restoring it after. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The result of `fn` with rg and with the fallback. Fails the test when rg is not available. */
export async function bothWays<T>(fn: () => Promise<T>): Promise<{ ripgrep: T; fallback: T }> {
  if (!(await findRipgrep())) throw new Error('ripgrep is not available: the comparison needs it');
  // rg even where SEARCH_ENGINES would pick the Node walk (glob on 2 cores)
  const ripgrep = process.env.OPENCODE_RIPGREP_THREADS
    ? await fn()
    : await withEnv({ OPENCODE_RIPGREP_THREADS: 'default' }, fn);
  const fallback = await withoutRipgrep(fn);
  return { ripgrep, fallback };
}

/**
 * A fake rg in `dir` that writes its pid to `dir/rg.pid` and sleeps for a minute. The pid file appears
 * whole (written aside, then renamed): a test that sees it and aborts at once could otherwise kill the
 * shell between its creating the file and writing the pid, and read no pid at all.
 */
export function sleepingRipgrep(dir: string): { path: string; pid: () => number } {
  const path = join(dir, 'fake-rg');
  const pidFile = join(dir, 'rg.pid');
  writeFileSync(path, `#!/bin/sh\necho $$ > '${pidFile}.part'\nmv '${pidFile}.part' '${pidFile}'\nexec sleep 60\n`);
  chmodSync(path, 0o755);
  return { path, pid: () => Number(readFileSync(join(dir, 'rg.pid'), 'utf8').trim()) };
}

/**
 * Whether a process with this pid is still alive. A zombie (killed, not yet reaped) counts as gone:
 * kill(pid, 0) alone reports it alive, which made the abort tests flaky on a loaded machine.
 */
export function isAlive(pid: number): boolean {
  return isRunning(pid);
}
