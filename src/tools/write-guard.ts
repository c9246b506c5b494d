/**
 * The checks and bookkeeping shared by the tools that change files (`write`, `edit`): resolve the
 * path, refuse to overwrite what the model has not read or what changed since (reference §1,
 * "Read-before-write tracking", fixed to compare mtime and size), and record a write in the
 * read tracker and the file history.
 */
import { statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import iconv from 'iconv-lite';
import { ToolError, type ToolContext } from './tool.js';
import type { FileStamp } from './file-times.js';
import { writeBytes, type KnownFileState } from './file-history.js';
import { writeFileAtomic } from './file-io.js';

/**
 * `ToolContext.extra` key of an {@link EditorFiles}: when set, `edit` and `write` hand a file's new
 * text to the editor instead of writing the disk themselves (`opencode acp` with a client that offers
 * `fs/write_text_file`, so the change lands in the editor's buffer and its undo works).
 */
export const EDITOR_FILES = 'editorFiles';

/** An editor that writes files for the tools (ACP's `fs/write_text_file`). */
export interface EditorFiles {
  /**
   * Writes `text` (the whole new content: the file's own line endings, no byte order mark) to the
   * absolute `path` through the editor. Rejects when the editor refuses; resolves once it is written.
   */
  writeTextFile(sessionId: string, path: string, text: string, signal: AbortSignal): Promise<void>;
}

/**
 * Puts the new content of `path` in place after every check passed: `bytes` (from `encodeDocument`,
 * in the file's encoding `encoding`) atomically on disk, or, when an {@link EditorFiles} is attached,
 * the same content as text through the editor.
 * @throws ToolError when the editor refuses the write; the fs error of `writeFileAtomic` otherwise
 */
export async function commitFileWrite(ctx: ToolContext, path: string, bytes: Uint8Array, encoding = 'utf8'): Promise<void> {
  const editor = ctx.extra?.[EDITOR_FILES] as EditorFiles | undefined;
  if (!editor) return writeFileAtomic(path, bytes);
  const text = iconv.decode(Buffer.from(bytes), encoding, { stripBOM: true });
  try {
    await editor.writeTextFile(ctx.sessionId, path, text, ctx.signal);
  } catch (err) {
    throw new ToolError(`The editor could not write ${path}: ${(err as Error).message}`);
  }
}

/**
 * `path` made absolute against the project directory, with a leading `~` or `~/` meaning the home
 * folder (`$HOME`, else the account's), as in a shell: models write `~/notes.md` and mean the home
 * folder, and a folder literally named `~` in the project is never what they want (issue #10 §1).
 * `~user/…` is not expanded (it is a relative name, as a shell leaves it when there is no such user).
 */
export function resolveToolPath(ctx: Pick<ToolContext, 'cwd'>, path: string): string {
  return resolve(ctx.cwd, expandHome(path));
}

/** `~` and `~/rest` as paths in the home folder; anything else unchanged. */
export function expandHome(path: string, home: string = process.env.HOME || homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/** The file's stats (links followed), or undefined when nothing is at `path`. */
export function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    // ENOTDIR: a parent is a file, so nothing is here either (the write then says which parent)
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * Throws a {@link ToolError} unless `path` was read (or written by us) and has not changed on disk
 * since. `doing` completes "before … it", e.g. `editing`.
 */
export function requireFreshRead(ctx: ToolContext, path: string, doing: string): void {
  const check = ctx.fileTimes.check(path);
  if (check.status === 'unread') {
    throw new ToolError(`You must read the file ${path} before ${doing} it. Use the view tool first.`);
  }
  if (check.status === 'modified') {
    throw new ToolError(
      `File ${path} has been modified since it was last read.\n` +
        `Last modification: ${describeStamp(check.now)}\n` +
        `When last read: ${describeStamp(check.seen)}\n\n` +
        `Read it again with the view tool before ${doing} it.`,
    );
  }
}

/**
 * Called after permission was granted (the person may have taken minutes): the file must still be
 * as it was when the change was prepared. `existed` says whether it existed then.
 */
export function requireUnchangedWhileAsking(ctx: ToolContext, path: string, existed: boolean): void {
  if (!existed) {
    if (statIfExists(path)) {
      throw new ToolError(`File ${path} was created by someone else while waiting for permission. Read it with the view tool and try again.`);
    }
    return;
  }
  if (ctx.fileTimes.check(path).status !== 'ok') {
    throw new ToolError(`File ${path} changed while waiting for permission. Read it again with the view tool and redo the change.`);
  }
}

/**
 * Records a finished write: the read tracker sees our own write as read, the history gets a version.
 * `before` and `after` are decoded texts as `readDocument` gives them (no BOM, `\n` line endings;
 * `textAsRead` for a new file), so versions compare equal whatever the file's encoding. `previous`
 * (the document read, with its bytes) lets undo put the exact bytes back (issue 14); a new file needs none.
 */
export function recordFileWrite(ctx: ToolContext, path: string, before: string | null, after: string, previous?: KnownFileState): void {
  ctx.fileTimes.record(path);
  try {
    ctx.fileHistory.recordWrite(ctx.sessionId, path, before, after, writeBytes(ctx.messageId, path, before, previous));
  } catch {
    // history is for the UI; a storage problem must not turn a done write into a failure
  }
}

function describeStamp(stamp: FileStamp): string {
  return `${new Date(stamp.mtimeMs).toISOString()} (${stamp.size} bytes)`;
}
