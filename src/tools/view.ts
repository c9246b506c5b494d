/**
 * `view`: read a text file with line numbers (as the original), fixed: lines of any length
 * are read (the original's 64 KB scanner limit failed the call), long lines are cut by characters
 * without splitting a surrogate pair, and binary files get a clear error instead of being dumped.
 *
 * Decoding is the policy shared with edit, write and patch (`text-document.ts`): a byte
 * order mark is dropped, CRLF is shown as a plain line break, and a file not in UTF-8 is decoded in its
 * own encoding, which is named on a line before the numbered lines.
 *
 * When an editor holds the files (`file-access.ts`, `opencode acp` with `fs/read_text_file`), the text
 * is the editor's (an open buffer's unsaved changes included); the disk still decides whether the file
 * exists, its size and type, and the encoding named.
 *
 * Tabs are shown as they are, on purpose: to a model a tab is its own character (its own token), not
 * a stretch of columns as on a screen, so it is already told apart from spaces; and what view shows
 * is what edit's old_string must contain, so any stand-in glyph would have to be mapped back and
 * would collide with the same glyph in real files.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { recordFileRead, resolveToolPath } from './write-guard.js';
import { readEditorText } from './file-access.js';
import { askBeforeSecretRead, secretPlaceOf, secretScope } from './secret-read.js';
import { abortError, isAbortError } from '../abort.js';
import { decodeDocument, encodingLabel } from './text-document.js';
import { requireRegularFile } from './file-io.js';
import { similarPaths } from './path-suggestions.js';
import { lspFileViewed } from './diagnostics.js';

const DESCRIPTION = `Read a text file. Lines come numbered as \`     1|text\`; the number and the | are not part of the file. Text is shown verbatim: tabs are real tab characters.

Reads up to 2000 lines from \`offset\` (0-based); when more remain, the output says which offset to read next. Lines over 2000 characters are cut and end in "...". Files over 250 KB, images and binary files are refused; a file not in UTF-8 is shown decoded, its encoding named first.

Read a file before editing or overwriting it (edit and write require it). To find a file by name use glob; to find where text occurs use grep rather than reading many files. For a folder use ls.`;

/** Largest file read, in bytes (the original's 250 KB). */
export const VIEW_MAX_FILE_BYTES = 250 * 1024;
/** Lines shown when no `limit` is given. */
export const VIEW_DEFAULT_LINES = 2000;
/** Longer lines are cut to this many characters and get `...`. */
export const VIEW_MAX_LINE_CHARS = 2000;
const IMAGE_TYPES: Record<string, string> = {
  '.jpg': 'JPEG',
  '.jpeg': 'JPEG',
  '.png': 'PNG',
  '.gif': 'GIF',
  '.bmp': 'BMP',
  '.svg': 'SVG',
  '.webp': 'WebP',
};

const parameters = z.object({
  file_path: z
    .string()
    .min(1, 'must not be empty')
    .describe('Path of the file (absolute, or relative to the project directory)'),
  offset: z.number().int().min(0).optional().describe('Line to start from, 0-based'),
  limit: z.number().int().min(0).optional().describe('Number of lines to read (default 2000)'),
});

export const viewTool = defineTool({
  name: 'view',
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  // the file is capped at 250 KB already; the kernel's 30,000-character cut would drop lines mid-file
  maxOutputChars: 300_000,
  async run(input, ctx) {
    const filePath = resolveToolPath(ctx, input.file_path);
    const secret = secretPlaceOf(filePath, secretScope(ctx));
    if (secret) await askBeforeSecretRead(ctx, 'view', secret);
    const offset = input.offset ?? 0;
    const limit = input.limit && input.limit > 0 ? input.limit : VIEW_DEFAULT_LINES;

    let info;
    try {
      info = await stat(filePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new ToolError(await notFoundMessage(filePath, ctx.cwd));
      throw err;
    }
    if (info.isDirectory()) throw new ToolError(`Path is a directory, not a file: ${filePath}`);
    requireRegularFile(filePath, info);
    if (info.size > VIEW_MAX_FILE_BYTES) {
      throw new ToolError(`File is too large (${info.size} bytes). Maximum size is ${VIEW_MAX_FILE_BYTES} bytes`);
    }
    const imageType = IMAGE_TYPES[extname(filePath).toLowerCase()];
    if (imageType) {
      throw new ToolError(`This is an image file of type: ${imageType}\nUse a different tool to process images`);
    }

    const bytes = await readFile(filePath, { signal: ctx.signal }).catch((err: Error) => {
      throw isAbortError(err) ? abortError() : err;
    });
    const decoded = decodeDocument(filePath, bytes);
    const { format } = decoded;
    // an editor holding the files (opencode acp) gives its buffer's text, unsaved changes included
    const text = (await readEditorText(ctx, filePath)) ?? decoded.text;
    if (text !== decoded.text && Buffer.byteLength(text) > VIEW_MAX_FILE_BYTES) {
      throw new ToolError(
        `File is too large in the editor (${Buffer.byteLength(text)} bytes). Maximum size is ${VIEW_MAX_FILE_BYTES} bytes`,
      );
    }
    const lines = splitLines(text);
    if (offset > 0 && offset >= lines.length) {
      const has =
        lines.length === 0
          ? 'is empty'
          : `has ${lines.length} line${lines.length === 1 ? '' : 's'} (offsets 0 to ${lines.length - 1})`;
      throw new ToolError(`offset ${offset} is past the end of the file: ${filePath} ${has}.`);
    }
    const shown = lines.slice(offset, offset + limit).map((line) => cutLine(line));
    const content = shown.join('\n');
    let output = '<file>\n';
    if (format.encoding !== 'utf8') output += `(file encoding: ${encodingLabel(format)})\n`;
    output += numberLines(shown, offset + 1);
    const lastShown = offset + Math.max(shown.length, 1);
    if (lines.length > lastShown) {
      output += `\n\n(File has more lines. Use 'offset' parameter to read beyond line ${lastShown})`;
    }
    output += '\n</file>\n';
    recordFileRead(ctx, filePath, text);
    lspFileViewed(ctx, filePath, text);
    return { output, isError: false, metadata: { file_path: filePath, content } };
  },
});

/**
 * Lines as Go's line scanner gives them: split at `\n`, a final newline ends the last line. (CRLF is
 * already `\n` in a decoded document; a lone CR is a character of the line and shown, so that what
 * the model copies from view matches the file.)
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Cuts a line to {@link VIEW_MAX_LINE_CHARS} characters plus `...`, never inside a surrogate pair. */
export function cutLine(line: string, maxChars = VIEW_MAX_LINE_CHARS): string {
  if (line.length <= maxChars) return line;
  let end = maxChars;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return `${line.slice(0, end)}...`;
}

/** `%6d|line`, numbers from `first`; wider numbers are not padded. */
export function numberLines(lines: readonly string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}|${line}`).join('\n');
}

/** "File not found", with up to 3 similar existing paths (`path-suggestions.ts`). */
async function notFoundMessage(filePath: string, projectRoot: string): Promise<string> {
  const suggestions = await similarPaths(filePath, projectRoot);
  if (suggestions.length === 0) return `File not found: ${filePath}`;
  return `File not found: ${filePath}\n\nDid you mean one of these?\n${suggestions.join('\n')}`;
}
