/**
 * Snapshots of the project's files in a private git repository (issue 14: undo of what `bash` and
 * other programs changed). The repository is ours, under the data directory
 * (`<data>/snapshots/<hash of the project path>`), never the project's own `.git`; its index is the
 * stat cache that makes every snapshot after the first cheap (git re-reads only files whose size or
 * time changed). A snapshot is `git add` of what changed since the last one, then `git write-tree`;
 * two snapshots' trees give the paths a call changed (`git diff-tree`) and the bytes before and after
 * (`git cat-file --batch`).
 *
 * Bytes are exact: `info/attributes` holds `* -text -filter -diff -merge -ident` (it overrides the
 * project's `.gitattributes`: no eol, LFS or other filter applies) and `snapshot-git.ts` turns
 * autocrlf off. What `.gitignore` (and the project's `.git/info/exclude`, and the person's global
 * excludes file) ignores stays out. Git keeps two modes of a file (644 and 755): see
 * {@link SnapshotChange} for how exact modes are found.
 *
 * Limits ({@link SNAPSHOT_LIMITS}): a file larger than `maxFileBytes` is not snapshotted (it is named
 * in {@link Snapshot.tooLarge} so a change to it can be reported); a project with more than
 * `maxFiles` files to add at once, or more than `maxTotalBytes` of them, is not snapshotted at all.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { GitError, runGit, splitNul, type GitPlace } from './snapshot-git.js';

/** The bounds of snapshotting, each with why. */
export const SNAPSHOT_LIMITS = {
  /** a generated bundle or a data file this big is not put back by undo: kept out of the repository */
  maxFileBytes: 4 * 1024 * 1024,
  /** files added in one snapshot (the first adds them all): 27,000 take ~20 s the first time on 2 cores */
  maxFiles: 100_000,
  /** bytes added in one snapshot: the repository's first copy of the project costs about half this on disk */
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  /**
   * bytes of one call's changes, before and after together: they are held in memory and stored in
   * the database (a build writing 500 files of 4 MiB is not undone, rather than stored again each run)
   */
  maxChangeBytes: 64 * 1024 * 1024,
};

export type SnapshotLimits = typeof SNAPSHOT_LIMITS;

/** The attributes that keep every byte as it is, whatever the project's `.gitattributes` says. */
export const NEUTRAL_ATTRIBUTES = '* -text -filter -diff -merge -ident\n';

/** Thrown when the project is beyond {@link SNAPSHOT_LIMITS}; `message` says which bound, for a person. */
export class SnapshotLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotLimitError';
  }
}

/** The project's files at one moment. */
export interface Snapshot {
  /** the git tree id */
  tree: string;
  /** files left out for their size, by path relative to the project: a fingerprint (size, time, inode) */
  tooLarge: Map<string, string>;
  /** permission bits of the files this snapshot looked at (the ones changed since the one before), by relative path */
  modes: Map<string, number>;
}

/** One file's content in a snapshot. */
export interface SnapshotFile {
  bytes: Buffer;
  /** git's mode: `100644`, `100755` or `120000` (a symbolic link: `bytes` is its target) */
  gitMode: string;
}

/** A path whose content differs between two snapshots. */
export interface SnapshotChange {
  /** relative to the project, `/`-separated, as git names it */
  path: string;
  /** `null`: not in the first snapshot */
  before: SnapshotFile | null;
  /** `null`: not in the second */
  after: SnapshotFile | null;
  /** set when the name is not UTF-8: `path` then holds replacement characters and names no file */
  notUtf8?: true;
}

/** Options of {@link ProjectSnapshots}. */
export interface ProjectSnapshotsOptions {
  /** the project directory (absolute) */
  cwd: string;
  /** the project's data directory: the repository goes in its `snapshots/` */
  dataDir: string;
  limits?: SnapshotLimits;
}

/** How long one git command of a snapshot may take before it is killed. */
export interface TakeOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How long to retry while another process's git holds the index (`index.lock`). */
const LOCK_RETRY_MS = 3_000;
/** An `index.lock` older than this is left over from a killed git: removed. */
const STALE_LOCK_MS = 10 * 60_000;
/** Unreachable objects (old versions) older than this are pruned, at most once a day. */
const PRUNE_EXPIRE = '2.days.ago';
const PRUNE_EVERY_MS = 24 * 3_600_000;

/** The private snapshot repository of one project. Methods run git; none throws but as documented. */
export class ProjectSnapshots {
  readonly place: GitPlace;
  readonly limits: SnapshotLimits;
  private initialised = false;
  private closed = false;
  /** the tree the last write-tree gave, and the index file as it was then (size, time, inode) */
  private last: { tree: string; index: string } | undefined;
  private readonly running = new Set<ChildProcess>();

  constructor(private readonly options: ProjectSnapshotsOptions) {
    const id = createHash('sha256').update(options.cwd).digest('hex').slice(0, 16);
    this.place = { gitDir: join(options.dataDir, 'snapshots', id), workTree: options.cwd };
    this.limits = options.limits ?? SNAPSHOT_LIMITS;
  }

  /**
   * Takes a snapshot: adds what changed since the last one (files over the size limit left out).
   * @throws {GitError} (`missing` when git is not installed), {@link SnapshotLimitError}
   */
  async take(options: TakeOptions): Promise<Snapshot> {
    await this.init(options);
    // what changed since the last snapshot, and what is new: two walks, run side by side (two
    // processes halve the wall time of `ls-files -m -o` on a 27,000-file tree)
    const list = (which: string[]) =>
      this.git(['ls-files', '-z', ...which], { ...options, maxEntries: this.limits.maxFiles }).catch((err: unknown) => {
        if (err instanceof GitError && err.kind === 'limit') throw this.tooMany();
        throw err;
      });
    const [modified, others] = await Promise.all([list(['--modified']), list(['--others', '--exclude-standard'])]);
    const listed = Buffer.concat([modified, others]);
    const add: Buffer[] = [];
    const tooLarge = new Map<string, string>();
    const modes = new Map<string, number>();
    const seen = new Set<string>();
    let total = 0;
    const entries = splitNul(listed);
    const tracked = splitNul(modified).length;
    if (entries.length > this.limits.maxFiles) throw this.tooMany();
    for (const [index, entry] of entries.entries()) {
      const key = entry.toString('latin1');
      // a folder with its own .git (listed as `dir/`): its files are its repository's business
      if (seen.has(key) || entry.at(-1) === 0x2f) continue;
      seen.add(key);
      const rel = entry.toString('utf8');
      let stats;
      try {
        stats = lstatSync(Buffer.concat([Buffer.from(`${this.options.cwd}/`), entry]));
      } catch {
        // a tracked file gone: git add records the deletion; a new one gone again: nothing to add
        // (naming it would fail the whole add with "did not match any files")
        if (index < tracked) add.push(entry);
        continue;
      }
      if (stats.isFile() && stats.size > this.limits.maxFileBytes) {
        tooLarge.set(rel, `${stats.size}:${stats.mtimeMs}:${stats.ino}`);
        continue;
      }
      if (stats.isFile()) modes.set(rel, stats.mode & 0o7777);
      total += stats.size;
      add.push(entry);
    }
    if (total > this.limits.maxTotalBytes) {
      throw new SnapshotLimitError(`the project has more than ${formatBytes(this.limits.maxTotalBytes)} of files not ignored by .gitignore`);
    }
    if (add.length) {
      const input = Buffer.concat(add.flatMap((p) => [p, Buffer.of(0)]));
      await this.withIndexLock(() =>
        this.git(['add', '--all', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
          ...options,
          input,
          env: { GIT_LITERAL_PATHSPECS: '1' },
        }),
      ).catch((err: unknown) => {
        // --ignore-errors: an unreadable file is left out, the rest is added and git says exit 1
        if (err instanceof GitError && err.kind === 'failed' && /unable to index|Permission denied/.test(err.message)) return;
        throw err;
      });
    }
    // nothing added and the index as our last write-tree left it (no other opencode wrote it): same tree
    if (!add.length && this.last && this.last.index === this.indexStamp()) return { tree: this.last.tree, tooLarge, modes };
    const tree = (await this.withIndexLock(() => this.git(['write-tree'], options))).toString('utf8').trim();
    this.last = { tree, index: this.indexStamp() };
    return { tree, tooLarge, modes };
  }

  /**
   * The paths whose content or git mode differs from `before` to `after`, with both contents.
   * @throws {GitError}; {@link SnapshotLimitError} when the contents add up to more than `maxChangeBytes`
   */
  async diff(before: string, after: string, options: TakeOptions): Promise<SnapshotChange[]> {
    if (before === after) return [];
    const raw = splitNul(await this.git(['diff-tree', '-r', '-z', '--no-renames', '--raw', before, after], options));
    const rows: { path: string; notUtf8: boolean; oldMode: string; newMode: string; oldId: string; newId: string }[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      // ":100644 100755 <old id> <new id> M", then the path
      const [oldMode, newMode, oldId, newId] = raw[i]!.toString('utf8').slice(1).split(' ');
      const path = raw[i + 1]!.toString('utf8');
      const notUtf8 = !Buffer.from(path, 'utf8').equals(raw[i + 1]!);
      rows.push({ path, notUtf8, oldMode: oldMode!, newMode: newMode!, oldId: oldId!, newId: newId! });
    }
    const ids = [...new Set(rows.flatMap((r) => [r.oldId, r.newId]).filter((id) => !/^0+$/.test(id)))];
    // sizes first ("<id> blob <size>" per line): the contents are read only when they fit
    const sizes = ids.length ? (await this.git(['cat-file', '--batch-check'], { ...options, input: ids.map((id) => `${id}\n`).join('') })).toString('utf8') : '';
    const total = sizes.split('\n').reduce((sum, line) => sum + (Number(line.split(' ')[2]) || 0), 0);
    if (total > this.limits.maxChangeBytes) throw new SnapshotLimitError(`the call changed more than ${formatBytes(this.limits.maxChangeBytes)} of files`);
    const blobs = await this.readBlobs(ids, options);
    const file = (mode: string, id: string): SnapshotFile | null => (/^0+$/.test(id) ? null : { bytes: blobs.get(id)!, gitMode: mode });
    return rows.map((r) => ({ path: r.path, before: file(r.oldMode, r.oldId), after: file(r.newMode, r.newId), ...(r.notUtf8 ? { notUtf8: true as const } : {}) }));
  }

  /**
   * Removes old versions no snapshot needs any more (unreachable objects older than two days), at
   * most once a day; runs detached, so it never holds up a call or the end of the process.
   */
  pruneNow(): void {
    const marker = join(this.place.gitDir, 'opencode-pruned');
    try {
      if (Date.now() - statSync(marker).mtimeMs < PRUNE_EVERY_MS) return;
    } catch {
      // never pruned
    }
    try {
      writeFileSync(marker, `${new Date().toISOString()}\n`);
    } catch {
      return;
    }
    // the index names the current objects, so prune keeps them
    void this.git(['prune', `--expire=${PRUNE_EXPIRE}`], { timeoutMs: 10 * 60_000, detach: true }).catch(() => {});
  }

  /**
   * Stops every git of this repository that is running (SIGTERM: git removes its `index.lock`), so
   * the process ends and no git writes into a folder that is being removed. A first snapshot stopped
   * half-way is not lost: the objects it wrote are kept, and the next run's first snapshot skips
   * writing them again. Later calls reject.
   */
  close(): void {
    this.closed = true;
    for (const child of this.running) child.kill('SIGTERM');
    this.running.clear();
  }

  /** The index file's size, time and inode, or `''` when there is none. */
  private indexStamp(): string {
    try {
      const stats = statSync(join(this.place.gitDir, 'index'));
      return `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
    } catch {
      return '';
    }
  }

  /** Creates the repository when missing; (re)writes its attributes and excludes. */
  private async init(options: TakeOptions): Promise<void> {
    if (this.initialised) return;
    const { gitDir, workTree } = this.place;
    if (!existsSync(join(gitDir, 'HEAD'))) {
      mkdirSync(gitDir, { recursive: true, mode: 0o700 });
      // no template: no sample hooks, no description file
      await this.git(['init', '--quiet', '--template='], options);
    }
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'attributes'), NEUTRAL_ATTRIBUTES);
    writeFileSync(join(gitDir, 'info', 'exclude'), this.excludes(workTree, gitDir));
    this.initialised = true;
  }

  /** Our excludes: the project's own `.git/info/exclude`, and the repository itself when inside the project. */
  private excludes(workTree: string, gitDir: string): string {
    const lines = ['# written by opencode: the project\'s .git/info/exclude, and this repository'];
    try {
      lines.push(readFileSync(join(workTree, '.git', 'info', 'exclude'), 'utf8'));
    } catch {
      // none, or .git is a file (a worktree): .gitignore still applies
    }
    const inside = relative(workTree, join(this.options.dataDir, 'snapshots'));
    if (inside && !inside.startsWith('..') && !isAbsolute(inside)) lines.push(`/${inside.split('\\').join('/')}/`);
    return `${lines.join('\n')}\n`;
  }

  /** Runs `fn`, retrying while another process's git holds the index; a lock left by a killed git is removed. */
  private async withIndexLock<T>(fn: () => Promise<T>): Promise<T> {
    const lock = join(this.place.gitDir, 'index.lock');
    const until = Date.now() + LOCK_RETRY_MS;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof GitError && err.kind === 'locked')) throw err;
        try {
          if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
        } catch {
          // gone meanwhile
        }
        if (Date.now() > until) throw new GitError('another opencode in this project is taking a snapshot', 'locked');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  private async readBlobs(ids: string[], options: TakeOptions): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    if (!ids.length) return blobs;
    const out = await this.git(['cat-file', '--batch'], { ...options, input: ids.map((id) => `${id}\n`).join('') });
    let at = 0;
    while (at < out.length) {
      const eol = out.indexOf(0x0a, at);
      // "<id> blob <size>"
      const [id, , size] = out.subarray(at, eol).toString('utf8').split(' ');
      const length = Number(size);
      blobs.set(id!, Buffer.from(out.subarray(eol + 1, eol + 1 + length)));
      at = eol + 1 + length + 1;
    }
    return blobs;
  }

  private git(
    args: string[],
    options: TakeOptions & { input?: Buffer | string; env?: Record<string, string>; maxEntries?: number; detach?: boolean },
  ): Promise<Buffer> {
    if (this.closed) return Promise.reject(new GitError('closed', 'aborted'));
    let child: ChildProcess | undefined;
    const done = runGit(this.place, args, {
      ...options,
      onSpawn: (c) => {
        child = c;
        this.running.add(c);
      },
    });
    return done.finally(() => child && this.running.delete(child));
  }

  private tooMany(): SnapshotLimitError {
    return new SnapshotLimitError(`the project has more than ${this.limits.maxFiles.toLocaleString('en-US')} files not ignored by .gitignore`);
  }
}

/** `4 MiB`, `2 GiB`, `100 bytes`: a limit in words. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}
