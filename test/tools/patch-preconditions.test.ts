import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchTool } from '../../src/tools/patch.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

function writeFile(name: string, content: string): string {
  const path = join(ws.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function readFile(name: string, content: string): string {
  const path = writeFile(name, content);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('patch: permission', () => {
  it('asks once per file, in patch order, with the action, description, diff and the file as path', async () => {
    const u = readFile('u.txt', 'a\nb\n');
    const d = readFile('d.txt', 'x\n');
    const m = readFile('m.txt', 'm\n');
    const added = join(ws.dir, 'n.txt');
    const moved = join(ws.dir, 'sub/m2.txt');
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Add File: n.txt',
          '+new',
          '*** Update File: u.txt',
          ' a',
          '-b',
          '+B',
          '*** Delete File: d.txt',
          '*** Update File: m.txt',
          '*** Move to: sub/m2.txt',
          '-m',
          '+M',
        ),
      },
      ws.rec.ctx,
    );
    expect(result.output).toBe('Patch applied successfully. 4 files changed, 3 additions, 3 removals');
    expect(ws.rec.permissions).toEqual([
      {
        action: 'create',
        description: `Create file ${added}`,
        params: { file_path: added, diff: '--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+new\n' },
        path: added,
      },
      {
        action: 'update',
        description: `Update file ${u}`,
        params: { file_path: u, diff: '--- a/u.txt\n+++ b/u.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' },
        path: u,
      },
      {
        action: 'delete',
        description: `Delete file ${d}`,
        params: { file_path: d, diff: '--- a/d.txt\n+++ b/d.txt\n@@ -1,1 +0,0 @@\n-x\n' },
        path: d,
      },
      {
        action: 'update',
        description: `Update file ${m} → ${moved}`,
        params: { file_path: m, diff: '--- a/m.txt\n+++ b/sub/m2.txt\n@@ -1,1 +1,1 @@\n-m\n+M\n' },
        path: m,
      },
    ]);
  });
});

describe('patch: preconditions (as edit)', () => {
  it('refuses to update a file that was not read', async () => {
    const path = writeFile('a.txt', 'a\n');
    const result = await runTool(patchTool, { patch_text: patch('*** Update File: a.txt', '-a', '+b') }, ws.rec.ctx);
    expect(result).toEqual({
      output: `You must read the file ${path} before patching it. Use the view tool first.`,
      isError: true,
    });
    expect(readFileSync(path, 'utf8')).toBe('a\n');
  });

  it('refuses to delete a file that was not read', async () => {
    const path = writeFile('a.txt', 'a\n');
    const result = await runTool(patchTool, { patch_text: patch('*** Delete File: a.txt') }, ws.rec.ctx);
    expect(result.output).toBe(`You must read the file ${path} before deleting it. Use the view tool first.`);
    expect(existsSync(path)).toBe(true);
  });

  it('refuses a file modified since it was read (mtime and size), and writes no other file', async () => {
    const other = readFile('other.txt', 'o\n');
    const path = readFile('a.txt', 'a\n');
    utimesSync(path, new Date('2024-01-02T03:04:05Z'), new Date('2024-01-02T03:04:05Z'));
    ws.rec.ctx.fileTimes.record(path);
    writeFileSync(path, 'a\nappended by someone\n');
    utimesSync(path, new Date('2024-01-02T03:04:09Z'), new Date('2024-01-02T03:04:09Z'));
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: other.txt', '-o', '+O', '*** Update File: a.txt', '-a', '+b') },
      ws.rec.ctx,
    );
    expect(result).toEqual({
      output:
        `File ${path} has been modified since it was last read.\n` +
        'Last modification: 2024-01-02T03:04:09.000Z (22 bytes)\n' +
        'When last read: 2024-01-02T03:04:05.000Z (2 bytes)\n\n' +
        'Read it again with the view tool before patching it.',
      isError: true,
    });
    expect(readFileSync(other, 'utf8')).toBe('o\n');
    expect(ws.rec.permissions).toEqual([]);
  });

  it('refuses to add a file that exists', async () => {
    const path = writeFile('a.txt', 'a\n');
    const result = await runTool(patchTool, { patch_text: patch('*** Add File: a.txt', '+b') }, ws.rec.ctx);
    expect(result).toEqual({ output: `file already exists and cannot be added: ${path}`, isError: true });
  });

  it('refuses to add a file under a path that is a file', async () => {
    const path = writeFile('a.txt', 'a\n');
    const result = await runTool(patchTool, { patch_text: patch('*** Add File: a.txt/b.txt', '+b') }, ws.rec.ctx);
    expect(result).toEqual({
      output: `cannot create ${join(path, 'b.txt')}: ${path} is not a directory`,
      isError: true,
    });
  });

  it('refuses to move onto an existing file', async () => {
    const from = readFile('a.txt', 'a\n');
    const to = writeFile('b.txt', 'b\n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '*** Move to: b.txt') },
      ws.rec.ctx,
    );
    expect(result).toEqual({ output: `cannot move ${from} to ${to}: a file already exists there`, isError: true });
    expect(readFileSync(to, 'utf8')).toBe('b\n');
  });

  it('refuses a missing file and a directory', async () => {
    mkdirSync(join(ws.dir, 'dir'));
    expect((await runTool(patchTool, { patch_text: patch('*** Delete File: nope.txt') }, ws.rec.ctx)).output).toBe(
      `file not found: ${join(ws.dir, 'nope.txt')}`,
    );
    expect((await runTool(patchTool, { patch_text: patch('*** Delete File: dir') }, ws.rec.ctx)).output).toBe(
      `path is a directory, not a file: ${join(ws.dir, 'dir')}`,
    );
  });

  it('refuses the same file twice under two spellings', async () => {
    readFile('a.txt', 'a\n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '-a', '+b', '*** Delete File: ./a.txt') },
      ws.rec.ctx,
    );
    expect(result.output).toBe(
      `failed to parse patch: line 5: ${join(ws.dir, 'a.txt')} is already changed at line 2; put all changes to one file in one section`,
    );
  });

  it('refuses a patch that changes nothing in a file', async () => {
    const path = readFile('a.txt', 'a\n');
    const result = await runTool(patchTool, { patch_text: patch('*** Update File: a.txt', ' a') }, ws.rec.ctx);
    expect(result.output).toBe(`${path}: the patch makes no change to this file. No file was changed.`);
  });

  it('refuses an empty patch', async () => {
    expect((await runTool(patchTool, { patch_text: patch() }, ws.rec.ctx)).output).toBe(
      'the patch changes no file: add an "*** Update File:", "*** Add File:" or "*** Delete File:" section',
    );
    expect((await runTool(patchTool, { patch_text: '  ' }, ws.rec.ctx)).output).toBe('patch_text is required');
  });

  it('reports a parse error with its line', async () => {
    const result = await runTool(patchTool, { patch_text: patch('*** Frobnicate File: a.txt') }, ws.rec.ctx);
    expect(result.output).toBe(
      'failed to parse patch: line 2: unknown line: "*** Frobnicate File: a.txt". Expected "*** Update File:", "*** Add File:", "*** Delete File:" or "*** End Patch"',
    );
  });
});

describe('patch: fuzz', () => {
  it('accepts up to 3 hunks that match with trailing whitespace ignored', async () => {
    const path = readFile('a.txt', 'a \nb \nc \n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '@@', '-a', '+A', '@@', '-b', '+B', '@@', '-c', '+C') },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('A\nB\nC\n');
  });

  it('refuses a total fuzz above 3, naming each loose hunk, and writes nothing', async () => {
    const a = readFile('a.txt', 'a \nb \n');
    const b = readFile('b.txt', '    indented\n');
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: a.txt',
          '@@',
          '-a',
          '+A',
          '@@',
          '-b',
          '+B',
          '*** Update File: b.txt',
          '-indented',
          '+x',
        ),
      },
      ws.rec.ctx,
    );
    expect(result).toEqual({
      output:
        'patch contains fuzzy matches (fuzz level: 102, at most 3 allowed):\n' +
        `- ${a}: hunk 1 (patch line 3) matched at line 1 only with trailing whitespace ignored (fuzz 1)\n` +
        `- ${a}: hunk 2 (patch line 6) matched at line 2 only with trailing whitespace ignored (fuzz 1)\n` +
        `- ${b}: hunk 1 (patch line 10) matched at line 1 only with indentation and trailing whitespace ignored (fuzz 100)\n\n` +
        'No file was changed. Copy the context lines exactly from the file, with their whitespace, and send the whole patch again.',
      isError: true,
    });
    expect(readFileSync(a, 'utf8')).toBe('a \nb \n');
    expect(readFileSync(b, 'utf8')).toBe('    indented\n');
    expect(ws.rec.permissions).toEqual([]);
  });
});
