/**
 * The `edit` tool (the original's, fixed): replaces text in a file, deletes it, or creates a new
 * file. Fixes over the original: the three modes are exclusive (the original fell through from
 * create and delete into replace and reported false failures, crush#1484), `replace_all` exists,
 * "modified since read" compares size too, and the file is re-checked after the person answered the
 * permission request.
 *
 * Files are never damaged: the file is read and written through `text-document.ts`, so
 * its line endings (also mixed), byte order mark, encoding and mode stay as they were and the write is
 * atomic; `old_string` written with `\n` matches a CRLF file; when it does not match exactly, a
 * single match that differs only in tabs/spaces or typographic quotes is used (`fuzzy-match.ts`).
 *
 * With an editor holding the files (`file-access.ts`, `opencode acp`), old_string is matched in the
 * editor's text (its unsaved changes included) and the new text goes to the editor.
 *
 * The diff is for the permission dialog and the UI (metadata). Unlike the original, the model also
 * gets the changed lines with a little context (at most {@link SNIPPET_MAX_LINES}), so it can check
 * its work without another view.
 */
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolResult } from './tool.js';
import { ensureParentDirectory, missingParentDirectories, requireRegularFile } from './file-io.js';
import { changedLineRanges, fileDiff } from './diff.js';
import { replaceText, type Normalisation } from './fuzzy-match.js';
import { encodeDocument, lineSourcesOfSpans, normalizeLineEndings, textAsRead } from './text-document.js';
import { cutLine, numberLines, splitLines } from './view.js';
import { lspDiagnosticsAfterWrite } from './diagnostics.js';
import {
  commitFileWrite,
  readFileToChange,
  recordFileWrite,
  requireUnchangedWhileAsking,
  resolveToolPath,
  statIfExists,
} from './write-guard.js';

const DESCRIPTION = `Changes a file by replacing exact text. Use it for edits to existing files; use write for a new file with a lot of content or a complete rewrite.

Read the file with view first: an edit is refused if the file was not read, or changed on disk since.

- old_string: the exact text to replace, copied from view's output with its indentation (tabs included) and line breaks, without the line numbers. It must occur exactly once: include enough surrounding lines to make it unique, or set replace_all to change every occurrence (e.g. renaming a variable).
- new_string: the replacement. Empty deletes old_string.
- old_string empty: creates a new file containing new_string (fails if the file exists).
- file_path: absolute, or relative to the project directory.

The file keeps its line endings, encoding and byte order mark. If old_string differs only in tabs vs spaces or curly vs straight quotes, a single such match is used and the result says so. The result shows the changed lines: check them. If old_string is not found, view the file again instead of guessing.`;

/** Lines of context around a change in the result. */
const SNIPPET_CONTEXT_LINES = 3;
/** At most this many numbered lines in the result, however large the change. */
const SNIPPET_MAX_LINES = 40;
/** Longer lines are cut in the result (view cuts at 2000): a minified file must not flood it. */
const SNIPPET_MAX_LINE_CHARS = 300;

const parameters = z.object({
  file_path: z.string().describe('Path of the file (absolute, or relative to the project directory)'),
  old_string: z.string().describe('The exact text to replace; empty to create a new file'),
  new_string: z.string().describe('The text to put in its place; empty to delete old_string'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false)'),
});

type EditInput = z.infer<typeof parameters>;

export const editTool = defineTool({
  name: 'edit',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // asks with what it touches before it changes anything
  async run(input, ctx) {
    if (input.file_path.trim() === '') throw new ToolError('file_path is required');
    const path = resolveToolPath(ctx, input.file_path);
    if (input.old_string === '') return createFile(path, input.new_string, ctx);
    return changeFile(path, input, ctx);
  },
});

async function createFile(path: string, content: string, ctx: ToolContext): Promise<ToolResult> {
  const stats = statIfExists(path);
  if (stats?.isDirectory()) throw new ToolError(`path is a directory, not a file: ${path}`);
  if (stats) {
    throw new ToolError(
      `file already exists: ${path}. To change it, read it with view and set old_string to the text to replace; to replace all of it, use write.`,
    );
  }
  missingParentDirectories(path); // refuse /proc/… or a file as a folder before asking
  const bytes = encodeDocument(undefined, content);
  const change = fileDiff(ctx.cwd, path, '', textAsRead(content));
  await ctx.askPermission(
    {
      action: 'write',
      description: `Create file ${path}`,
      params: { file_path: path, diff: change.diff },
      path,
    },
    { kind: 'files', paths: [path], created: [path] },
  );
  ctx.signal.throwIfAborted();
  await requireUnchangedWhileAsking(ctx, path, false);

  ensureParentDirectory(path);
  await commitFileWrite(ctx, path, bytes);
  recordFileWrite(ctx, path, null, textAsRead(content));
  const diagnostics = await lspDiagnosticsAfterWrite(ctx, [{ path, text: textAsRead(content) }]);
  return {
    output: `<result>\nFile created: ${path}\n</result>\n${diagnostics}`,
    isError: false,
    metadata: { ...change },
  };
}

/** Replace mode, or delete mode when `new_string` is empty. */
async function changeFile(path: string, input: EditInput, ctx: ToolContext): Promise<ToolResult> {
  const stats = statIfExists(path);
  if (!stats) throw new ToolError(`file not found: ${path}`);
  if (stats.isDirectory()) throw new ToolError(`path is a directory, not a file: ${path}`);
  requireRegularFile(path, stats);
  // the disk's text, or the editor's (unsaved changes included) when an editor holds the files
  const document = await readFileToChange(ctx, path, 'editing');
  const before = document.text;
  // the document's lines end in \n whatever the file uses; so must what the model sends
  const oldString = normalizeLineEndings(input.old_string);
  const newString = normalizeLineEndings(input.new_string);
  const deleting = newString === '';
  const outcome = replaceText(before, oldString, newString, input.replace_all ?? false);
  if (outcome.status === 'not-found') {
    throw new ToolError(
      'old_string not found in file. Make sure it matches exactly, including whitespace, indentation and line breaks, and leave out the line numbers view shows.',
    );
  }
  if (outcome.status === 'ambiguous') {
    const how = outcome.normalised.length ? ` when ${describeNormalisation(outcome.normalised)}` : '';
    throw new ToolError(
      `old_string appears ${outcome.lines.length} times in the file${how} (${listLines(outcome.lines)}). ` +
        'Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
    );
  }
  const after = outcome.text;
  if (after === before) throw new ToolError('new content is the same as old content. No changes made.');
  // before asking: a character the file's encoding lacks is refused without bothering the person
  // the ending of each line break is decided by where the replacement was, not by a line diff
  const bytes = encodeDocument(document, after, lineSourcesOfSpans(before, outcome.spans));

  const change = fileDiff(ctx.cwd, path, before, after);
  await ctx.askPermission(
    {
      action: 'write',
      description: `${deleting ? 'Delete content from' : 'Replace content in'} file ${path}`,
      params: { file_path: path, diff: change.diff },
      path,
    },
    { kind: 'files', paths: [path] },
  );
  ctx.signal.throwIfAborted();
  await requireUnchangedWhileAsking(ctx, path, true);

  await commitFileWrite(ctx, path, bytes, document.format.encoding);
  recordFileWrite(ctx, path, before, after, document);

  const what = deleting ? 'Content deleted from file' : 'Content replaced in file';
  const times = outcome.count > 1 ? ` (${outcome.count} occurrences)` : '';
  let output = `<result>\n${what}: ${path}${times}\n`;
  if (outcome.normalised.length) {
    output +=
      `old_string did not match exactly; it matched at ${listLines(outcome.lines)} after ${describeNormalisation(outcome.normalised)}. ` +
      "The file's own indentation and characters were kept where you did not change them; check the result below.\n";
  }
  output += '</result>\n';
  const snippet = changeSnippet(before, after);
  if (snippet) output += `<snippet>\n${snippet}\n</snippet>\n`;
  output += await lspDiagnosticsAfterWrite(ctx, [{ path, text: after }]);
  return { output, isError: false, metadata: { ...change } };
}

/** The lines around each change, numbered as view numbers them; at most {@link SNIPPET_MAX_LINES}. */
function changeSnippet(before: string, after: string): string {
  const lines = splitLines(after);
  const out: string[] = [];
  let shown = 0;
  for (const { first, last } of changedLineRanges(before, after, SNIPPET_CONTEXT_LINES)) {
    if (shown === SNIPPET_MAX_LINES) {
      out.push('... (more changes; view the file to see them)');
      break;
    }
    if (out.length) out.push('...');
    const end = Math.min(last, first + SNIPPET_MAX_LINES - shown - 1);
    out.push(
      numberLines(
        lines.slice(first - 1, end).map((line) => cutLine(line, SNIPPET_MAX_LINE_CHARS)),
        first,
      ),
    );
    shown += end - first + 1;
    if (end < last) {
      out.push('... (more changes; view the file to see them)');
      break;
    }
  }
  return out.join('\n');
}

function describeNormalisation(used: Normalisation[]): string {
  const parts = used.map((n) =>
    n === 'indentation'
      ? 'treating tabs and spaces in indentation as equal'
      : 'treating typographic quotes and dashes as ASCII',
  );
  return parts.join(' and ');
}

/** `line 7` or `lines 3, 9, 12` (at most 10 listed). */
function listLines(lines: number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const listed = lines.slice(0, 10).join(', ');
  return `lines ${listed}${lines.length > 10 ? ', …' : ''}`;
}
