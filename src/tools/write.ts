/**
 * The `write` tool (reference §1.3, fixed): creates a file or replaces its whole content.
 * Fixes over the original: empty content is allowed (an empty `__init__.py` or `.gitkeep` is a
 * legitimate file; the original refused it), the permission says "Write file" when overwriting (the
 * original always said "Create file"), the diff is a real unified diff, the write is atomic and keeps
 * the file's mode, and the file is re-checked after the person answered the permission request.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { fileDiff } from './diff.js';
import { readTextFile, writeTextFileAtomic } from './file-io.js';
import {
  recordFileWrite,
  requireFreshRead,
  requireUnchangedWhileAsking,
  resolveToolPath,
  statIfExists,
} from './write-guard.js';

const DESCRIPTION = `Writes a whole file: creates it (and missing parent directories) or replaces all of its content.

- Use it for new files and complete rewrites. To change part of an existing file, use edit: it sends only the change.
- An existing file must have been read with view first and not changed since; otherwise the write is refused.
- file_path: absolute, or relative to the project directory.
- content: the complete new content, exactly as it should be on disk (may be empty).
- Don't create documentation or README files unless asked.`;

const parameters = z.object({
  file_path: z.string().describe('Path of the file to write (absolute, or relative to the project directory)'),
  content: z.string().describe('The complete content to write'),
});

export const writeTool = defineTool({
  name: 'write',
  description: DESCRIPTION,
  parameters,
  async run({ file_path, content }, ctx) {
    if (file_path.trim() === '') throw new ToolError('file_path is required');
    const path = resolveToolPath(ctx, file_path);

    let before: string | null = null;
    const stats = statIfExists(path);
    if (stats) {
      if (stats.isDirectory()) throw new ToolError(`Path is a directory, not a file: ${path}`);
      requireFreshRead(ctx, path, 'overwriting');
      before = await readTextFile(path);
      if (before === content) {
        throw new ToolError(`File ${path} already contains the exact content. No changes made.`);
      }
    }

    const { diff, additions, removals } = fileDiff(ctx.cwd, path, before ?? '', content);
    await ctx.askPermission({
      action: 'write',
      description: `${before === null ? 'Create' : 'Write'} file ${path}`,
      params: { file_path: path, diff },
      path,
    });
    ctx.signal.throwIfAborted();
    requireUnchangedWhileAsking(ctx, path, before !== null);

    await mkdir(dirname(path), { recursive: true });
    await writeTextFileAtomic(path, content);
    recordFileWrite(ctx, path, before, content);

    return {
      output: `<result>\nFile successfully written: ${path}\n</result>`,
      isError: false,
      metadata: { diff, additions, removals },
    };
  },
});
