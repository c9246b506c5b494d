/**
 * The `write` tool (the original's, fixed): creates a file or replaces its whole content.
 * Fixes over the original: empty content is allowed (an empty `__init__.py` or `.gitkeep` is a
 * legitimate file; the original refused it), the permission says "Write file" when overwriting (the
 * original always said "Create file"), the diff is a real unified diff, and the file is re-checked
 * after the person answered the permission request.
 *
 * Files are never damaged, through `text-document.ts`: a new file is written as given
 * (UTF-8). An existing file gets the content as given but keeps its format: its encoding and byte
 * order mark, and its line endings (the content's CRLF/LF are normalised; lines equal to a line of
 * the old file keep that line's ending, others get the file's dominant one). The write is atomic and
 * keeps the file's mode; through a symbolic link it changes the target.
 */
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { ensureParentDirectory, missingParentDirectories, requireRegularFile } from './file-io.js';
import { fileDiff } from './diff.js';
import { describeFormat, encodeDocument, textAsRead, type TextDocument } from './text-document.js';
import {
  commitFileWrite,
  readFileToChange,
  recordFileWrite,
  requireUnchangedWhileAsking,
  resolveToolPath,
  statIfExists,
} from './write-guard.js';
import { lspDiagnosticsAfterWrite } from './diagnostics.js';

const DESCRIPTION = `Writes a whole file: creates it (and missing parent directories) or replaces all of its content.

- Use it for new files and complete rewrites. To change part of an existing file, use edit: it sends only the change.
- An existing file must have been read with view first and not changed since; it keeps its line endings, encoding and byte order mark.
- file_path: absolute, or relative to the project directory.
- content: the complete new content (may be empty).
- Don't create documentation or README files unless asked.`;

const parameters = z.object({
  file_path: z.string().describe('Path of the file to write (absolute, or relative to the project directory)'),
  content: z.string().describe('The complete content to write'),
});

export const writeTool = defineTool({
  name: 'write',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // asks with what it touches before it changes anything
  async run({ file_path, content }, ctx) {
    if (file_path.trim() === '') throw new ToolError('file_path is required');
    const path = resolveToolPath(ctx, file_path);

    let previous: TextDocument | undefined;
    const stats = statIfExists(path);
    if (stats) {
      if (stats.isDirectory()) throw new ToolError(`Path is a directory, not a file: ${path}`);
      requireRegularFile(path, stats);
      previous = await readFileToChange(ctx, path, 'overwriting');
    } else {
      missingParentDirectories(path); // refuse /proc/… or a file as a folder before asking
    }
    const before = previous?.text ?? null;
    // the text as it will read back: an existing file's own BOM and line endings are put back by
    // encodeDocument; a new file is written exactly as given
    const after = textAsRead(content);
    if (before === after) throw new ToolError(`File ${path} already contains the exact content. No changes made.`);
    // before asking: a character the file's encoding lacks is refused without bothering the person
    const bytes = encodeDocument(previous, previous ? after : content);

    const { diff, additions, removals } = fileDiff(ctx.cwd, path, before ?? '', after);
    await ctx.askPermission(
      {
        action: 'write',
        description: `${previous ? 'Write' : 'Create'} file ${path}`,
        params: { file_path: path, diff },
        path,
      },
      { kind: 'files', paths: [path], ...(previous ? {} : { created: [path] }) },
    );
    ctx.signal.throwIfAborted();
    await requireUnchangedWhileAsking(ctx, path, previous !== undefined);

    ensureParentDirectory(path);
    await commitFileWrite(ctx, path, bytes, previous?.format.encoding);
    recordFileWrite(ctx, path, before, after, previous);

    const format = previous ? describeFormat(previous.format) : '';
    const kept = format ? `\nKept the file's ${format}.` : '';
    const diagnostics = await lspDiagnosticsAfterWrite(ctx, [{ path, text: after }]);
    return {
      output: `<result>\nFile successfully written: ${path}${kept}\n</result>${diagnostics}`,
      isError: false,
      metadata: { diff, additions, removals },
    };
  },
});
