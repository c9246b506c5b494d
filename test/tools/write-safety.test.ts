/**
 * Writes never damage a file: temp file + rename
 * keeping the mode, symbolic links followed, reads checked by mtime and size (never access time),
 * and `write` through the same text policy as edit. Real files, real `touch` and `sh`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

function view(path: string) {
  return runTool(viewTool, { file_path: path }, ws.rec.ctx);
}

describe('write safety: mode and symbolic links', () => {
  it('keeps mode 755 through edit and write, leaving no temporary file', async () => {
    const path = join(ws.dir, 'deploy.sh');
    writeFileSync(path, '#!/bin/sh\necho one\n');
    chmodSync(path, 0o755);
    await view(path);
    expect(
      (await runTool(editTool, { file_path: path, old_string: 'one', new_string: 'two' }, ws.rec.ctx)).isError,
    ).toBe(false);
    expect(statSync(path).mode & 0o7777).toBe(0o755);
    expect(
      (await runTool(writeTool, { file_path: path, content: '#!/bin/sh\necho three\n' }, ws.rec.ctx)).isError,
    ).toBe(false);
    expect(statSync(path).mode & 0o7777).toBe(0o755);
    expect(execFileSync(path, { encoding: 'utf8' })).toBe('three\n');
    expect(readdirSync(ws.dir)).toEqual(['deploy.sh']);
  });

  it('changes the target of a symbolic link; the link stays a link', async () => {
    const target = join(ws.dir, 'config.real.json');
    const link = join(ws.dir, 'config.json');
    writeFileSync(target, '{ "debug": false }\n');
    symlinkSync('config.real.json', link);
    await view(link);
    await runTool(editTool, { file_path: link, old_string: 'false', new_string: 'true' }, ws.rec.ctx);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{ "debug": true }\n');
    await runTool(writeTool, { file_path: link, content: '{}\n' }, ws.rec.ctx);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{}\n');
  });
});

describe('stale reads', () => {
  it('leaves a file editable after `touch -a` (access time is not a change)', async () => {
    const path = join(ws.dir, 'a.txt');
    writeFileSync(path, 'x = 1\n');
    await view(path);
    execFileSync('touch', ['-a', '-d', '2030-01-01T00:00:00', path]);
    const result = await runTool(editTool, { file_path: path, old_string: 'x = 1', new_string: 'x = 2' }, ws.rec.ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('x = 2\n');
  });

  it('refuses a file another process appended to since the read, writing nothing', async () => {
    const path = join(ws.dir, 'log.txt');
    writeFileSync(path, 'line 1\n');
    await view(path);
    execFileSync('sh', ['-c', 'printf "line 2\\n" >> "$1"', 'sh', path]);
    const result = await runTool(editTool, { file_path: path, old_string: 'line 1', new_string: 'first' }, ws.rec.ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(new RegExp(`^File ${path} has been modified since it was last read\\.\\n`));
    expect(result.output).toContain('(14 bytes)\nWhen last read: ');
    expect(result.output).toMatch(/\(7 bytes\)\n\nRead it again with the view tool before editing it\.$/);
    expect(readFileSync(path, 'utf8')).toBe('line 1\nline 2\n');
    expect(ws.rec.permissions).toEqual([]);
  });

  it("counts the tool's own writes as read: write, then edit, with no view between", async () => {
    const path = join(ws.dir, 'n.txt');
    await runTool(writeTool, { file_path: path, content: 'a\n' }, ws.rec.ctx);
    const result = await runTool(editTool, { file_path: path, old_string: 'a', new_string: 'b' }, ws.rec.ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('b\n');
  });
});

describe('write: the same text policy as edit', () => {
  it('writes a new file exactly as given, CRLF included', async () => {
    const path = join(ws.dir, 'new.bat');
    await runTool(writeTool, { file_path: path, content: '@echo off\r\necho hi\r\n' }, ws.rec.ctx);
    expect(readFileSync(path, 'latin1')).toBe('@echo off\r\necho hi\r\n');
    expect(ws.rec.history).toEqual([{ sessionId: 'session-1', path, before: null, after: '@echo off\necho hi\n' }]);
  });

  it("overwrites a CRLF file with the content given, in the file's CRLF and BOM, and says so", async () => {
    const path = join(ws.dir, 'App.config');
    writeFileSync(path, '\uFEFF<configuration>\r\n</configuration>\r\n');
    await view(path);
    const result = await runTool(
      writeTool,
      { file_path: path, content: '<configuration>\n  <debug/>\n</configuration>\n' },
      ws.rec.ctx,
    );
    expect(result.output).toBe(
      `<result>\nFile successfully written: ${path}\nKept the file's CRLF line endings, byte order mark.\n</result>`,
    );
    expect(readFileSync(path, 'latin1')).toBe(
      Buffer.from('\uFEFF<configuration>\r\n  <debug/>\r\n</configuration>\r\n').toString('latin1'),
    );
    expect(ws.rec.history).toEqual([
      {
        sessionId: 'session-1',
        path,
        before: '<configuration>\n</configuration>\n',
        after: '<configuration>\n  <debug/>\n</configuration>\n',
      },
    ]);
  });

  it('refuses identical content whatever its line endings', async () => {
    const path = join(ws.dir, 'w.txt');
    writeFileSync(path, 'a\r\nb\r\n');
    await view(path);
    const result = await runTool(writeTool, { file_path: path, content: 'a\nb\n' }, ws.rec.ctx);
    expect(result).toEqual({
      output: `File ${path} already contains the exact content. No changes made.`,
      isError: true,
    });
  });

  it('keeps the encoding of an ISO-8859-1 file, and refuses what it cannot hold', async () => {
    const path = join(ws.dir, 'legacy.txt');
    writeFileSync(path, iconv.encode('Grüße aus Köln, voilà une phrase assez longue en français\n', 'latin1'));
    await view(path);
    const ok = await runTool(writeTool, { file_path: path, content: 'Grüße aus Bonn\n' }, ws.rec.ctx);
    expect(ok.output).toContain("Kept the file's encoding ISO-8859-1.");
    expect(readFileSync(path)).toEqual(iconv.encode('Grüße aus Bonn\n', 'latin1'));
    const refused = await runTool(writeTool, { file_path: path, content: 'Grüße aus Bonn €\n' }, ws.rec.ctx);
    expect(refused.isError).toBe(true);
    expect(refused.output).toContain('which has no "€" (U+20AC, line 1). Nothing was written.');
    expect(readFileSync(path)).toEqual(iconv.encode('Grüße aus Bonn\n', 'latin1'));
  });
});
