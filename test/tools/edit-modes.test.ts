import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

describe('edit: create mode (old_string empty)', () => {
  it('creates the file with exactly one success message (the original fell through into replace)', async () => {
    const path = join(ws.dir, 'src/new.ts');
    const result = await runTool(
      editTool,
      { file_path: 'src/new.ts', old_string: '', new_string: 'a\nb\n' },
      ws.rec.ctx,
    );
    const diff = '--- a/src/new.ts\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n';
    expect(result).toEqual({
      output: `<result>\nFile created: ${path}\n</result>\n`,
      isError: false,
      metadata: { diff, additions: 2, removals: 0 },
    });
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
    expect(ws.rec.permissions).toEqual([
      { action: 'write', description: `Create file ${path}`, params: { file_path: path, diff }, path },
    ]);
    expect(ws.rec.history).toEqual([{ sessionId: 'session-1', path, before: null, after: 'a\nb\n' }]);
  });

  it('creates an empty file when new_string is empty too', async () => {
    const result = await runTool(editTool, { file_path: 'empty.txt', old_string: '', new_string: '' }, ws.rec.ctx);
    expect(result.output).toBe(`<result>\nFile created: ${join(ws.dir, 'empty.txt')}\n</result>\n`);
    expect(readFileSync(join(ws.dir, 'empty.txt'), 'utf8')).toBe('');
  });

  it('refuses an existing file', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'x');
    const result = await runTool(editTool, { file_path: 'a.txt', old_string: '', new_string: 'y' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `file already exists: ${join(ws.dir, 'a.txt')}. To change it, read it with view and set old_string to the text to replace; to replace all of it, use write.`,
      isError: true,
    });
    expect(readFileSync(join(ws.dir, 'a.txt'), 'utf8')).toBe('x');
  });

  it('refuses a directory', async () => {
    mkdirSync(join(ws.dir, 'd'));
    const result = await runTool(editTool, { file_path: 'd', old_string: '', new_string: 'y' }, ws.rec.ctx);
    expect(result).toEqual({ output: `path is a directory, not a file: ${join(ws.dir, 'd')}`, isError: true });
  });

  it('creates nothing when denied', async () => {
    ws.rec.answer = 'deny';
    const result = await runTool(editTool, { file_path: 'n.txt', old_string: '', new_string: 'y' }, ws.rec.ctx);
    expect(result.permissionDenied).toBe(true);
    expect(existsSync(join(ws.dir, 'n.txt'))).toBe(false);
  });
});

describe('edit: delete mode (new_string empty)', () => {
  it('removes the text with one success message (the original then reported "not found")', async () => {
    const path = join(ws.dir, 'a.py');
    writeFileSync(path, 'import os\nimport sys\nprint(1)\n');
    ws.rec.ctx.fileTimes.record(path);
    const result = await runTool(editTool, { file_path: path, old_string: 'import sys\n', new_string: '' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `<result>\nContent deleted from file: ${path}\n</result>\n<snippet>\n     1|import os\n     2|print(1)\n</snippet>\n`,
      isError: false,
      metadata: {
        diff: '--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,2 @@\n import os\n-import sys\n print(1)\n',
        additions: 0,
        removals: 1,
      },
    });
    expect(readFileSync(path, 'utf8')).toBe('import os\nprint(1)\n');
    expect(ws.rec.permissions[0]!.description).toBe(`Delete content from file ${path}`);
  });
});

describe('edit: matching', () => {
  let path: string;
  beforeEach(() => {
    path = join(ws.dir, 'm.txt');
    writeFileSync(path, 'foo bar\nfoo baz\nfoo qux\n');
    ws.rec.ctx.fileTimes.record(path);
  });

  it('asks for more context when old_string occurs more than once', async () => {
    const result = await runTool(editTool, { file_path: path, old_string: 'foo', new_string: 'FOO' }, ws.rec.ctx);
    expect(result).toEqual({
      output:
        'old_string appears 3 times in the file (lines 1, 2, 3). Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
      isError: true,
    });
    expect(readFileSync(path, 'utf8')).toBe('foo bar\nfoo baz\nfoo qux\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const result = await runTool(
      editTool,
      { file_path: path, old_string: 'foo', new_string: 'FOO', replace_all: true },
      ws.rec.ctx,
    );
    expect(result.output).toBe(
      `<result>\nContent replaced in file: ${path} (3 occurrences)\n</result>\n<snippet>\n     1|FOO bar\n     2|FOO baz\n     3|FOO qux\n</snippet>\n`,
    );
    expect(readFileSync(path, 'utf8')).toBe('FOO bar\nFOO baz\nFOO qux\n');
    expect(result.metadata).toMatchObject({ additions: 3, removals: 3 });
  });

  it('deletes every occurrence with replace_all and an empty new_string', async () => {
    await runTool(editTool, { file_path: path, old_string: 'foo ', new_string: '', replace_all: true }, ws.rec.ctx);
    expect(readFileSync(path, 'utf8')).toBe('bar\nbaz\nqux\n');
  });

  it('explains a miss with a whitespace hint', async () => {
    const result = await runTool(editTool, { file_path: path, old_string: 'foo  bar', new_string: 'x' }, ws.rec.ctx);
    expect(result).toEqual({
      output:
        'old_string not found in file. Make sure it matches exactly, including whitespace, indentation and line breaks, and leave out the line numbers view shows.',
      isError: true,
    });
  });

  it('requires all three strings, as the original schema did', async () => {
    const result = await runTool(editTool, { file_path: path, old_string: 'foo' }, ws.rec.ctx);
    expect(result).toEqual({
      output: 'Invalid input for edit: new_string is required',
      isError: true,
      outcome: 'validation',
    });
  });
});
