/**
 * The disk side of undo and redo (issue 14): is a file still as a turn left it, and putting a recorded
 * state back. Writes go through the tools' safe path (`writeFileAtomic`: temp file, fsync, rename),
 * so an interrupted undo never leaves half a file.
 */
import { lstatSync, readlinkSync, realpathSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileDiff } from '../tools/diff.js';
import { ensureParentDirectory, writeFileAtomic } from '../tools/file-io.js';
import { readSnapshot, type FileSnapshot } from '../tools/file-history.js';
import { decodeDocument } from '../tools/text-document.js';

/** Lines of a conflict's diff kept for the message; the rest is counted. */
export const CONFLICT_DIFF_MAX_LINES = 80;

/** Why a file is not as expected: said to the person, with the difference. */
export interface Mismatch {
  /** one clause, e.g. `was deleted since`, `changed since`, `mode changed since (644 → 755)` */
  reason: string;
  /** unified diff from the expected content to what is on disk now; `''` when there is no text to compare */
  diff: string;
}

/**
 * Whether `path` holds exactly `expected` (`null`: nothing there). Returns undefined when it does,
 * else why not and the difference (the expected content to the disk's).
 */
export function compareWithDisk(cwd: string, path: string, expected: FileSnapshot | null): Mismatch | undefined {
  if (expected === null) {
    if (!existsAtAll(path)) return undefined;
    let now: FileSnapshot | null = null;
    try {
      now = readSnapshot(path);
    } catch {
      // a folder or a special file: said without a diff
    }
    return { reason: 'was created again since', diff: now ? textDiff(cwd, path, new Uint8Array(), now.bytes) : '' };
  }
  if (expected.linkTarget !== undefined && !existsAtAll(path)) return { reason: 'was deleted since', diff: '' };
  let now: FileSnapshot | null;
  try {
    now = readSnapshot(path);
  } catch (err) {
    return { reason: `cannot be read (${(err as Error).message})`, diff: '' };
  }
  if (now === null) return { reason: 'was deleted since', diff: textDiff(cwd, path, expected.bytes, new Uint8Array()) };
  if (!Buffer.from(now.bytes).equals(Buffer.from(expected.bytes))) {
    return { reason: 'changed since', diff: textDiff(cwd, path, expected.bytes, now.bytes) };
  }
  if (now.mode !== expected.mode) return { reason: `mode changed since (${octal(expected.mode)} → ${octal(now.mode)})`, diff: '' };
  return undefined;
}

/**
 * Why writing `path` now could land outside the project: the path is a symbolic link (a write follows
 * links) that leads out of `cwd`, and is not the link recorded for it (`linkTarget`: the link's text
 * when the turn recorded the path as a link). Such a file is left alone even with `force`. A link
 * that stays inside the project is written through as the tools do; its bytes are still compared.
 * Returns undefined when writing is safe in that sense.
 */
export function redirectedSince(cwd: string, path: string, linkTarget: string | undefined): string | undefined {
  const realCwd = realOrResolved(cwd);
  const within = (p: string) => {
    const rel = relative(realCwd, p);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  // a folder on the way replaced by a link out of the project (checked for paths inside it only: the
  // agent may have written outside with permission, through folders as they were)
  const lexical = relative(resolve(cwd), path);
  if (lexical !== '' && !lexical.startsWith('..') && !isAbsolute(lexical)) {
    const folder = realAncestor(dirname(path));
    if (!within(folder)) return `a folder on its path leads outside the project (to ${folder}); undo does not write through it — put the file back by hand if that is intended`;
  }
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    target = readlinkSync(path);
  } catch {
    // gone or unreadable: compareWithDisk says so
    return undefined;
  }
  if (linkTarget !== undefined && target === linkTarget) return undefined;
  if (within(realOrResolved(resolve(dirname(path), target)))) return undefined;
  return `is a symbolic link leading outside the project (to ${target}); undo does not write through it — put the file back by hand if that is intended`;
}

/** The real path of the deepest folder of `path` that exists (itself when it does). */
function realAncestor(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    try {
      return realpathSync(p);
    } catch {
      if (dirname(p) === p) return path;
    }
  }
}

/** The real path of `path` (links resolved), or `path` itself when it does not exist (a dangling link). */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Puts `target` at `path` (`null`: removes what is there). A symbolic link is re-created as a link
 * when nothing is at the path; otherwise the bytes are written through it, with `target.mode`.
 * Missing parent folders are created. Returns how to take the step back (the state `current`).
 * @throws the fs error; the path is then as it was
 */
export function putState(path: string, target: FileSnapshot | null, current: FileSnapshot | null): () => void {
  if (target === null) {
    unlinkSync(path);
  } else if (target.linkTarget !== undefined && !existsAtAll(path)) {
    ensureParentDirectory(path);
    symlinkSync(target.linkTarget, path);
  } else {
    ensureParentDirectory(path);
    writeFileAtomic(path, target.bytes, { mode: target.mode });
  }
  return () => {
    if (current !== null) putState(path, current, null);
    else if (existsAtAll(path)) unlinkSync(path);
  };
}

/** True when anything (a dangling link too) is at `path`. */
function existsAtAll(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}

/** The diff of two contents as text, cut to {@link CONFLICT_DIFF_MAX_LINES}; a note when either is not text. */
function textDiff(cwd: string, path: string, from: Uint8Array, to: Uint8Array): string {
  let before: string;
  let after: string;
  try {
    before = from.length ? decodeDocument(path, from).text : '';
    after = to.length ? decodeDocument(path, to).text : '';
  } catch {
    return '(binary or undecodable content: no diff shown)\n';
  }
  const lines = fileDiff(cwd, path, before, after).diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length <= CONFLICT_DIFF_MAX_LINES) return lines.map((l) => `${l}\n`).join('');
  const kept = lines.slice(0, CONFLICT_DIFF_MAX_LINES).map((l) => `${l}\n`).join('');
  return `${kept}… ${lines.length - CONFLICT_DIFF_MAX_LINES} more diff lines\n`;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}
