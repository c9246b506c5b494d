/**
 * view through the shared text policy: no BOM character, CRLF shown as plain lines, the
 * encoding named when it is not UTF-8, tabs shown verbatim so edit accepts them back.
 */
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

async function viewOf(files: Record<string, string | Buffer>, name: string) {
  const dir = tempDir();
  writeTree(dir, files);
  return runTool(viewTool, { file_path: join(dir, name) }, toolContext(dir));
}

describe('view: encodings', () => {
  it('shows a UTF-8 file with a BOM without the BOM character, and names no encoding', async () => {
    const r = await viewOf({ 'a.txt': '\uFEFFfirst\r\nsecond\r\n' }, 'a.txt');
    expect(r.output).toBe('<file>\n     1|first\n     2|second\n</file>\n');
    expect(r.metadata?.content).toBe('first\nsecond');
  });

  it('names ISO-8859-1 before the numbered lines', async () => {
    const r = await viewOf(
      { 'conf.ini': iconv.encode('# Configuración del café\nnombre = "José Núñez"\n', 'latin1') },
      'conf.ini',
    );
    expect(r.output).toBe(
      '<file>\n(file encoding: ISO-8859-1)\n     1|# Configuración del café\n     2|nombre = "José Núñez"\n</file>\n',
    );
  });

  it('names GBK', async () => {
    const r = await viewOf(
      { 'db.conf': iconv.encode('// 配置文件：数据库连接\nhost = "本地主机"\n', 'gbk') },
      'db.conf',
    );
    expect(r.output).toBe(
      '<file>\n(file encoding: GBK)\n     1|// 配置文件：数据库连接\n     2|host = "本地主机"\n</file>\n',
    );
  });

  it('reads UTF-16LE without a BOM instead of calling it binary', async () => {
    const r = await viewOf({ 'u16.txt': Buffer.from('hello\r\nworld\r\n', 'utf16le') }, 'u16.txt');
    expect(r.output).toBe('<file>\n(file encoding: UTF-16LE)\n     1|hello\n     2|world\n</file>\n');
  });
});

describe('view: tabs', () => {
  it('shows tabs as tab characters, distinct from spaces', async () => {
    const r = await viewOf({ 'm.go': 'func f() {\n\treturn\n    // four spaces\n}\n' }, 'm.go');
    expect(r.output).toBe('<file>\n     1|func f() {\n     2|\treturn\n     3|    // four spaces\n     4|}\n</file>\n');
  });
});

describe('descriptions stay short (the prompt budget)', () => {
  it('edit ≤ 1,100, view ≤ 650, write ≤ 550 characters, and say how files are kept', () => {
    expect(editTool.description.length).toBeLessThanOrEqual(1100);
    expect(viewTool.description.length).toBeLessThanOrEqual(650);
    expect(writeTool.description.length).toBeLessThanOrEqual(550);
    expect(viewTool.description).toContain('tabs are real tab characters');
    expect(editTool.description).toContain('keeps its line endings, encoding and byte order mark');
    expect(writeTool.description).toContain('keeps its line endings, encoding and byte order mark');
  });
});
