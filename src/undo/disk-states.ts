/**
 * Reading and writing the states `bash`'s snapshots record, beside `disk.ts`: a symbolic
 * link itself (never followed), a large file whose content is a blob of the snapshot repository, and
 * paths given as raw bytes (names that are not UTF-8; Node's fs takes a `Buffer` path as is).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import type { FileSnapshot } from '../db/turn-changes.js';
import { readSnapshot } from '../tools/file-history.js';
import { gitEnv, NEUTRAL_CONFIG } from './snapshot-git.js';

/** A path as fs takes it: a string, or raw bytes for a name that is not UTF-8. */
export type FsPath = string | Buffer;

/** How long reading a kept blob out of the snapshot repository may take, in ms. */
const BLOB_READ_TIMEOUT_MS = 10 * 60_000;

/** The folder holding `path` (raw bytes stay raw). */
export function parentOf(path: FsPath): FsPath {
  if (typeof path === 'string') return path.slice(0, Math.max(1, path.lastIndexOf('/')));
  const slash = path.lastIndexOf(0x2f);
  return path.subarray(0, Math.max(1, slash));
}

/** `path` + `suffix` in the same folder, as `.name.suffix` (a hidden temp file beside it). */
function besideAs(path: FsPath, suffix: string): FsPath {
  const raw = typeof path === 'string' ? Buffer.from(path) : path;
  const slash = raw.lastIndexOf(0x2f);
  const temp = Buffer.concat([
    raw.subarray(0, slash + 1),
    Buffer.from('.'),
    raw.subarray(slash + 1),
    Buffer.from(suffix),
  ]);
  return typeof path === 'string' ? temp.toString() : temp;
}

/** The link's raw target text when `path` itself is a symbolic link; undefined otherwise (or when nothing is there). */
export function linkAt(path: FsPath): Buffer | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return readlinkSync(path, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
}

/**
 * What is at `path` now: a link itself as a `symlink` state, else the file it is (links followed for a
 * link `linkAsIs` is false), `null` when nothing is there. @throws the fs error otherwise (a folder)
 */
export function readState(path: FsPath, linkAsIs = true): FileSnapshot | null {
  const link = linkAsIs ? linkAt(path) : undefined;
  if (link) return { bytes: link, mode: 0o777, linkTarget: link.toString('utf8'), symlink: true };
  return readSnapshot(path);
}

/** Git's blob id (SHA-1 of `blob <size>\0` and the content) of the file at `path`, read in 1 MiB pieces. */
export function blobIdOf(path: FsPath): string {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const hash = createHash('sha1').update(`blob ${size}\0`);
    const chunk = Buffer.alloc(1024 * 1024);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** Whether the snapshot repository `repo` still holds blob `id` (kept large files expire: `KEEP_LARGE_MS`). */
export function blobExists(repo: string, id: string): boolean {
  const run = spawnSync('git', [...NEUTRAL_CONFIG.flatMap((c) => ['-c', c.setting]), 'cat-file', '-e', id], {
    env: gitEnv({ gitDir: repo, workTree: repo }),
    stdio: 'ignore',
    timeout: BLOB_READ_TIMEOUT_MS,
  });
  return run.status === 0;
}

/** The content of a state to write: bytes, or a blob streamed from the snapshot repository. */
function writeContent(fd: number, target: FileSnapshot): void {
  if (!target.blob) {
    const bytes = target.bytes;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    return;
  }
  const { repo, id } = target.blob;
  // straight into the file: a 100 MiB blob is never held in memory
  const run = spawnSync('git', [...NEUTRAL_CONFIG.flatMap((c) => ['-c', c.setting]), 'cat-file', 'blob', id], {
    env: gitEnv({ gitDir: repo, workTree: repo }),
    stdio: ['ignore', fd, 'pipe'],
    timeout: BLOB_READ_TIMEOUT_MS,
  });
  if (run.error || run.status !== 0) {
    const why = run.error?.message ?? run.stderr.toString().trim().split('\n').slice(-1)[0];
    throw new Error(`its saved copy (blob ${id} in ${repo}) could not be read: ${why}`);
  }
}

/**
 * Puts `target` at `path` by a temp file (or link) renamed over it, so what was there — a file, a
 * symbolic link — is replaced, never written through. Missing folders are created.
 * @throws the fs error (the temp file is removed; the path is as it was)
 */
export function replaceWith(path: FsPath, target: FileSnapshot): void {
  mkdirSync(parentOf(path), { recursive: true });
  const temp = besideAs(path, `.${process.pid}.${randomBytes(4).toString('hex')}.opencode-undo`);
  try {
    if (target.symlink) {
      symlinkSync(Buffer.from(target.bytes), temp);
    } else {
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeContent(fd, target);
        fchmodSync(fd, target.mode);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    renameSync(temp, path);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // not made
    }
    throw err;
  }
}
