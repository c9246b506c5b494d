/**
 * The one way the tools put bytes into a file (issue #3 §5, "Write safety"): a temporary file in the
 * same directory is written, synced and renamed over the target, so a reader (or a crash, or a full
 * disk) never sees half a file. What text goes into those bytes (encoding, BOM, line endings) is
 * `text-document.ts`'s business.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface WriteOptions {
  /** permission bits for the file; default: those of the file being replaced, else 0o666 minus the umask */
  mode?: number;
}

/** Symbolic links followed at most (Linux's own limit, `ELOOP`). */
const MAX_SYMLINK_HOPS = 40;

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

  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // private until complete when it replaces a file (which may hold secrets); a new file gets the usual umask
  const fd = openSync(temp, 'wx', existing ? 0o600 : 0o666);
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
    throw err;
  }
  syncDirectory(dirname(target));
}

/** The path a write to `path` must replace: symbolic links followed to their (possibly missing) target. */
export function resolveWriteTarget(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops <= MAX_SYMLINK_HOPS; hops++) {
    let stats: Stats;
    try {
      stats = lstatSync(current);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw err;
    }
    if (!stats.isSymbolicLink()) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw fsError('ELOOP', `too many symbolic links encountered, open '${path}'`);
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

function fsError(code: string, message: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: ${message}`);
  err.code = code;
  return err;
}
