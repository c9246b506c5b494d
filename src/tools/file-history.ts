/**
 * File history as tools see it (the original kept a version per write): every write by a tool stores a
 * version, so the UI can show what a session changed, and the exact bytes of each turn's changes, so
 * undo can put them back. The SQLite implementation is `db/file-store.ts`; tools only know this.
 */
import { readFileSync, statSync } from 'node:fs';
import type { FileSnapshot, FileWriteBytes } from '../db/turn-changes.js';

export interface FileHistory {
  /**
   * Records a write of `path` (absolute) in `sessionId`. `before` is the content before the write
   * (`null` when the file did not exist), `after` the content written (`''` for a deletion); `bytes`,
   * when given, the exact states for undo. Never throws for a history problem that should not fail
   * the write; a storage failure is logged.
   */
  recordWrite(sessionId: string, path: string, before: string | null, after: string, bytes?: FileWriteBytes): void;
}

/** A history that keeps nothing, for tests and sub-agents without storage. */
export const noFileHistory: FileHistory = { recordWrite() {} };

/** What a tool knew of a file before changing it: `readDocument`'s document, or patch's original. */
export interface KnownFileState {
  /** the bytes read; without them the write is recorded for the sidebar only, not for undo */
  bytes?: Uint8Array;
  /** permission bits */
  mode: number;
  /** the path itself was a symbolic link with this target text */
  linkTarget?: string;
}

/**
 * The exact states of a write just made to `path` by the call in `messageId`, for
 * {@link FileHistory.recordWrite}: before from what the tool read (`previous`; nothing when `before` is
 * `null`), after read back from the disk now (links followed; `null` when nothing is there), so what an
 * editor or the file system made of the bytes is what undo compares with. Undefined when the before
 * state is not known exactly (a caller that passed no bytes), or the file cannot be read back.
 */
export function writeBytes(
  messageId: string,
  path: string,
  before: string | null,
  previous?: KnownFileState,
): FileWriteBytes | undefined {
  let prior: FileSnapshot | null = null;
  if (before !== null) {
    if (!previous?.bytes) return undefined;
    prior = {
      bytes: previous.bytes,
      mode: previous.mode,
      ...(previous.linkTarget !== undefined ? { linkTarget: previous.linkTarget } : {}),
    };
  }
  try {
    return { messageId, before: prior, after: readSnapshot(path) };
  } catch {
    return undefined;
  }
}

/**
 * The file at `path` now (links followed), or `null` when nothing is there. `path` may be raw bytes (a
 * name that is not UTF-8: undo of bash changes). @throws the fs error otherwise, or when it is not a regular file
 */
export function readSnapshot(path: string | Buffer): FileSnapshot | null {
  let stats;
  try {
    stats = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
  if (!stats.isFile()) throw new Error(`${path.toString()} is not a regular file`);
  return { bytes: readFileSync(path), mode: stats.mode & 0o7777 };
}
