/**
 * Runs git against the private snapshot repository of `snapshot.ts` (undo of what `bash`
 * changed): `GIT_DIR` is ours, `GIT_WORK_TREE` the project, and every other `GIT_*` variable of our
 * own environment is dropped, so a run inside a git hook (which sets `GIT_INDEX_FILE`, `GIT_DIR`) can
 * never reach the project's own `.git`. Every conversion git could apply to bytes is turned off on
 * the command line (see {@link NEUTRAL_CONFIG}); `info/attributes` does the rest (`snapshot.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** `-c` settings given to every git command, each with why. */
export const NEUTRAL_CONFIG: readonly { setting: string; why: string }[] = [
  { setting: 'core.autocrlf=false', why: 'a personal autocrlf=true would store LF for CRLF files' },
  { setting: 'core.safecrlf=false', why: 'no warnings or refusals about line endings' },
  { setting: 'core.fsmonitor=false', why: 'a personal fsmonitor would start a daemon in the project' },
  { setting: 'core.hooksPath=/dev/null', why: 'no hook of anyone runs' },
  { setting: 'core.quotepath=false', why: 'paths come -z separated, never quoted' },
  { setting: 'core.bigFileThreshold=512m', why: 'large blobs stay delta-free and fast to add' },
  { setting: 'gc.auto=0', why: 'no automatic gc on the hot path: prune() runs it, rarely' },
  { setting: 'maintenance.auto=false', why: 'same, for git maintenance' },
  { setting: 'advice.addEmbeddedRepo=false', why: 'no advice text on stderr' },
  {
    setting: 'safe.directory=*',
    why: 'a project owned by another user (a mounted volume) is still read: the repository and its config are ours',
  },
];

/** Thrown when a git command fails, times out or is aborted. */
export class GitError extends Error {
  constructor(
    message: string,
    /** `missing`: git is not on PATH; `timeout`: killed after its time; `aborted`: the caller's signal */
    readonly kind: 'missing' | 'failed' | 'timeout' | 'aborted' | 'locked' | 'limit',
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** Where git runs: the snapshot repository and the project it looks at. */
export interface GitPlace {
  gitDir: string;
  workTree: string;
}

export interface GitRunOptions {
  /** bytes written to stdin, then closed */
  input?: Uint8Array | string;
  /** killed (SIGTERM: git removes its lock files) after this long */
  timeoutMs: number;
  signal?: AbortSignal;
  /** called with the child once spawned (to detach it on close) */
  onSpawn?: (child: ChildProcess) => void;
  /** extra environment, e.g. `GIT_LITERAL_PATHSPECS` */
  env?: Record<string, string>;
  /** killed (a `limit` error) once stdout holds more NUL-ended entries than this */
  maxEntries?: number;
  /** start it and resolve at once with nothing: it runs on its own, even after this process ends */
  detach?: boolean;
}

/** The environment of a snapshot git command: ours without any `GIT_*`, plus the place. */
export function gitEnv(place: GitPlace, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

/**
 * Runs `git -c … args` in the work tree; resolves with stdout as bytes.
 * @throws {GitError} `missing` when git cannot be started, `timeout`, `aborted`, `locked` (another
 *   git holds the index) or `failed` with git's stderr
 */
export function runGit(place: GitPlace, args: readonly string[], options: GitRunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new GitError('canceled', 'aborted'));
    const configArgs = NEUTRAL_CONFIG.flatMap((c) => ['-c', c.setting]);
    if (options.detach) {
      const detached = spawn('git', [...configArgs, ...args], {
        cwd: place.workTree,
        env: gitEnv(place, options.env),
        stdio: 'ignore',
        detached: true,
      });
      detached.on('error', () => {});
      detached.unref();
      return resolve(Buffer.alloc(0));
    }
    const child = spawn('git', [...configArgs, ...args], {
      cwd: place.workTree,
      env: gitEnv(place, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    options.onSpawn?.(child);
    const out: Buffer[] = [];
    let err = '';
    let ended: GitError | undefined;
    const stop = (why: GitError) => {
      ended ??= why;
      child.kill('SIGTERM');
    };
    const timer = setTimeout(
      () => stop(new GitError(`git ${args[0]} took longer than ${options.timeoutMs} ms`, 'timeout')),
      options.timeoutMs,
    );
    const onAbort = () => stop(new GitError('canceled', 'aborted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let entries = 0;
    child.stdout.on('data', (d: Buffer) => {
      out.push(d);
      if (options.maxEntries === undefined) return;
      for (let i = d.indexOf(0); i !== -1; i = d.indexOf(0, i + 1)) entries++;
      if (entries > options.maxEntries) stop(new GitError(`more than ${options.maxEntries} entries`, 'limit'));
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
    // a git that exited before reading all of stdin: its exit code says what went wrong
    child.stdin.on('error', () => {});
    child.on('error', (e: NodeJS.ErrnoException) => {
      ended ??=
        e.code === 'ENOENT'
          ? new GitError('git not found', 'missing')
          : new GitError(`git could not start: ${e.message}`, 'failed');
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (ended) return reject(ended);
      if (code === 0) return resolve(Buffer.concat(out));
      const text = err.trim().split('\n').slice(-3).join(' ');
      if (/index\.lock': File exists/.test(err)) return reject(new GitError(text, 'locked'));
      reject(new GitError(`git ${args[0]} failed (exit ${code}): ${text}`, 'failed'));
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Splits `-z` output into its entries as raw bytes (paths need not be UTF-8). */
export function splitNul(out: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = out.indexOf(0); i !== -1; i = out.indexOf(0, start)) {
    parts.push(out.subarray(start, i));
    start = i + 1;
  }
  if (start < out.length) parts.push(out.subarray(start));
  return parts;
}
