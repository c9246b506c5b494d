import {
  chmodSync,
  readFileSync,
  statSync,
  symlinkSync,
  lstatSync,
  utimesSync,
  writeFileSync,
  readdirSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { recordingContext, runTool, tempDir, type RecordingContext } from '../support/recording-context.js';

let tmp: ReturnType<typeof tempDir>;
let rec: RecordingContext;
let path: string;
beforeEach(() => {
  tmp = tempDir();
  rec = recordingContext({ cwd: tmp.dir });
  path = join(tmp.dir, 'app.ts');
  writeFileSync(path, 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
});
afterEach(() => {
  rec.close();
  tmp.remove();
});

describe('edit: replace', () => {
  it('replaces the one occurrence, asks with the diff, records history', async () => {
    rec.ctx.fileTimes.record(path);
    const result = await runTool(
      editTool,
      { file_path: 'app.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' },
      rec.ctx,
    );
    const diff =
      '--- a/app.ts\n+++ b/app.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;\n';
    expect(result).toEqual({
      output:
        `<result>\nContent replaced in file: ${path}\n</result>\n` +
        '<snippet>\n     1|const a = 1;\n     2|const b = 20;\n     3|const c = 3;\n</snippet>\n',
      isError: false,
      metadata: { diff, additions: 1, removals: 1 },
    });
    expect(readFileSync(path, 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(rec.permissions).toEqual([
      { action: 'write', description: `Replace content in file ${path}`, params: { file_path: path, diff }, path },
    ]);
    expect(rec.history).toEqual([
      {
        sessionId: 'session-1',
        path,
        before: 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
        after: 'const a = 1;\nconst b = 20;\nconst c = 3;\n',
      },
    ]);
  });

  it('takes new_string literally ($& and $1 are not replacement patterns)', async () => {
    rec.ctx.fileTimes.record(path);
    await runTool(editTool, { file_path: path, old_string: '= 1', new_string: '= "$&$1$$"' }, rec.ctx);
    expect(readFileSync(path, 'utf8')).toBe('const a = "$&$1$$";\nconst b = 2;\nconst c = 3;\n');
  });

  it('refuses a file that was not read', async () => {
    const result = await runTool(editTool, { file_path: path, old_string: 'a', new_string: 'x' }, rec.ctx);
    expect(result).toEqual({
      output: `You must read the file ${path} before editing it. Use the view tool first.`,
      isError: true,
    });
  });

  it('refuses a file whose size changed since it was read, within the same mtime', async () => {
    const mtime = new Date('2025-01-02T03:04:05.000Z');
    utimesSync(path, mtime, mtime);
    rec.ctx.fileTimes.record(path);
    writeFileSync(path, 'const a = 1;\nconst b = 2;\nconst c = 3;\n// note\n');
    utimesSync(path, mtime, mtime);
    const result = await runTool(editTool, { file_path: path, old_string: 'const b = 2;', new_string: 'x' }, rec.ctx);
    expect(result).toEqual({
      output:
        `File ${path} has been modified since it was last read.\n` +
        `Last modification: ${mtime.toISOString()} (47 bytes)\n` +
        `When last read: ${mtime.toISOString()} (39 bytes)\n\n` +
        'Read it again with the view tool before editing it.',
      isError: true,
    });
  });

  it('counts its own write as read: two edits in a row work', async () => {
    rec.ctx.fileTimes.record(path);
    const first = await runTool(
      editTool,
      { file_path: path, old_string: 'const a = 1;', new_string: 'const a = 10;' },
      rec.ctx,
    );
    const second = await runTool(
      editTool,
      { file_path: path, old_string: 'const c = 3;', new_string: 'const c = 30;' },
      rec.ctx,
    );
    expect([first.isError, second.isError]).toEqual([false, false]);
    expect(readFileSync(path, 'utf8')).toBe('const a = 10;\nconst b = 2;\nconst c = 30;\n');
  });

  it('refuses an edit that changes nothing', async () => {
    rec.ctx.fileTimes.record(path);
    const result = await runTool(
      editTool,
      { file_path: path, old_string: 'const b = 2;', new_string: 'const b = 2;' },
      rec.ctx,
    );
    expect(result).toEqual({ output: 'new content is the same as old content. No changes made.', isError: true });
    expect(rec.permissions).toEqual([]);
  });

  it('refuses a missing file', async () => {
    const result = await runTool(editTool, { file_path: 'nope.ts', old_string: 'a', new_string: 'b' }, rec.ctx);
    expect(result).toEqual({ output: `file not found: ${join(tmp.dir, 'nope.ts')}`, isError: true });
  });

  it('reports a denial as permissionDenied and leaves the file unchanged', async () => {
    rec.ctx.fileTimes.record(path);
    rec.answer = 'deny';
    const result = await runTool(editTool, { file_path: path, old_string: 'const b = 2;', new_string: 'x' }, rec.ctx);
    expect(result).toEqual({ output: 'Permission denied', isError: true, permissionDenied: true });
    expect(readFileSync(path, 'utf8')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
    expect(rec.history).toEqual([]);
  });
});

describe('edit: atomic write', () => {
  it('keeps the mode of an executable file and leaves no temporary file', async () => {
    const script = join(tmp.dir, 'run.sh');
    writeFileSync(script, '#!/bin/sh\necho one\n');
    chmodSync(script, 0o750);
    rec.ctx.fileTimes.record(script);
    const result = await runTool(editTool, { file_path: script, old_string: 'one', new_string: 'two' }, rec.ctx);
    expect(result.isError).toBe(false);
    expect(statSync(script).mode & 0o777).toBe(0o750);
    expect(readdirSync(tmp.dir).sort()).toEqual(['app.ts', 'run.sh']);
  });

  it('edits the target of a symbolic link and keeps the link', async () => {
    const link = join(tmp.dir, 'link.ts');
    symlinkSync(path, link);
    rec.ctx.fileTimes.record(link);
    await runTool(editTool, { file_path: link, old_string: 'const a = 1;', new_string: 'const a = 5;' }, rec.ctx);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('const a = 5;\nconst b = 2;\nconst c = 3;\n');
  });
});
