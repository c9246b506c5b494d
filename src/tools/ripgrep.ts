/**
 * Finding and running ripgrep for the `glob` and `grep` tools.
 *
 * Which rg: the one bundled by `@vscode/ripgrep` (rg 15, a registry platform package, no download),
 * else `rg` on PATH, else none (the tools then use their pure-Node fallbacks).
 * `OPENCODE_DISABLE_RIPGREP=1` forces "none" (tests run both paths on the same tree with it);
 * `OPENCODE_RIPGREP_PATH` names the binary to use instead; `OPENCODE_RIPGREP_THREADS` overrides
 * {@link SEARCH_ENGINES} (tests run each engine and thread count on the same tree with it).
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { abortError } from '../abort.js';
import { findOnPath, isExecutable } from '../sandbox/detect.js';

let located: Promise<string | undefined> | undefined;

/**
 * The path of an rg binary that can run here, or undefined. The search is cached per process; the
 * environment switches are read on every call.
 */
export async function findRipgrep(): Promise<string | undefined> {
  if (process.env.OPENCODE_DISABLE_RIPGREP === '1') return undefined;
  const chosen = process.env.OPENCODE_RIPGREP_PATH;
  if (chosen) return chosen;
  located ??= locate();
  return located;
}

async function locate(): Promise<string | undefined> {
  try {
    // A dynamic import: the module throws at load time when its platform package is missing.
    const { rgPath } = (await import('@vscode/ripgrep')) as { rgPath: string };
    if (isExecutable(rgPath)) return rgPath;
  } catch {
    // not bundled for this platform: try PATH
  }
  const names = process.platform === 'win32' ? ['rg.exe', 'rg'] : ['rg'];
  for (const name of names) {
    const found = findOnPath(name);
    if (found) return found;
  }
  return undefined;
}

/** Which tool a search serves: the engine and rg's thread count are chosen per tool. */
export type SearchJob = 'glob' | 'grep';

/** How one search runs: in-process (the Node walk of file-walk.ts) or rg with these extra flags. */
export type SearchEngine = { engine: 'node' } | { engine: 'rg'; args: string[] };

/**
 * The engine per job and core count, by measurement (BENCHMARKS.md, "Search"): the first row whose
 * job matches and whose `maxCores` is at least the machine's cores wins. `threads` undefined = rg's
 * default (one per core, at most 12). The choice never changes a tool's result: both engines select
 * the same files, glob sorts by length then path and grep by mtime then path once the search ended
 * (test/tools/ripgrep-threads.test.ts runs each engine and thread count on one tree).
 *
 * | job  | cores | engine  | why |
 * |------|-------|---------|-----|
 * | glob | ≤ 2   | node    | listing is a directory walk, kernel-bound: rg 15's `-L` walk on 2 cores costs ~1.2× `rg --files` (rg 15's second thread adds kernel time, `-j1` no better under load) and the tool must spawn it and parse 20,000+ paths; the in-process walk reads the same folders without a process (0.7–1.0× `rg --files` on the 27,000-file tree) |
 * | glob | > 2   | rg      | more cores walk faster in parallel |
 * | grep | any   | rg      | reading and matching file contents: rg's matcher and threads win |
 */
export const SEARCH_ENGINES: readonly { job: SearchJob; maxCores: number; engine: 'node' | 'rg'; threads?: number }[] =
  [
    { job: 'glob', maxCores: 2, engine: 'node' },
    { job: 'glob', maxCores: Infinity, engine: 'rg' },
    { job: 'grep', maxCores: Infinity, engine: 'rg' },
  ];

/**
 * The engine for `job` on a machine of `cores` cores (default: this one's). Overrides, for tests and
 * for people who know their machine: `OPENCODE_RIPGREP_THREADS=N` (1–999) runs rg with `-jN`,
 * `=default` runs rg with its own thread count, any other value throws; an rg named by
 * `OPENCODE_RIPGREP_PATH` is always run. Whether rg exists at all is {@link findRipgrep}'s question.
 */
export function searchEngine(job: SearchJob, cores: number = availableParallelism()): SearchEngine {
  const forced = process.env.OPENCODE_RIPGREP_THREADS;
  if (forced !== undefined && forced !== '') {
    if (forced === 'default') return { engine: 'rg', args: [] };
    if (!/^[1-9]\d{0,2}$/.test(forced)) {
      throw new Error(
        `OPENCODE_RIPGREP_THREADS must be a whole number from 1 to 999 (rg -jN) or "default", got "${forced}"; unset it to let opencode choose`,
      );
    }
    return { engine: 'rg', args: [`-j${forced}`] };
  }
  const row = SEARCH_ENGINES.find((r) => r.job === job && cores <= r.maxCores);
  const args = row?.threads === undefined ? [] : [`-j${row.threads}`];
  if (row?.engine === 'node' && !process.env.OPENCODE_RIPGREP_PATH) return { engine: 'node' };
  return { engine: 'rg', args };
}

/** rg could not be started (missing binary, no permission): the caller should use its fallback. */
export class RipgrepUnavailableError extends Error {
  constructor(cause: Error) {
    super(`ripgrep could not be started: ${cause.message}`);
    this.name = 'RipgrepUnavailableError';
  }
}

/** How an rg run ended. Exit 0 = found, 1 = nothing found, 2 = error (possibly partial). */
export interface RipgrepExit {
  exitCode: number | null;
  /** the first 4 KB of stderr */
  stderr: string;
}

/**
 * Flags every run gets: no user config file (it could change the output format) and no global
 * gitignore (the fallback cannot read git's config). See also `ripgrepIgnoreArgs` in file-walk.ts.
 */
export const RIPGREP_BASE_ARGS = ['--no-config', '--no-ignore-global'] as const;

/**
 * Runs rg in `cwd`, handing stdout to `onStdout` chunk by chunk as it arrives.
 * Rejects with an `AbortError` (after killing rg) when `signal` aborts, and with
 * {@link RipgrepUnavailableError} when rg cannot be started.
 */
export function runRipgrep(
  rgPath: string,
  args: readonly string[],
  options: { cwd: string; signal: AbortSignal; onStdout: (chunk: Buffer) => void },
): Promise<RipgrepExit> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(abortError());
      return;
    }
    const child = spawn(rgPath, [...RIPGREP_BASE_ARGS, ...args], {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(abortError()));
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        options.onStdout(chunk);
      } catch (err) {
        child.kill('SIGKILL');
        finish(() => reject(err));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => finish(() => reject(new RipgrepUnavailableError(err))));
    child.on('close', (code) => finish(() => resolve({ exitCode: code, stderr: stderr.slice(0, 4096) })));
  });
}
