import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeTool } from '../../src/tools/write.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

describe('write: new files', () => {
  it('creates the file and its parent directories, asking first', async () => {
    const path = join(ws.dir, 'src/deep/new.txt');
    const result = await runTool(writeTool, { file_path: path, content: 'hello\n' }, ws.rec.ctx);

    expect(result).toEqual({
      output: `<result>\nFile successfully written: ${path}\n</result>`,
      isError: false,
      metadata: {
        diff: '--- a/src/deep/new.txt\n+++ b/src/deep/new.txt\n@@ -0,0 +1,1 @@\n+hello\n',
        additions: 1,
        removals: 0,
      },
    });
    expect(readFileSync(path, 'utf8')).toBe('hello\n');
    expect(ws.rec.permissions).toEqual([
      {
        action: 'write',
        description: `Create file ${path}`,
        params: { file_path: path, diff: '--- a/src/deep/new.txt\n+++ b/src/deep/new.txt\n@@ -0,0 +1,1 @@\n+hello\n' },
        path,
      },
    ]);
    expect(ws.rec.history).toEqual([{ sessionId: 'session-1', path, before: null, after: 'hello\n' }]);
  });

  it('resolves a relative path against the project directory', async () => {
    const result = await runTool(writeTool, { file_path: 'a.txt', content: 'x' }, ws.rec.ctx);
    expect(result.output).toBe(`<result>\nFile successfully written: ${join(ws.dir, 'a.txt')}\n</result>`);
    expect(readFileSync(join(ws.dir, 'a.txt'), 'utf8')).toBe('x');
  });

  it('creates an empty file (the original refused empty content)', async () => {
    const path = join(ws.dir, 'pkg/__init__.py');
    const result = await runTool(writeTool, { file_path: path, content: '' }, ws.rec.ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('counts the new file as read: a second write right after needs no view', async () => {
    const path = join(ws.dir, 'a.txt');
    await runTool(writeTool, { file_path: path, content: 'one' }, ws.rec.ctx);
    const second = await runTool(writeTool, { file_path: path, content: 'two, longer' }, ws.rec.ctx);
    expect(second.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('two, longer');
  });

  it('refuses a directory', async () => {
    mkdirSync(join(ws.dir, 'dir'));
    const result = await runTool(writeTool, { file_path: 'dir', content: 'x' }, ws.rec.ctx);
    expect(result).toEqual({ output: `Path is a directory, not a file: ${join(ws.dir, 'dir')}`, isError: true });
  });
});

describe('write: existing files', () => {
  let path: string;
  beforeEach(() => {
    path = join(ws.dir, 'a.txt');
    writeFileSync(path, 'old\n');
  });

  it('requires the file to have been read', async () => {
    const result = await runTool(writeTool, { file_path: path, content: 'new\n' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `You must read the file ${path} before overwriting it. Use the view tool first.`,
      isError: true,
    });
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(ws.rec.permissions).toEqual([]);
  });

  it('overwrites a file that was read, asking with "Write file" and the diff', async () => {
    ws.rec.ctx.fileTimes.record(path);
    const result = await runTool(writeTool, { file_path: path, content: 'new\n' }, ws.rec.ctx);
    const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n';
    expect(result).toEqual({
      output: `<result>\nFile successfully written: ${path}\n</result>`,
      isError: false,
      metadata: { diff, additions: 1, removals: 1 },
    });
    expect(ws.rec.permissions.map((p) => p.description)).toEqual([`Write file ${path}`]);
    expect(ws.rec.history).toEqual([{ sessionId: 'session-1', path, before: 'old\n', after: 'new\n' }]);
  });

  it('refuses identical content', async () => {
    ws.rec.ctx.fileTimes.record(path);
    const result = await runTool(writeTool, { file_path: path, content: 'old\n' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `File ${path} already contains the exact content. No changes made.`,
      isError: true,
    });
  });

  it('refuses a file changed since it was read, even within the same mtime', async () => {
    const mtime = new Date('2025-01-02T03:04:05.000Z');
    utimesSync(path, mtime, mtime);
    ws.rec.ctx.fileTimes.record(path);
    writeFileSync(path, 'changed by a person\n');
    utimesSync(path, mtime, mtime);
    const result = await runTool(writeTool, { file_path: path, content: 'new\n' }, ws.rec.ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      `File ${path} has been modified since it was last read.\n` +
        `Last modification: ${mtime.toISOString()} (20 bytes)\n` +
        `When last read: ${mtime.toISOString()} (4 bytes)\n\n` +
        'Read it again with the view tool before overwriting it.',
    );
    expect(readFileSync(path, 'utf8')).toBe('changed by a person\n');
  });

  it('keeps the mode of an executable file', async () => {
    chmodSync(path, 0o755);
    ws.rec.ctx.fileTimes.record(path);
    await runTool(writeTool, { file_path: path, content: '#!/bin/sh\necho hi\n' }, ws.rec.ctx);
    expect(statSync(path).mode & 0o777).toBe(0o755);
  });

  it('reports a denial and leaves the file alone', async () => {
    ws.rec.ctx.fileTimes.record(path);
    ws.rec.answer = 'deny';
    const result = await runTool(writeTool, { file_path: path, content: 'new\n' }, ws.rec.ctx);
    expect(result).toEqual({ output: 'Permission denied', isError: true, permissionDenied: true });
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(ws.rec.history).toEqual([]);
  });

  it('refuses when the file changed while the person was deciding', async () => {
    ws.rec.ctx.fileTimes.record(path);
    ws.rec.ctx.askPermission = async () => {
      writeFileSync(path, 'edited meanwhile\n');
    };
    const result = await runTool(writeTool, { file_path: path, content: 'new\n' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `File ${path} changed while waiting for permission. Read it again with the view tool and redo the change.`,
      isError: true,
    });
    expect(readFileSync(path, 'utf8')).toBe('edited meanwhile\n');
  });
});

describe('write: cancellation', () => {
  it('does not write when the run was cancelled while asking', async () => {
    const path = join(ws.dir, 'late.txt');
    ws.rec.ctx.askPermission = async () => ws.rec.abort.abort();
    const result = await runTool(writeTool, { file_path: path, content: 'x' }, ws.rec.ctx);
    expect(result).toEqual({ output: 'Tool execution canceled by user', isError: true });
    expect(existsSync(path)).toBe(false);
  });
});
