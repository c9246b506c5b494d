/**
 * The one seam through which the file tools (`view`, `edit`, `write`, `patch`) read and write a file's
 * text when an editor holds the files (`opencode acp` with a client that offers ACP's
 * `fs/read_text_file` / `fs/write_text_file`). Without a `FileAccess` in the tool context, or
 * for a direction it does not offer, the tools use the disk as always.
 *
 * When reads go through the editor, the truth is the editor's text: the buffer with its unsaved
 * changes when the file is open, the disk's text otherwise (ACP's read answers the editor's view of
 * the file). The disk still says whether a file exists, what it is (directory, binary, too large) and
 * how it is stored (encoding, byte order mark, line endings, mode), so the text a tool makes keeps the
 * file's format. "Changed since read" then compares a hash of the text last read or written through
 * the editor with a hash of the text the editor has now: the person typing in the buffer counts as a
 * change, and so does a change on disk the editor shows; an editor saving a buffer (a new mtime, the
 * same text) does not.
 *
 * Other tools (grep, glob, ls, diagnostics) read the disk.
 */
import { createHash } from 'node:crypto';
import iconv from 'iconv-lite';
import type { FileTimes } from './file-times.js';
import { encodeDocument, encodingLabel, textAsRead, type LineEnding, type TextDocument } from './text-document.js';
import { ToolError, type ToolContext } from './tool.js';

export type { FileAccess } from './context.js';

/** A read or write the editor left unanswered too long: the turn goes on, the tool call fails with this message. */
export class EditorTimeoutError extends ToolError {}

/** true when reads go through the editor. */
export function readsThroughEditor(ctx: Pick<ToolContext, 'fileAccess'>): boolean {
  return ctx.fileAccess?.readTextFile !== undefined;
}

/**
 * The text of `path` as the tools see it (no BOM, `\n` line endings) when reads go through the editor;
 * undefined without an editor reader, or when the editor answers with an error (the caller then reads
 * the disk, which is what an editor without the file open would answer).
 * @throws the abort error when `ctx.signal` aborts; the reader's {@link ToolError} (the editor did not
 *   answer in time: the disk may not be what the person sees); a ToolError for a text holding NUL (a
 *   binary file, refused as on disk)
 */
export async function readEditorText(ctx: ToolContext, path: string): Promise<string | undefined> {
  const access = ctx.fileAccess;
  if (!access?.readTextFile) return undefined;
  let text: string;
  try {
    text = textAsRead(await access.readTextFile(ctx.sessionId, path, ctx.signal));
  } catch (err) {
    ctx.signal.throwIfAborted();
    if (err instanceof ToolError) throw err;
    // an editor that cannot read it has no buffer of it either: the disk is its view
    return undefined;
  }
  // the disk's rule (text-document.ts): NUL means binary, never shown to the model or written back
  if (text.includes('\0'))
    throw new ToolError(
      `File appears to be binary (it contains NUL bytes): ${path}\nOnly text files can be viewed or changed.`,
    );
  return text;
}

/**
 * A document with `text` (the editor's, no BOM, `\n` endings) in place of the disk's, in the disk's
 * format: encoding, BOM and mode of the file; for line endings, the disk's own when the texts agree,
 * else its dominant one on every line (the editor decides a buffer's line endings when it saves).
 * `bytes` (what undo puts back) are the text encoded so; none when the file's encoding lacks one of
 * its characters (the write is then kept for the history view, not for undo).
 */
export function bufferDocument(disk: TextDocument, text: string): TextDocument {
  if (text === disk.text) return disk;
  const lines = text.split('\n');
  const lineEndings: LineEnding[] = lines.map((_, i) => (i === lines.length - 1 ? '' : disk.format.eol));
  const document: TextDocument = { path: disk.path, text, format: { ...disk.format, lineEndings }, mode: disk.mode };
  try {
    document.bytes = encodeDocument(document, text);
  } catch {
    // a character the file's encoding lacks: no exact bytes to put back
  }
  return document;
}

/** The text `bytes` (from `encodeDocument`, in `encoding`) hold, without a byte order mark: what the editor is given. */
export function textForEditor(bytes: Uint8Array, encoding = 'utf8'): string {
  return iconv.decode(Buffer.from(bytes), encoding, { stripBOM: true });
}

/**
 * The hashes of the texts last read or written through an editor, per absolute path, kept beside the
 * read tracker they belong to (one per app, as its mtime stamps).
 */
const seenTexts = new WeakMap<FileTimes, Map<string, string>>();

/** Remembers `text` as what the tools last saw of `path` through the editor. */
export function rememberEditorText(fileTimes: FileTimes, path: string, text: string): void {
  let seen = seenTexts.get(fileTimes);
  if (!seen) seenTexts.set(fileTimes, (seen = new Map()));
  seen.set(path, textHash(text));
}

/** Whether `text` is what the tools last saw of `path` through the editor: `unread` when they saw nothing. */
export function compareEditorText(fileTimes: FileTimes, path: string, text: string): 'ok' | 'unread' | 'modified' {
  const seen = seenTexts.get(fileTimes)?.get(path);
  if (seen === undefined) return 'unread';
  return seen === textHash(text) ? 'ok' : 'modified';
}

/** SHA-256 of the text (UTF-8), hex. */
function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The refusal when the editor's text of `document`'s file holds a character the file's encoding on
 * disk cannot store (`bufferDocument` found no bytes for it): the editor decoded the file otherwise
 * than it is stored (a Latin-1 file opened as UTF-8 shows U+FFFD for each accented letter), or the
 * text holds a lone UTF-16 surrogate. Changing it would write that damage back, and the model cannot
 * fix it: the person must reopen the file in its encoding.
 */
export function editorTextUnstorableError(document: TextDocument): ToolError {
  const label = encodingLabel(document.format);
  const { text } = document;
  let index = 0;
  let char = '';
  for (const c of text) {
    const stored =
      document.format.encoding === 'utf8'
        ? c.length === 2 || !/[\uD800-\uDFFF]/.test(c)
        : iconv.decode(iconv.encode(c, document.format.encoding), document.format.encoding) === c;
    if (!stored) {
      char = c;
      break;
    }
    index += c.length;
  }
  const line = text.slice(0, index).split('\n').length;
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/[\uD800-\uDFFF]/.test(char)) {
    return new ToolError(
      `The editor's text of ${document.path} holds a lone UTF-16 surrogate (${code}, line ${line}), which is not a character and cannot be stored. Nothing was changed. Ask the person to remove it in the editor, then read the file again with view.`,
    );
  }
  return new ToolError(
    `The editor's text of ${document.path} holds "${char}" (${code}, line ${line}), which the file's encoding on disk (${label}) cannot store: ` +
      `the editor probably opened it in another encoding. Nothing was changed. Ask the person to reopen the file in the editor as ${label}, then read it again with view.`,
  );
}

/** The refusal when an editor that reads but cannot write holds changes the disk does not. */
export function unsavedChangesError(path: string): ToolError {
  return new ToolError(
    `${path} has unsaved changes in the editor, and the editor does not take writes from the agent. Ask the person to save or revert them, then read the file again with view before changing it.`,
  );
}
