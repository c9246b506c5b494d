/**
 * The `edit` tool (reference §1.2, fixed): replaces exact text in a file, deletes it, or creates a
 * new file. Fixes over the original: the three modes are exclusive (the original fell through from
 * create and delete into replace and reported false failures, crush#1484), `replace_all` exists,
 * "modified since read" compares size too, the write is atomic and keeps the file's mode, and the
 * file is re-checked after the person answered the permission request.
 *
 * The diff is for the permission dialog and the UI (metadata); like the original, the model only gets
 * a one-line confirmation, which keeps every edit cheap in tokens.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext, type ToolResult } from './tool.js';
import { fileDiff } from './diff.js';
import { readTextFile, writeTextFileAtomic } from './file-io.js';
import {
  recordFileWrite,
  requireFreshRead,
  requireUnchangedWhileAsking,
  resolveToolPath,
  statIfExists,
} from './write-guard.js';

const DESCRIPTION = `Changes a file by replacing exact text. Use it for edits to existing files; use write for a new file with a lot of content or a complete rewrite.

Read the file with view first: an edit is refused if the file was not read, or changed on disk since.

- old_string: the exact text to replace, copied from the file with its indentation and line breaks (without view's line numbers). It must occur exactly once: include enough surrounding lines to make it unique, or set replace_all to change every occurrence (e.g. renaming a variable).
- new_string: the replacement. Empty deletes old_string.
- old_string empty: creates a new file containing new_string (fails if the file exists).
- file_path: absolute, or relative to the project directory.

One call changes one place (or every occurrence with replace_all); make several calls for several changes. If old_string is not found, view the file again instead of guessing.`;

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
  const change = fileDiff(ctx.cwd, path, '', content);
  await ctx.askPermission({
    action: 'write',
    description: `Create file ${path}`,
    params: { file_path: path, diff: change.diff },
    path,
  });
  ctx.signal.throwIfAborted();
  requireUnchangedWhileAsking(ctx, path, false);

  await mkdir(dirname(path), { recursive: true });
  await writeTextFileAtomic(path, content);
  recordFileWrite(ctx, path, null, content);
  return { output: `<result>\nFile created: ${path}\n</result>\n`, isError: false, metadata: { ...change } };
}

/** Replace mode, or delete mode when `new_string` is empty. */
async function changeFile(path: string, input: EditInput, ctx: ToolContext): Promise<ToolResult> {
  const { old_string: oldString, new_string: newString } = input;
  const deleting = newString === '';
  const stats = statIfExists(path);
  if (!stats) throw new ToolError(`file not found: ${path}`);
  if (stats.isDirectory()) throw new ToolError(`path is a directory, not a file: ${path}`);
  requireFreshRead(ctx, path, 'editing');

  const before = await readTextFile(path);
  const count = countOccurrences(before, oldString);
  if (count === 0) {
    throw new ToolError(
      'old_string not found in file. Make sure it matches exactly, including whitespace, indentation and line breaks, and leave out the line numbers view shows.',
    );
  }
  if (count > 1 && !input.replace_all) {
    throw new ToolError(
      `old_string appears ${count} times in the file. Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
    );
  }
  // split/join rather than String.replace, which would interpret `$&`, `$1`… in new_string
  const after = input.replace_all
    ? before.split(oldString).join(newString)
    : replaceFirst(before, oldString, newString);
  if (after === before) throw new ToolError('new content is the same as old content. No changes made.');

  const change = fileDiff(ctx.cwd, path, before, after);
  await ctx.askPermission({
    action: 'write',
    description: `${deleting ? 'Delete content from' : 'Replace content in'} file ${path}`,
    params: { file_path: path, diff: change.diff },
    path,
  });
  ctx.signal.throwIfAborted();
  requireUnchangedWhileAsking(ctx, path, true);

  await writeTextFileAtomic(path, after);
  recordFileWrite(ctx, path, before, after);

  const what = deleting ? 'Content deleted from file' : 'Content replaced in file';
  const times = count > 1 ? ` (${count} occurrences)` : '';
  return { output: `<result>\n${what}: ${path}${times}\n</result>\n`, isError: false, metadata: { ...change } };
}

/** Non-overlapping occurrences of `needle` (not empty) in `text`. */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}

function replaceFirst(text: string, needle: string, replacement: string): string {
  const i = text.indexOf(needle);
  return text.slice(0, i) + replacement + text.slice(i + needle.length);
}
