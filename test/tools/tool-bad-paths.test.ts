/**
 * Bad paths a tester threw at the file tools: FIFOs and devices (a read that never ends), folders
 * that can't be made (/proc, where Node's recursive mkdir spins forever), symbolic link loops, NUL
 * bytes, and an offset past the end. Each answer is a short message naming the path, at once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { writeFileAtomic } from '../../src/tools/file-io.js';
import { grepTool } from '../../src/tools/grep.js';
import { patchTool } from '../../src/tools/patch.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

function fifo(name: string): string {
  const path = join(ws.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('special files are refused before they are opened', () => {
  it('view refuses a FIFO at once instead of hanging', async () => {
    const path = fifo('pipe');
    expect(await runTool(viewTool, { file_path: path }, ws.rec.ctx)).toEqual({
      output: `${path} is not a regular file (it is a FIFO). Only regular files can be read or changed.`,
      isError: true,
      metadata: undefined,
    });
  });

  it('view refuses /dev/zero instead of reading it forever', async () => {
    expect((await runTool(viewTool, { file_path: '/dev/zero' }, ws.rec.ctx)).output).toBe(
      '/dev/zero is not a regular file (it is a character device). Only regular files can be read or changed.',
    );
  });

  it('write, edit and patch refuse a FIFO as their target', async () => {
    const path = fifo('pipe');
    const expected = `${path} is not a regular file (it is a FIFO). Only regular files can be read or changed.`;
    expect((await runTool(writeTool, { file_path: path, content: 'x' }, ws.rec.ctx)).output).toBe(expected);
    expect((await runTool(editTool, { file_path: path, old_string: 'a', new_string: 'b' }, ws.rec.ctx)).output).toBe(
      expected,
    );
    const patch = `*** Begin Patch\n*** Update File: ${path}\n@@\n-a\n+b\n*** End Patch`;
    expect((await runTool(patchTool, { patch_text: patch }, ws.rec.ctx)).output).toBe(expected);
    expect(ws.rec.permissions).toEqual([]);
  });
});

describe('parent folders that cannot be made', () => {
  it('write and edit to /proc/nope/x.txt answer at once, without asking', async () => {
    const expected = 'cannot write /proc/nope/x.txt: /proc is a system pseudo file system, not a place for files.';
    expect((await runTool(writeTool, { file_path: '/proc/nope/x.txt', content: 'x' }, ws.rec.ctx)).output).toBe(
      expected,
    );
    expect(
      (await runTool(editTool, { file_path: '/proc/nope/x.txt', old_string: '', new_string: 'x' }, ws.rec.ctx)).output,
    ).toBe(expected);
    expect(ws.rec.permissions).toEqual([]);
  });

  it('write to /proc/foo is refused, and the atomic write names the target, not its temporary file', async () => {
    expect((await runTool(writeTool, { file_path: '/proc/foo', content: 'x' }, ws.rec.ctx)).output).toBe(
      'cannot write /proc/foo: /proc is a system pseudo file system, not a place for files.',
    );
    // below the tool's checks: /proc refuses to create the temporary file
    expect(() => writeFileAtomic('/proc/foo', Buffer.from('x'))).toThrow(
      'ENOENT: cannot create /proc/foo (files cannot be created in its folder)',
    );
  });

  it('write creates missing folders level by level', async () => {
    const path = join(ws.dir, 'a', 'b', 'c.txt');
    expect((await runTool(writeTool, { file_path: path, content: 'x\n' }, ws.rec.ctx)).isError).toBe(false);
    expect(readdirSync(join(ws.dir, 'a', 'b'))).toEqual(['c.txt']);
  });

  it('refuses a file in the way of a folder', async () => {
    writeFileSync(join(ws.dir, 'file'), 'x');
    const path = join(ws.dir, 'file', 'sub', 'new.txt');
    expect((await runTool(writeTool, { file_path: path, content: 'x' }, ws.rec.ctx)).output).toBe(
      `cannot create ${path}: ${join(ws.dir, 'file')} is not a directory`,
    );
    expect(existsSync(join(ws.dir, 'file', 'sub'))).toBe(false);
  });
});

describe('errors the model can act on', () => {
  it('a symbolic link loop is named as such', async () => {
    const a = join(ws.dir, 'a');
    symlinkSync(join(ws.dir, 'b'), a);
    symlinkSync(a, join(ws.dir, 'b'));
    expect((await runTool(viewTool, { file_path: a }, ws.rec.ctx)).output).toBe(
      `Too many levels of symbolic links at ${a} (a symbolic link loop)`,
    );
  });

  it('a NUL byte in a path or a pattern is named, not passed to Node', async () => {
    expect((await runTool(viewTool, { file_path: 'a\0b' }, ws.rec.ctx)).output).toBe(
      "file_path contains a NUL byte (\\0): paths, patterns, commands and text files can't hold one. Remove it and try again.",
    );
    expect((await runTool(grepTool, { pattern: 'x\0y' }, ws.rec.ctx)).output).toBe(
      "pattern contains a NUL byte (\\0): paths, patterns, commands and text files can't hold one. Remove it and try again.",
    );
  });

  it('view with an offset past the end says how many lines the file has', async () => {
    const path = join(ws.dir, 'three.txt');
    writeFileSync(path, 'one\ntwo\nthree\n');
    expect((await runTool(viewTool, { file_path: path, offset: 10 }, ws.rec.ctx)).output).toBe(
      `offset 10 is past the end of the file: ${path} has 3 lines (offsets 0 to 2).`,
    );
    writeFileSync(path, '');
    expect((await runTool(viewTool, { file_path: path, offset: 1 }, ws.rec.ctx)).output).toBe(
      `offset 1 is past the end of the file: ${path} is empty.`,
    );
  });
});
