/**
 * The disk side of undo and redo: is a file still as a turn left it, and putting a recorded
 * state back. Writes go through the tools' safe path (`writeFileAtomic`: temp file, fsync, rename),
 * so an interrupted undo never leaves half a file.
 */
import {
  chmodSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileDiff } from '../tools/diff.js';
import { ensureParentDirectory, writeFileAtomic } from '../tools/file-io.js';
import type { FileSnapshot } from '../db/turn-changes.js';
import { decodeDocument } from '../tools/text-document.js';
import { blobIdOf, linkAt, parentOf, readState, replaceWith, type FsPath } from './disk-states.js';

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
 * else why not and the difference (the expected content to the disk's). A `symlink` state is compared
 * as the link itself (its target text); a `blob` state by git's blob id of the file.
 */
export function compareWithDisk(cwd: string, path: FsPath, expected: FileSnapshot | null): Mismatch | undefined {
  const name = path.toString();
  if (expected === null) {
    // an empty folder: what is left of a folder the turn (or the undo) emptied, replaced by a file or link
    if (!existsAtAll(path) || isEmptyFolder(path)) return undefined;
    const link = linkAt(path);
    if (link)
      return {
        reason: `was created again since (a symbolic link to ${link.toString()})`,
        diff: linkDiff(cwd, name, undefined, link),
      };
    let now: FileSnapshot | null = null;
    try {
      now = readState(path, false);
    } catch {
      // a folder or a special file: said without a diff
    }
    return { reason: 'was created again since', diff: now ? textDiff(cwd, name, new Uint8Array(), now.bytes) : '' };
  }
  if (expected.linkTarget !== undefined && !existsAtAll(path)) return { reason: 'was deleted since', diff: '' };
  if (expected.symlink) return compareLink(cwd, path, Buffer.from(expected.bytes));
  if (expected.blob) return compareBlob(path, expected);
  let now: FileSnapshot | null;
  try {
    now = readState(path, false);
  } catch (err) {
    return { reason: `cannot be read (${(err as Error).message})`, diff: '' };
  }
  if (now === null) return { reason: 'was deleted since', diff: textDiff(cwd, name, expected.bytes, new Uint8Array()) };
  if (!Buffer.from(now.bytes).equals(Buffer.from(expected.bytes))) {
    return { reason: 'changed since', diff: textDiff(cwd, name, expected.bytes, now.bytes) };
  }
  if (now.mode !== expected.mode)
    return { reason: `mode changed since (${octal(expected.mode)} → ${octal(now.mode)})`, diff: '' };
  return undefined;
}

/** Whether `path` is still the symbolic link to `target` (raw text). */
function compareLink(cwd: string, path: FsPath, target: Buffer): Mismatch | undefined {
  const name = path.toString();
  if (!existsAtAll(path)) return { reason: 'was deleted since', diff: linkDiff(cwd, name, target, undefined) };
  const now = linkAt(path);
  if (now?.equals(target)) return undefined;
  if (now)
    return {
      reason: `is a symbolic link to ${now.toString()} now (was to ${target.toString()})`,
      diff: linkDiff(cwd, name, target, now),
    };
  return {
    reason: `is no longer the symbolic link to ${target.toString()}: something else is there now`,
    diff: linkDiff(cwd, name, target, undefined),
  };
}

/** Whether `path` still holds the large file `expected.blob`, with its mode. */
function compareBlob(path: FsPath, expected: FileSnapshot): Mismatch | undefined {
  const blob = expected.blob!;
  const noDiff = `(over ${Math.round(blob.size / 1024 / 1024)} MiB: no diff shown)\n`;
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return { reason: 'was deleted since', diff: '' };
  }
  if (!stats.isFile()) return { reason: 'is no longer a file', diff: '' };
  try {
    if (stats.size !== blob.size || blobIdOf(path) !== blob.id) return { reason: 'changed since', diff: noDiff };
  } catch (err) {
    return { reason: `cannot be read (${(err as Error).message})`, diff: '' };
  }
  const mode = stats.mode & 0o7777;
  if (mode !== expected.mode)
    return { reason: `mode changed since (${octal(expected.mode)} → ${octal(mode)})`, diff: '' };
  return undefined;
}

/** A link's change as a small diff: `-> old` / `-> new` lines (either side absent: nothing). */
function linkDiff(cwd: string, path: string, from: Buffer | undefined, to: Buffer | undefined): string {
  const rel = relative(cwd, path).split('\\').join('/');
  const lines = [`--- a/${rel}`, `+++ b/${rel}`];
  if (from) lines.push(`-symbolic link to ${from.toString()}`);
  if (to) lines.push(`+symbolic link to ${to.toString()}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Why writing `path` now could land outside the project: the path is a symbolic link (a write follows
 * links) that leads out of `cwd`, and is not the link recorded for it (`linkTarget`: the link's text
 * when the turn recorded the path as a link). Such a file is left alone even with `force`. A link
 * that stays inside the project is written through as the tools do; its bytes are still compared.
 * Returns undefined when writing is safe in that sense.
 */
export function redirectedSince(
  cwd: string,
  fsPath: FsPath,
  linkTarget: string | Uint8Array | undefined,
): string | undefined {
  const path = fsPath.toString();
  const realCwd = realOrResolved(cwd);
  const within = (p: string) => {
    const rel = relative(realCwd, p);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  // a folder on the way replaced by a link out of the project (checked for paths inside it only: the
  // agent may have written outside with permission, through folders as they were)
  const lexical = relative(resolve(cwd), path);
  if (lexical !== '' && !lexical.startsWith('..') && !isAbsolute(lexical)) {
    const folder = realAncestor(parentOf(fsPath));
    if (!within(folder))
      return `a folder on its path leads outside the project (to ${folder}); undo does not write through it — put the file back by hand if that is intended`;
  }
  let target: string;
  let raw: Buffer;
  try {
    if (!lstatSync(fsPath).isSymbolicLink()) return undefined;
    raw = readlinkSync(fsPath, { encoding: 'buffer' });
    target = raw.toString();
  } catch {
    // gone or unreadable: compareWithDisk says so
    return undefined;
  }
  if (typeof linkTarget === 'string' && target === linkTarget) return undefined;
  if (linkTarget instanceof Uint8Array && raw.equals(linkTarget)) return undefined;
  if (within(realOrResolved(resolve(dirname(path), target)))) return undefined;
  return `is a symbolic link leading outside the project (to ${target}); undo does not write through it — put the file back by hand if that is intended`;
}

/** The real path of the deepest folder of `path` that exists (itself when it does). */
function realAncestor(path: FsPath): string {
  for (let p = path; ; p = parentOf(p)) {
    try {
      return realpathSync(p);
    } catch {
      if (parentOf(p).length === p.length) return path.toString();
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
 * Puts `target` at `path` (`null`: removes what is there). A `symlink` or `blob` state, a raw path,
 * or a `current` state that is a link itself replace what is there (`disk-states.ts`: never written
 * through). Otherwise, as the tools write: a symbolic link is re-created as a link when nothing is at
 * the path, else the bytes are written through it, with `target.mode`. Missing parent folders are
 * created. Returns how to take the step back (the state `current`).
 * @throws the fs error; the path is then as it was
 */
export function putState(path: FsPath, target: FileSnapshot | null, current: FileSnapshot | null): () => void {
  if (target === null) {
    unlinkSync(path);
  } else if (current && sameContent(current, target)) {
    // a mode change alone (`chmod 600`): the file stays the same file (hard links, a file only
    // readable now: rewriting it would need write access)
    chmodSync(path, target.mode);
  } else if (typeof path !== 'string' || target.symlink || target.blob || current?.symlink) {
    replaceWith(path, target);
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

/** Whether two states of a file hold the same content (a link's state never counts as a file's). */
function sameContent(a: FileSnapshot, b: FileSnapshot): boolean {
  if (a.symlink || b.symlink || a.linkTarget !== b.linkTarget) return false;
  if (a.blob || b.blob) return a.blob?.id === b.blob?.id;
  return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}

/**
 * Removes the empty folder at `path`, when there is one where a turn recorded nothing (folders are not
 * recorded: one left empty where a link or file is to go, `rm -r dir && ln -s x dir`).
 * @throws the fs error
 */
export function removeEmptyFolder(path: FsPath): void {
  if (isEmptyFolder(path)) rmdirSync(path);
}

/** True when `path` is a folder (not a link to one) with nothing in it. */
function isEmptyFolder(path: FsPath): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** True when anything (a dangling link too) is at `path`. */
function existsAtAll(path: FsPath): boolean {
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
  const kept = lines
    .slice(0, CONFLICT_DIFF_MAX_LINES)
    .map((l) => `${l}\n`)
    .join('');
  return `${kept}… ${lines.length - CONFLICT_DIFF_MAX_LINES} more diff lines\n`;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}
