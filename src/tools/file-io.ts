/**
 * The one way the tools put bytes into a file: a temporary file in the
 * same directory is written, synced and renamed over the target, so a reader (or a crash, or a full
 * disk) never sees half a file. What text goes into those bytes (encoding, BOM, line endings) is
 * `text-document.ts`'s business.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  mkdirSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { leftovers } from './leftovers.js';
import { resolveAllLinks } from '../permission/real-path.js';
import { describeStorageError, StorageError, storageProblem } from '../db/storage-errors.js';
import { ToolError } from './tool.js';

export interface WriteOptions {
  /** permission bits for the file; default: those of the file being replaced, else 0o666 minus the umask */
  mode?: number;
}

/**
 * Writes `bytes` to `path` atomically (temp file in the target's directory, fsync, rename).
 *
 * - The replaced file's mode is kept (e.g. 0o755 of a script), and its owner and group when the
 *   process may set them; `options.mode` overrides.
 * - A symbolic link is followed, also a dangling one: the file it points to is written, the link
 *   stays a link.
 * - A file without write permission is refused (`EACCES`) rather than silently replaced, which a
 *   rename would otherwise allow.
 * - A hard link to the old file keeps the old content (the price of atomic replacement).
 *
 * @throws the fs error (`EACCES`, `ENOSPC`, `EISDIR`, `ELOOP`…); the target is then untouched and no
 * temporary file is left behind.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, options: WriteOptions = {}): void {
  const target = resolveWriteTarget(path);
  const existing = statIfExists(target);
  if (existing?.isDirectory()) throw fsError('EISDIR', `illegal operation on a directory, open '${target}'`);
  if (existing) accessSync(target, constants.W_OK);
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : undefined);

  if (existing) requireRegularFile(target, existing);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // private until complete when it replaces a file (which may hold secrets); a new file gets the usual umask
  // journaled first, so that a kill -9 from here to the rename leaves nothing the next start can't find
  leftovers().tempFileCreating(temp);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', existing ? 0o600 : 0o666);
  } catch (err) {
    leftovers().tempFileGone(temp);
    // the temp file is our detail: name the file the model asked for
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw (
      diskProblem(err, target) ??
      fsError(code, `cannot create ${target} (${FS_ERROR_REASONS[code] ?? (err as Error).message})`, target)
    );
  }
  try {
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      if (existing) {
        try {
          fchownSync(fd, existing.uid, existing.gid);
        } catch {
          // only root (or the owner, for a group it belongs to) may; the file is then ours
        }
      }
      // after chown, which clears setuid/setgid bits
      if (mode !== undefined) fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or never created
    }
    throw diskProblem(err, target) ?? err;
  } finally {
    leftovers().tempFileGone(temp);
  }
  syncDirectory(dirname(target));
}

/**
 * The path a write to `path` must replace: every symbolic link followed the way the kernel does,
 * dangling ones too, by the same {@link resolveAllLinks} the permission check uses. A
 * link's text with `..` after another link (`L → D/../../x`, `D` a link) leads where the kernel goes,
 * not where the text reads; following it by text wrote outside the project after the check had
 * judged the kernel's place inside.
 * @throws ELOOP after `MAX_LINK_HOPS` links (permission/real-path.ts)
 */
export function resolveWriteTarget(path: string): string {
  const target = resolveAllLinks(path);
  if (target === undefined) throw fsError('ELOOP', `too many symbolic links encountered, open '${path}'`, path);
  return target;
}

function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes the rename durable; best effort (some file systems refuse to sync a directory). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here; the rename itself is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function fsError(code: string, message: string, path?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: ${message}`);
  err.code = code;
  if (path !== undefined) err.path = path;
  return err;
}

/**
 * A read-only, full or over-quota disk said as such, with what to do, or undefined for
 * any other error. The code stays on the error (`EROFS`, `ENOSPC`, `EDQUOT`).
 */
function diskProblem(err: unknown, target: string): StorageError | undefined {
  const problem = storageProblem(err, target);
  if (problem !== 'read-only' && problem !== 'full' && problem !== 'quota') return undefined;
  return new StorageError(`cannot write ${target}: ${describeStorageError(err, target, 'file')}`, err);
}

/** Short reasons for the errors creating a file in a folder gives. */
const FS_ERROR_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'files cannot be created in its folder',
  EACCES: 'permission denied in its folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a parent is not a directory',
};

/** `FIFO`, `character device`…: what a path that is not a regular file is, for messages. */
export function describeFileKind(stats: Stats): string {
  if (stats.isFile()) return 'regular file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  if (stats.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

/**
 * Throws a {@link ToolError} unless `stats` (of `path`, links followed) is a regular file: reading a
 * FIFO blocks forever and `/dev/zero` never ends, so they are refused before they are opened.
 */
export function requireRegularFile(path: string, stats: Stats): void {
  if (stats.isFile()) return;
  throw new ToolError(
    `${path} is not a regular file (it is a ${describeFileKind(stats)}). Only regular files can be read or changed.`,
  );
}

/** Pseudo file systems where nothing the tools write belongs (and where Node's recursive mkdir loops forever). */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'] as const;

/** Folders created at most for one file: a bound on the mkdir loop, far above any real project. */
const MAX_CREATED_DIRS = 64;

/**
 * The folders missing above `path`, nearest first, without creating anything: the check before
 * asking the person to allow a new file.
 * @throws ToolError when an ancestor is not a folder or the path is on /proc, /sys or /dev
 */
export function missingParentDirectories(path: string): string[] {
  const target = resolve(path);
  const onPseudo = PSEUDO_FILE_SYSTEMS.find((root) => target === root || target.startsWith(root + sep));
  if (onPseudo)
    throw new ToolError(`cannot write ${target}: ${onPseudo} is a system pseudo file system, not a place for files.`);
  const missing: string[] = [];
  for (let dir = dirname(target); ; dir = dirname(dir)) {
    let stats: Stats | undefined;
    try {
      stats = statSync(dir);
    } catch (err) {
      // ENOTDIR: an ancestor is a file, which the next level up finds and names
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
    if (stats) {
      if (!stats.isDirectory()) throw new ToolError(`cannot create ${target}: ${dir} is not a directory`);
      return missing;
    }
    missing.push(dir);
    if (missing.length > MAX_CREATED_DIRS)
      throw new ToolError(`cannot create ${target}: more than ${MAX_CREATED_DIRS} missing parent folders`);
    if (dirname(dir) === dir) return missing;
  }
}

/**
 * Makes sure the folder of `path` exists, creating missing folders one level at a time (checked by
 * {@link missingParentDirectories}), and returns the first folder it created (undefined when none).
 *
 * Not `mkdir({ recursive: true })`: on `/proc/nope/x` it spins at 100% CPU forever (mkdir of
 * `/proc/nope` gives ENOENT although `/proc` exists, and Node retries the parent endlessly).
 * @throws ToolError as {@link missingParentDirectories}, or when a folder cannot be created
 */
export function ensureParentDirectory(path: string): string | undefined {
  const target = resolve(path);
  const missing = missingParentDirectories(target);
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(folder).isDirectory()) continue; // made meanwhile
      const reason = diskProblem(err, folder) ? describeStorageError(err, folder, 'file') : undefined;
      throw new ToolError(
        `cannot create the folder ${folder} for ${target}: ${reason ?? FS_ERROR_REASONS[code ?? ''] ?? (err as Error).message}`,
      );
    }
  }
  return missing.length ? missing[0] : undefined;
}
