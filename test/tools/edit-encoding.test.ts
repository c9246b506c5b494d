/**
 * edit on files that are not plain UTF-8: each is written back in
 * its own encoding with its byte order mark, so only the intended bytes change, or the edit is refused
 * with a clear error. Never is a U+FFFD written. Exact bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

async function viewThenEdit(name: string, bytes: Buffer, oldString: string, newString: string) {
  const path = join(ws.dir, name);
  writeFileSync(path, bytes);
  const view = await runTool(viewTool, { file_path: path }, ws.rec.ctx);
  const result = await runTool(editTool, { file_path: path, old_string: oldString, new_string: newString }, ws.rec.ctx);
  return { path, view, result, bytes: readFileSync(path) };
}

/** `bytes` with the first occurrence of `from` replaced by `to` (both already encoded). */
function spliceBytes(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const at = bytes.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  return Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)]);
}

describe('edit: byte order mark', () => {
  it('keeps the UTF-8 BOM, which view does not show', async () => {
    const { view, bytes } = await viewThenEdit(
      'a.cs',
      Buffer.from('\uFEFFusing System;\r\nclass A {}\r\n'),
      'class A {}',
      'class B {}',
    );
    expect(view.output).toBe('<file>\n     1|using System;\n     2|class A {}\n</file>\n');
    expect(bytes).toEqual(Buffer.from('\uFEFFusing System;\r\nclass B {}\r\n'));
  });

  it('keeps UTF-16LE with its BOM', async () => {
    const file = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[Setup]\r\nAppName=Demo\r\n', 'utf16le')]);
    const { bytes, result } = await viewThenEdit('setup.iss', file, 'AppName=Demo', 'AppName=Démo 2');
    expect(result.isError).toBe(false);
    expect(bytes).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[Setup]\r\nAppName=Démo 2\r\n', 'utf16le')]),
    );
  });

  it('keeps UTF-16LE without a BOM', async () => {
    const { bytes } = await viewThenEdit('notes.txt', Buffer.from('first\nsecond\n', 'utf16le'), 'second', 'zweite');
    expect(bytes).toEqual(Buffer.from('first\nzweite\n', 'utf16le'));
  });
});

describe('edit: legacy encodings', () => {
  const LATIN1_TEXT = '# Configuración del café\nnombre = "José Núñez"\nciudad = "Zürich"\n';
  const GBK_TEXT = '// 配置文件：数据库连接\nhost = "本地主机"\nport = 5432\n用户 = "管理员"\n';

  it('edits an ISO-8859-1 file byte-exactly, its accents staying single bytes', async () => {
    const file = iconv.encode(LATIN1_TEXT, 'latin1');
    const { bytes, view, path } = await viewThenEdit('conf.ini', file, 'ciudad = "Zürich"', 'ciudad = "Málaga"');
    expect(view.output).toContain('<file>\n(file encoding: ISO-8859-1)\n     1|# Configuración del café\n');
    expect(bytes).toEqual(spliceBytes(file, Buffer.from('Z\xfcrich', 'latin1'), Buffer.from('M\xe1laga', 'latin1')));
    expect(ws.rec.history).toEqual([
      { sessionId: 'session-1', path, before: LATIN1_TEXT, after: LATIN1_TEXT.replace('Zürich', 'Málaga') },
    ]);
  });

  it('edits a GBK file byte-exactly, including new Chinese text', async () => {
    const file = iconv.encode(GBK_TEXT, 'gbk');
    const { bytes, view } = await viewThenEdit('db.conf', file, 'host = "本地主机"', 'host = "远程主机"');
    expect(view.output).toContain('(file encoding: GBK)\n     1|// 配置文件：数据库连接\n');
    expect(bytes).toEqual(spliceBytes(file, iconv.encode('本地', 'gbk'), iconv.encode('远程', 'gbk')));
    expect(bytes.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(false);
  });

  it('refuses a character the file encoding lacks, asking nothing and writing nothing', async () => {
    const file = iconv.encode(LATIN1_TEXT, 'latin1');
    const { bytes, result, path } = await viewThenEdit('conf.ini', file, 'ciudad = "Zürich"', 'ciudad = "北京"');
    expect(result).toEqual({
      output:
        `Cannot write to ${path}: the file is encoded in ISO-8859-1, which has no "北" (U+5317, line 3). Nothing was written. ` +
        "Use only characters ISO-8859-1 has (or an escape sequence of the file's language).",
      isError: true,
    });
    expect(bytes).toEqual(file);
    expect(ws.rec.permissions).toEqual([]);
    expect(ws.rec.history).toEqual([]);
  });
});

describe('edit: UTF-8 beyond ASCII', () => {
  it('edits between CJK text and emoji, leaving them intact', async () => {
    const text = '标题：你好 👋🏽\n状态 = "待办" ✅\n备注：家族 👨‍👩‍👧 の写真\n';
    const { bytes, result } = await viewThenEdit('todo.md', Buffer.from(text), '状态 = "待办" ✅', '状态 = "完成" 🎉');
    expect(result.isError).toBe(false);
    expect(bytes).toEqual(Buffer.from('标题：你好 👋🏽\n状态 = "完成" 🎉\n备注：家族 👨‍👩‍👧 の写真\n'));
  });

  it('refuses a lone surrogate sent by the model instead of writing U+FFFD', async () => {
    const { bytes, result } = await viewThenEdit('a.txt', Buffer.from('x = 1\n'), 'x = 1', 'x = \ud83d');
    expect(result.isError).toBe(true);
    expect(result.output).toContain('lone UTF-16 surrogate (U+D83D, line 1)');
    expect(bytes).toEqual(Buffer.from('x = 1\n'));
  });
});
