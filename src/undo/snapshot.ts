/**
 * Snapshots of the project's files in a private git repository (undo of what `bash` and
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
 * excludes file) ignores stays out. Git keeps two modes of a file (644 and 755); the exact bits (a
 * `chmod 600`, setuid) are kept beside it (`snapshot-modes.ts`, {@link Snapshot.modes}). Symbolic links
 * are snapshotted as links (git's `120000`: the blob is the target text), names as raw bytes.
 *
 * Limits ({@link SNAPSHOT_LIMITS}): a file larger than `maxFileBytes` is not snapshotted (it is named
 * in {@link Snapshot.tooLarge} so a change to it can be reported); a project with more than
 * `maxFiles` files to add at once, or more than `maxTotalBytes` of them, is not snapshotted at all.
 * A change's content over `maxInlineBytes` is not copied out: {@link SnapshotFile.blob} names it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { GitError, runGit, splitNul, type GitPlace } from './snapshot-git.js';
import { effectiveMode, lstatRaw, ModeBook } from './snapshot-modes.js';

/** The bounds of snapshotting, each with why. */
export const SNAPSHOT_LIMITS = {
  /**
   * a file larger than this is not put back by undo: kept out of the repository. 100 MiB is GitHub's
   * own per-file limit (bigger files are data sets and build outputs, not code), and adding one takes
   * about a second of git's CPU each time it changes
   */
  maxFileBytes: 100 * 1024 * 1024,
  /**
   * a change's content up to this size is stored in the database; a larger one stays in the snapshot
   * repository (which holds it already) and the database keeps its blob id
   */
  maxInlineBytes: 4 * 1024 * 1024,
  /** files added in one snapshot (the first adds them all): 27,000 take ~20 s the first time on 2 cores */
  maxFiles: 100_000,
  /** bytes added in one snapshot: the repository's first copy of the project costs about half this on disk */
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  /**
   * bytes of one call's changes stored in the database (up to `maxInlineBytes` each), before and
   * after together: they are held in memory (a build writing 500 files of 4 MiB is not undone, rather
   * than stored again each run); larger files do not count, they are not copied
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
  /**
   * exact permission bits of every file whose bits are not git's default for it (0o644, or 0o755 for
   * an executable), by raw relative path as a `latin1` string (`snapshot-modes.ts`)
   */
  modes: ReadonlyMap<string, number>;
  /** when the snapshot began (ms since the epoch): a file whose inode changed before it was not made after it */
  takenAtMs: number;
}

/** One file's content in a snapshot. */
export interface SnapshotFile {
  /** the content (empty when `blob` is set); a link's raw target text */
  bytes: Buffer;
  /** git's mode: `100644`, `100755` or `120000` (a symbolic link: `bytes` is its target) */
  gitMode: string;
  /** exact permission bits (`st_mode & 0o7777`); 0o777 for a link */
  mode: number;
  /** set for content over `maxInlineBytes`: the blob in the snapshot repository that holds it */
  blob?: { id: string; size: number };
}

/** A path whose content differs between two snapshots. */
export interface SnapshotChange {
  /** relative to the project, `/`-separated, as git names it (a name that is not UTF-8 has replacement characters) */
  path: string;
  /** the same, as raw bytes */
  raw: Buffer;
  /** `null`: not in the first snapshot */
  before: SnapshotFile | null;
  /** `null`: not in the second */
  after: SnapshotFile | null;
  /** set when the name is not UTF-8: `path` then holds replacement characters; `raw` names the file */
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
/** A large file's content (over `maxInlineBytes`, kept in the repository for undo) is kept this long. */
export const KEEP_LARGE_MS = 30 * 24 * 3_600_000;

/** The private snapshot repository of one project. Methods run git; none throws but as documented. */
export class ProjectSnapshots {
  readonly place: GitPlace;
  readonly limits: SnapshotLimits;
  private initialised = false;
  private closed = false;
  /** the tree the last write-tree gave, and the index file as it was then (size, time, inode) */
  private last: { tree: string; index: string } | undefined;
  private readonly running = new Set<ChildProcess>();
  private readonly modeBook: ModeBook;

  constructor(private readonly options: ProjectSnapshotsOptions) {
    const id = createHash('sha256').update(options.cwd).digest('hex').slice(0, 16);
    this.place = { gitDir: join(options.dataDir, 'snapshots', id), workTree: options.cwd };
    this.limits = options.limits ?? SNAPSHOT_LIMITS;
    this.modeBook = new ModeBook(join(this.place.gitDir, 'opencode-modes'));
  }

  /**
   * Takes a snapshot: adds what changed since the last one (files over the size limit left out) and
   * notes the exact modes of the files it looked at (`snapshot-modes.ts`).
   * A repository found damaged (a corrupt or missing object, a broken index: a disk error, someone
   * editing it) is made anew and the snapshot taken again (see {@link renew}).
   * @throws {GitError} (`missing` when git is not installed), {@link SnapshotLimitError}
   */
  async take(options: TakeOptions): Promise<Snapshot> {
    try {
      return await this.takeOnce(options);
    } catch (err) {
      if (!isDamaged(err)) throw err;
      this.renew();
      return this.takeOnce(options);
    }
  }

  private async takeOnce(options: TakeOptions): Promise<Snapshot> {
    await this.init(options);
    const takenAtMs = Date.now();
    const nowSec = Math.floor(takenAtMs / 1000);
    this.modeBook.load();
    // a repository made before the mode book: one pass over every file it holds
    const fullPass = !this.modeBook.exists() && existsSync(join(this.place.gitDir, 'index'));
    // what changed since the last snapshot (stat data, ctime included: a chmod; no file is read), and
    // what is new: two walks, run side by side (two processes halve the wall time on 27,000 files)
    const list = (args: string[]) =>
      this.git(args, { ...options, maxEntries: this.limits.maxFiles }).catch((err: unknown) => {
        if (err instanceof GitError && err.kind === 'limit') throw this.tooMany();
        throw err;
      });
    const [modified, others] = await Promise.all([
      list(fullPass ? ['ls-files', '-z'] : ['diff-files', '--name-only', '-z']),
      list(['ls-files', '-z', '--others', '--exclude-standard']),
    ]);
    const add: Buffer[] = [];
    // tracked files gone, or now beyond a symbolic link (`rm -r lib && ln -s x lib`): git add refuses those
    const gone: Buffer[] = [];
    const linkedFolders = new Map<string, boolean>();
    const tooLarge = new Map<string, string>();
    const seen = new Set<string>();
    let total = 0;
    const tracked = splitNul(modified);
    const entries = [...tracked, ...splitNul(others)];
    if (entries.length > this.limits.maxFiles) throw this.tooMany();
    const root = Buffer.from(`${this.options.cwd}/`);
    try {
      for (const [index, entry] of entries.entries()) {
        const key = entry.toString('latin1');
        // a folder with its own .git (listed as `dir/`): its files are its repository's business
        if (seen.has(key) || entry.at(-1) === 0x2f) continue;
        seen.add(key);
        const beyondLink = index < tracked.length && this.beyondLink(root, entry, linkedFolders);
        const stats = beyondLink ? undefined : lstatRaw(Buffer.concat([root, entry]));
        this.modeBook.note(key, entry, stats, nowSec);
        if (!stats) {
          // a tracked file gone: removed from the index; a new one gone again: nothing to add
          // (naming it would fail the whole add with "did not match any files")
          if (index < tracked.length) gone.push(entry);
          continue;
        }
        if (stats.isFile() && stats.size > this.limits.maxFileBytes) {
          tooLarge.set(entry.toString('utf8'), `${stats.size}:${stats.mtimeMs}:${stats.ino}`);
          continue;
        }
        total += stats.size;
        if (!fullPass || index >= tracked.length) add.push(entry);
      }
      // a chmod in the second a file was added is invisible to git: those files are looked at again
      for (const { key, raw } of this.modeBook.recent()) {
        if (seen.has(key)) continue;
        const stats = lstatRaw(Buffer.concat([root, raw]));
        if (stats && this.modeBook.differs(key, stats)) add.push(raw);
        this.modeBook.note(key, raw, stats, nowSec);
      }
      if (total > this.limits.maxTotalBytes) {
        throw new SnapshotLimitError(
          `the project has more than ${formatBytes(this.limits.maxTotalBytes)} of files not ignored by .gitignore`,
        );
      }
      if (gone.length) {
        const input = Buffer.concat(gone.flatMap((p) => [p, Buffer.of(0)]));
        await this.withIndexLock(() =>
          this.git(['update-index', '--force-remove', '-z', '--stdin'], { ...options, input }),
        );
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
          if (err instanceof GitError && err.kind === 'failed' && /unable to index|Permission denied/.test(err.message))
            return;
          throw err;
        });
      }
    } catch (err) {
      this.modeBook.discard();
      throw err;
    }
    const modes = this.modeBook.commit();
    // nothing added and the index as our last write-tree left it (no other opencode wrote it): same tree
    if (!add.length && !gone.length && this.last && this.last.index === this.indexStamp())
      return { tree: this.last.tree, tooLarge, modes, takenAtMs };
    const tree = (await this.withIndexLock(() => this.git(['write-tree'], options))).toString('utf8').trim();
    this.last = { tree, index: this.indexStamp() };
    return { tree, tooLarge, modes, takenAtMs };
  }

  /**
   * The paths whose content, kind or exact mode differs from `before` to `after`, with both states.
   * Contents up to `maxInlineBytes` come as bytes; larger ones as their blob id (kept reachable
   * under `refs/opencode/keep/`, so pruning leaves them for undo).
   * @throws {GitError}; {@link SnapshotLimitError} when the inline contents add up to more than `maxChangeBytes`
   */
  async diff(before: Snapshot, after: Snapshot, options: TakeOptions): Promise<SnapshotChange[]> {
    try {
      return await this.diffOnce(before, after, options);
    } catch (err) {
      if (!isDamaged(err)) throw err;
      // the before-snapshot's objects are unreadable: this call's changes are lost, later ones are not
      this.renew();
      throw new GitError(
        `the snapshot repository was damaged (${(err as Error).message}); it was made anew, and later calls are tracked`,
        'failed',
      );
    }
  }

  private async diffOnce(before: Snapshot, after: Snapshot, options: TakeOptions): Promise<SnapshotChange[]> {
    const rows: { raw: Buffer; oldMode: string; newMode: string; oldId: string; newId: string }[] = [];
    if (before.tree !== after.tree) {
      const raw = splitNul(
        await this.git(['diff-tree', '-r', '-z', '--no-renames', '--raw', before.tree, after.tree], options),
      );
      for (let i = 0; i + 1 < raw.length; i += 2) {
        // ":100644 100755 <old id> <new id> M", then the path
        const [oldMode, newMode, oldId, newId] = raw[i]!.toString('utf8').slice(1).split(' ');
        rows.push({
          raw: Buffer.from(raw[i + 1]!),
          oldMode: oldMode!,
          newMode: newMode!,
          oldId: oldId!,
          newId: newId!,
        });
      }
    }
    // a mode change git does not see (`chmod 600`): same blob before and after
    const inRows = new Set(rows.map((r) => r.raw.toString('latin1')));
    const modeOnly: Buffer[] = [];
    if (before.modes !== after.modes) {
      for (const key of new Set([...before.modes.keys(), ...after.modes.keys()])) {
        if (inRows.has(key) || before.modes.get(key) === after.modes.get(key)) continue;
        // a path with a newline cannot be asked for on cat-file's line-based input
        if (!key.includes('\n')) modeOnly.push(Buffer.from(key, 'latin1'));
      }
    }
    if (modeOnly.length) {
      const input = Buffer.concat(modeOnly.flatMap((raw) => [Buffer.from(`${after.tree}:`), raw, Buffer.of(0x0a)]));
      const lines = (await this.git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { ...options, input }))
        .toString('latin1')
        .split('\n');
      for (const [i, raw] of modeOnly.entries()) {
        // "<id> blob", or "<name> missing" for a file in neither tree (never added: too large, unreadable)
        const [id, type] = (lines[i] ?? '').split(' ');
        const key = raw.toString('latin1');
        // the book holds regular files only, and git saw no change: its executable bit is the same on both sides
        const gitMode = (after.modes.get(key) ?? before.modes.get(key)!) & 0o100 ? '100755' : '100644';
        if (type === 'blob') rows.push({ raw, oldMode: gitMode, newMode: gitMode, oldId: id!, newId: id! });
      }
    }
    if (!rows.length) return [];
    const ids = [...new Set(rows.flatMap((r) => [r.oldId, r.newId]).filter((id) => !/^0+$/.test(id)))];
    // sizes first ("<id> blob <size>" per line): the contents are read only when they fit
    const sizes = new Map<string, number>();
    if (ids.length) {
      const out = (
        await this.git(['cat-file', '--batch-check'], { ...options, input: ids.map((id) => `${id}\n`).join('') })
      ).toString('utf8');
      for (const line of out.split('\n')) {
        const [id, , size] = line.split(' ');
        if (id && size) sizes.set(id, Number(size));
      }
    }
    const inline = ids.filter((id) => (sizes.get(id) ?? 0) <= this.limits.maxInlineBytes);
    const total = inline.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0);
    if (total > this.limits.maxChangeBytes)
      throw new SnapshotLimitError(`the call changed more than ${formatBytes(this.limits.maxChangeBytes)} of files`);
    const kept = ids.filter((id) => !inline.includes(id));
    if (kept.length) {
      const input = kept.map((id) => `update refs/opencode/keep/${id} ${id}\n`).join('');
      await this.git(['update-ref', '--stdin'], { ...options, input });
    }
    const blobs = await this.readBlobs(inline, options);
    const file = (
      modes: ReadonlyMap<string, number>,
      key: string,
      gitMode: string,
      id: string,
    ): SnapshotFile | null => {
      if (/^0+$/.test(id)) return null;
      const mode = gitMode === '120000' ? 0o777 : effectiveMode(modes, key, gitMode);
      const bytes = blobs.get(id);
      return bytes
        ? { bytes, gitMode, mode }
        : { bytes: Buffer.alloc(0), gitMode, mode, blob: { id, size: sizes.get(id) ?? 0 } };
    };
    return rows.map((r) => {
      const key = r.raw.toString('latin1');
      const path = r.raw.toString('utf8');
      return {
        path,
        raw: r.raw,
        before: file(before.modes, key, r.oldMode, r.oldId),
        after: file(after.modes, key, r.newMode, r.newId),
        ...(!Buffer.from(path, 'utf8').equals(r.raw) ? { notUtf8: true as const } : {}),
      };
    });
  }

  /**
   * Makes the repository anew after damage: its git files go (objects, index, refs), ours stay (the
   * mode book, the call lock); the next snapshot is a first one again. Large files kept for undo in
   * it are lost: their undo says their saved copy is gone.
   */
  renew(): void {
    for (const name of ['objects', 'refs', 'index', 'HEAD', 'packed-refs', 'config', 'info', 'logs']) {
      rmSync(join(this.place.gitDir, name), { recursive: true, force: true });
    }
    this.initialised = false;
    this.last = undefined;
  }

  /** The git directory of the snapshot repository (where kept blobs are read from). */
  get gitDir(): string {
    return this.place.gitDir;
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
    // a large file's content kept for undo (refs/opencode/keep/<id>): undo reaches that far back
    const keep = join(this.place.gitDir, 'refs', 'opencode', 'keep');
    try {
      for (const name of readdirSync(keep)) {
        if (Date.now() - statSync(join(keep, name)).mtimeMs > KEEP_LARGE_MS) rmSync(join(keep, name), { force: true });
      }
    } catch {
      // none kept
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

  /** Whether a folder on the way to `entry` (raw, relative) is a symbolic link now; `cache` by folder. */
  private beyondLink(root: Buffer, entry: Buffer, cache: Map<string, boolean>): boolean {
    for (let slash = entry.indexOf(0x2f); slash !== -1; slash = entry.indexOf(0x2f, slash + 1)) {
      const folder = entry.subarray(0, slash);
      const key = folder.toString('latin1');
      let linked = cache.get(key);
      if (linked === undefined) {
        linked = lstatRaw(Buffer.concat([root, folder]))?.isSymbolicLink() ?? false;
        cache.set(key, linked);
      }
      if (linked) return true;
    }
    return false;
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
    writeFileSync(join(gitDir, 'info', 'exclude'), this.excludes(workTree));
    this.initialised = true;
  }

  /** Our excludes: the project's own `.git/info/exclude`, and the repository itself when inside the project. */
  private excludes(workTree: string): string {
    const lines = ["# written by opencode: the project's .git/info/exclude, and this repository"];
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
    options: TakeOptions & {
      input?: Buffer | string;
      env?: Record<string, string>;
      maxEntries?: number;
      detach?: boolean;
    },
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
    return new SnapshotLimitError(
      `the project has more than ${this.limits.maxFiles.toLocaleString('en-US')} files not ignored by .gitignore`,
    );
  }
}

/**
 * Whether a git failure says the snapshot repository is damaged, from git's own messages: `loose
 * object … is corrupt`, `unable to unpack … header`, `invalid object … for '<path>'`, `index file
 * smaller than expected`, `bad signature`, `bad object`, `not a git repository`.
 */
export function isDamaged(err: unknown): boolean {
  return err instanceof GitError && err.kind === 'failed' && DAMAGE.test(err.message);
}

const DAMAGE =
  /is corrupt|unable to unpack|invalid object|index file (smaller|corrupt)|bad signature|bad object|unable to read tree|not a git repository|inflate: data stream error/i;

/** `4 MiB`, `2 GiB`, `100 bytes`: a limit in words. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}
