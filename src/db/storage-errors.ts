/**
 * Failures of local storage — the file system, and the SQLite file on it — said in plain words with
 * what to do (a read-only or full disk showed as `ENOENT … mkdir` or `disk I/O error`).
 * Used when the data folder and the database are opened at start, and by the file tools' writes.
 *
 * Error codes: Node's `err.code` for the file system (errno names, `man 3 errno`), better-sqlite3's
 * `SqliteError.code` for SQLite (extended result codes, https://www.sqlite.org/rescode.html, e.g.
 * `SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`). SQLite reports a write that failed for lack of
 * space as `SQLITE_FULL` only sometimes (a failed WAL or journal write is `SQLITE_IOERR_*`), and a
 * missing mount or a read-only one as `SQLITE_CANTOPEN`; for those the disk is looked at
 * ({@link probeStorage}) before anything is said.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** What went wrong with the disk, in the words shown to people. */
export type StorageProblem = 'read-only' | 'full' | 'quota' | 'permission';

/** Where the failed write was going: the data folder (at start or while storing) or a file a tool writes. */
export type StorageContext = 'data' | 'file';

interface ProblemRow {
  problem: StorageProblem;
  /** error codes that mean it for sure */
  codes: readonly string[];
  /** what happened, e.g. "/p/.opencode is on a read-only file system" */
  says: (place: string) => string;
  /** what to do, per context */
  todo: Record<StorageContext, string>;
}

/** The problems, the codes that mean each, and what to tell the person. */
export const STORAGE_PROBLEMS: readonly ProblemRow[] = [
  {
    problem: 'read-only',
    // e.g. a project on a read-only bind mount or a CD image
    codes: ['EROFS'],
    says: (place) => `${place} is on a read-only file system`,
    todo: {
      data: 'Nothing can be saved there: run opencode in a folder on a writable disk, or set data.directory in .opencode.json to a writable folder.',
      file: 'Nothing was written. Files there cannot be changed; remount the disk read-write or work on a copy elsewhere.',
    },
  },
  {
    problem: 'full',
    // e.g. a write on a full disk; SQLITE_FULL: "database or disk is full"
    codes: ['ENOSPC', 'SQLITE_FULL'],
    says: (place) => `no space left on the disk holding ${place}`,
    todo: {
      data: 'Free some space on that disk (`df -h` shows which is full) and start opencode again.',
      file: 'Nothing was written (the file is as it was). Free some space on that disk (`df -h` shows which is full) and try again.',
    },
  },
  {
    problem: 'quota',
    // e.g. a user over their quota on a shared machine
    codes: ['EDQUOT'],
    says: (place) => `the disk quota is used up on the disk holding ${place}`,
    todo: {
      data: 'Remove some of your files on that disk or ask for a larger quota, then start opencode again.',
      file: 'Nothing was written (the file is as it was). Remove some of your files on that disk or ask for a larger quota, then try again.',
    },
  },
  {
    problem: 'permission',
    // e.g. a project folder owned by another user
    codes: ['EACCES', 'EPERM'],
    says: (place) => `permission denied writing ${place}`,
    todo: {
      data: 'Make the folder writable for you, or set data.directory in .opencode.json to a folder you can write.',
      file: 'Nothing was written. Ask the person to make it writable, or write somewhere else.',
    },
  },
];

/**
 * Looks at the disk holding `path` (or its nearest existing folder): `read-only` when writing there
 * is refused with EROFS, `full` when no block is free for us. Undefined when neither, or unknown.
 */
export function probeStorage(path: string): StorageProblem | undefined {
  const dir = nearestExisting(path);
  if (dir === undefined) return undefined;
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'read-only';
    if (code === 'EACCES' || code === 'EPERM') return 'permission';
  }
  try {
    const stats = statfsSync(dir);
    // a pseudo file system (/proc, /sys) has no blocks at all: that is not a full disk
    if (stats.blocks > 0 && stats.bavail === 0) return 'full';
  } catch {
    // statfs is not available here
  }
  return undefined;
}

/**
 * `err` said in plain words for a write to `place` (a path), with what to do; undefined when `err`
 * is not a storage problem this knows (the caller keeps the original message). The error code ends
 * the first sentence, for searching: `/p/.opencode is on a read-only file system (EROFS). Nothing…`,
 * unless the code only led to a look at the disk (`ENOENT` from mkdir on a read-only disk).
 */
export function describeStorageError(err: unknown, place: string, context: StorageContext): string | undefined {
  const problem = storageProblem(err, place);
  if (!problem) return undefined;
  const row = STORAGE_PROBLEMS.find((r) => r.problem === problem)!;
  const code = (err as { code?: unknown } | null)?.code;
  // a code that only led to a look at the disk (ENOENT from mkdir on a read-only disk) would mislead
  const shown = typeof code === 'string' && row.codes.includes(baseCode(code)) ? ` (${code})` : '';
  return `${row.says(place)}${shown}. ${row.todo[context]}`;
}

/** Which problem `err` is, looking at the disk when the code alone does not say. */
export function storageProblem(err: unknown, place: string): StorageProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const base = baseCode(code);
  const row = STORAGE_PROBLEMS.find((r) => r.codes.includes(base));
  if (row) return row.problem;
  // ambiguous codes: a failed mkdir on a read-only disk can say ENOENT, SQLite says "disk I/O error"
  // or "unable to open database file" whatever the reason
  if (base === 'ENOENT') return probeStorage(place) === 'read-only' ? 'read-only' : undefined;
  if (base === 'SQLITE_IOERR' || base === 'SQLITE_CANTOPEN') return probeStorage(place);
  // "attempt to write a readonly database": the disk, or the file's or folder's permissions
  if (base === 'SQLITE_READONLY') return probeStorage(place) ?? 'permission';
  return undefined;
}

/** `SQLITE_IOERR_WRITE` → `SQLITE_IOERR` (SQLite's primary result code); others as they are. */
function baseCode(code: string): string {
  return code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
}

function nearestExisting(path: string): string | undefined {
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      accessSync(dir, constants.F_OK);
      return dir;
    } catch {
      if (dirname(dir) === dir) return undefined;
    }
  }
}

/** A storage failure in plain words; `code` and `cause` are the original error's. */
export class StorageError extends Error {
  readonly code: string | undefined;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StorageError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** `err` as a {@link StorageError} when it is a storage problem of `place`, else `err` itself. */
export function asStorageError(err: unknown, place: string, context: StorageContext): unknown {
  if (err instanceof StorageError) return err;
  const message = describeStorageError(err, place, context);
  return message === undefined ? err : new StorageError(message, err);
}
