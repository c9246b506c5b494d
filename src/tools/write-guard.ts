/**
 * The checks and bookkeeping shared by the tools that change files (`write`, `edit`, `patch`): resolve
 * the path, refuse to overwrite what the model has not read or what changed since (the
 * original's read-before-write tracking, fixed to compare mtime and size), and record a write in the read
 * tracker and the file history.
 *
 * When an editor holds the files (`file-access.ts`, `opencode acp`), a file's text is the editor's and
 * "changed since read" compares the text the editor has now with the one last read or written through
 * it; the new content is handed to the editor instead of written to disk.
 */
import { statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolError, type ToolContext } from './tool.js';
import type { FileStamp, FileTimes } from './file-times.js';
import { writeBytes, type KnownFileState } from './file-history.js';
import { writeFileAtomic } from './file-io.js';
import { readDocument, type TextDocument } from './text-document.js';
import {
  bufferDocument,
  compareEditorText,
  EditorTimeoutError,
  editorTextUnstorableError,
  readEditorText,
  readsThroughEditor,
  rememberEditorText,
  textForEditor,
  unsavedChangesError,
} from './file-access.js';

/**
 * Puts the new content of `path` in place after every check passed: `bytes` (from `encodeDocument`,
 * in the file's encoding `encoding`) atomically on disk, or, when a `FileAccess` writes through
 * the editor, the same content as text through the editor.
 * @throws ToolError when the editor refuses the write; the fs error of `writeFileAtomic` otherwise
 */
export async function commitFileWrite(
  ctx: ToolContext,
  path: string,
  bytes: Uint8Array,
  encoding = 'utf8',
): Promise<void> {
  const access = ctx.fileAccess;
  if (!access?.writeTextFile) return writeFileAtomic(path, bytes);
  try {
    await access.writeTextFile(ctx.sessionId, path, textForEditor(bytes, encoding), ctx.signal);
  } catch (err) {
    ctx.signal.throwIfAborted();
    if (err instanceof ToolError) throw err;
    throw new ToolError(`The editor could not write ${path}: ${(err as Error).message}`);
  }
}

/**
 * `path` made absolute against the project directory, with a leading `~` or `~/` meaning the home
 * folder (`$HOME`, else the account's), as in a shell: models write `~/notes.md` and mean the home
 * folder, and a folder literally named `~` in the project is never what they want.
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
  if (check.status === 'unread') throw unreadError(path, doing);
  requireNotChangedByOtherSession(ctx, path, doing);
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
 * The document of the existing file `path` to change, after {@link requireFreshRead}: the disk's; or,
 * when reads go through the editor, the editor's text in the file's format (`bufferDocument`), which
 * must be the text last read or written through the editor. An editor that reads but does not take
 * writes must have no unsaved changes in it (they would be lost or overwritten).
 * @throws ToolError unread, changed since read, unsaved changes, or as `readDocument`
 */
export async function readFileToChange(ctx: ToolContext, path: string, doing: string): Promise<TextDocument> {
  if (!readsThroughEditor(ctx)) {
    requireFreshRead(ctx, path, doing);
    return readDocument(path);
  }
  const disk = readDocument(path);
  const text = (await readEditorText(ctx, path)) ?? disk.text;
  const status = compareEditorText(ctx.fileTimes, path, text);
  if (status === 'unread') throw unreadError(path, doing);
  requireNotChangedByOtherSession(ctx, path, doing);
  if (status === 'modified') {
    throw new ToolError(
      `File ${path} has been modified since it was last read (in the editor or on disk).\n\nRead it again with the view tool before ${doing} it.`,
    );
  }
  if (text !== disk.text && !ctx.fileAccess?.writeTextFile) throw unsavedChangesError(path);
  const document = bufferDocument(disk, text);
  // no bytes for the editor's own text: a change would write the editor's misreading back
  if (!document.bytes && text !== disk.text) throw editorTextUnstorableError(document);
  return document;
}

/**
 * Called after permission was granted (the person may have taken minutes): the file must still be
 * as it was when the change was prepared (its text in the editor when reads go through it). `existed`
 * says whether it existed then.
 */
export async function requireUnchangedWhileAsking(ctx: ToolContext, path: string, existed: boolean): Promise<void> {
  if (!existed) {
    if (statIfExists(path)) {
      throw new ToolError(
        `File ${path} was created by someone else while waiting for permission. Read it with the view tool and try again.`,
      );
    }
    return;
  }
  if (!(await unchangedSinceRead(ctx, path))) {
    throw new ToolError(
      `File ${path} changed while waiting for permission. Read it again with the view tool and redo the change.`,
    );
  }
}

/**
 * Whether the existing file `path` is still as last read or written by the tools: its mtime and size
 * on disk, or its text in the editor when reads go through it. A file gone since is changed.
 */
export async function unchangedSinceRead(ctx: ToolContext, path: string): Promise<boolean> {
  try {
    if (!readsThroughEditor(ctx)) return ctx.fileTimes.check(path).status === 'ok';
    const text = (await readEditorText(ctx, path)) ?? (statIfExists(path) ? readDocument(path).text : undefined);
    return text !== undefined && compareEditorText(ctx.fileTimes, path, text) === 'ok';
  } catch (err) {
    ctx.signal.throwIfAborted();
    // the editor not answering says nothing of the file: the model must hear that, not "changed"
    if (err instanceof EditorTimeoutError) throw err;
    // unreadable now (gone, binary): not as it was
    return false;
  }
}

/**
 * Records a read (view) of `path` whose text (decoded, as shown) was `text`: its disk stamp, and the
 * text when reads go through the editor.
 */
export function recordFileRead(ctx: ToolContext, path: string, text: string): void {
  ctx.fileTimes.record(path);
  seenSinceWrite.get(ctx.fileTimes)?.get(path)?.add(ctx.sessionId);
  if (readsThroughEditor(ctx)) rememberEditorText(ctx.fileTimes, path, text);
}

/**
 * Records a finished write: the read tracker sees our own write as read, the history gets a version.
 * `before` and `after` are decoded texts as `readDocument` gives them (no BOM, `\n` line endings;
 * `textAsRead` for a new file), so versions compare equal whatever the file's encoding. `previous`
 * (the document read, with its bytes) lets undo put the exact bytes back; a new file needs none.
 */
export function recordFileWrite(
  ctx: ToolContext,
  path: string,
  before: string | null,
  after: string,
  previous?: KnownFileState,
): void {
  ctx.fileTimes.record(path);
  let written = seenSinceWrite.get(ctx.fileTimes);
  if (!written) seenSinceWrite.set(ctx.fileTimes, (written = new Map()));
  written.set(path, new Set([ctx.sessionId]));
  // what the editor will read back of what we wrote (through it or on disk)
  if (readsThroughEditor(ctx)) rememberEditorText(ctx.fileTimes, path, after);
  try {
    ctx.fileHistory.recordWrite(ctx.sessionId, path, before, after, writeBytes(ctx.messageId, path, before, previous));
  } catch {
    // history is for the UI; a storage problem must not turn a done write into a failure
  }
}

/**
 * Per read tracker (one per app), for each file the tools wrote: the sessions that have seen it since
 * that write (the writer, and those that viewed it after). The read tracker and the editor's text
 * hashes are per process, and `opencode acp` runs several sessions in one: without this, a session
 * that read a file before another session changed it would pass "changed since read" (the stamp and
 * the text it compares are the other session's write) and overwrite a change its model never saw.
 */
const seenSinceWrite = new WeakMap<FileTimes, Map<string, Set<string>>>();

/** Throws unless no other session wrote `path` since this session last read (or wrote) it. */
function requireNotChangedByOtherSession(ctx: ToolContext, path: string, doing: string): void {
  const sessions = seenSinceWrite.get(ctx.fileTimes)?.get(path);
  if (sessions && !sessions.has(ctx.sessionId)) {
    throw new ToolError(
      `File ${path} was changed by another session after this session last read it.\n\nRead it again with the view tool before ${doing} it.`,
    );
  }
}

function unreadError(path: string, doing: string): ToolError {
  return new ToolError(`You must read the file ${path} before ${doing} it. Use the view tool first.`);
}

function describeStamp(stamp: FileStamp): string {
  return `${new Date(stamp.mtimeMs).toISOString()} (${stamp.size} bytes)`;
}
