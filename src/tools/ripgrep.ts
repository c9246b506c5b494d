/**
 * Finding and running ripgrep for the `glob` and `grep` tools.
 *
 * Which rg: the one bundled by `@vscode/ripgrep` (rg 15, a registry platform package, no download),
 * else `rg` on PATH, else none (the tools then use their pure-Node fallbacks).
 * `OPENCODE_DISABLE_RIPGREP=1` forces "none" (tests run both paths on the same tree with it);
 * `OPENCODE_RIPGREP_PATH` names the binary to use instead.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
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

/** The error a tool throws when its run is cancelled; the tool kernel reports it as cancelled. */
export function abortError(): Error {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}
