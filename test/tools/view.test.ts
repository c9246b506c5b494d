import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTimes } from '../../src/tools/file-times.js';
import { viewTool } from '../../src/tools/view.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

function setup(files: Record<string, string | Buffer>) {
  const dir = tempDir('bin', 'build', 'project');
  writeTree(dir, files);
  const fileTimes = new FileTimes();
  return { dir, fileTimes, ctx: toolContext(dir, { fileTimes }) };
}

describe('view', () => {
  it('numbers lines as %6d| from 1 and wraps them in <file> tags', async () => {
    const { dir, ctx } = setup({ 'a.ts': 'const a = 1;\n\nexport { a };\n' });
    const r = await runTool(viewTool, { file_path: 'a.ts' }, ctx);
    expect(r).toEqual({
      output: '<file>\n     1|const a = 1;\n     2|\n     3|export { a };\n</file>\n',
      isError: false,
      metadata: { file_path: join(dir, 'a.ts'), content: 'const a = 1;\n\nexport { a };' },
    });
  });

  it('reads from a 0-based offset for limit lines and says how to read on', async () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const { ctx } = setup({ 'ten.txt': text });
    const r = await runTool(viewTool, { file_path: 'ten.txt', offset: 2, limit: 3 }, ctx);
    expect(r.output).toBe(
      "<file>\n     3|line 3\n     4|line 4\n     5|line 5\n\n(File has more lines. Use 'offset' parameter to read beyond line 5)\n</file>\n",
    );
    expect(r.metadata?.content).toBe('line 3\nline 4\nline 5');
  });

  it('does not pad line numbers of six digits or more', async () => {
    const { ctx } = setup({ 'many.txt': 'x\n'.repeat(100_001) });
    const r = await runTool(viewTool, { file_path: 'many.txt', offset: 99_998, limit: 3 }, ctx);
    expect(r.output).toBe('<file>\n 99999|x\n100000|x\n100001|x\n</file>\n');
  });

  it('reads 2000 lines by default', async () => {
    const { ctx } = setup({ 'long.txt': 'y\n'.repeat(2500) });
    const r = await runTool(viewTool, { file_path: 'long.txt' }, ctx);
    expect(r.output.split('\n').filter((l) => l.endsWith('|y'))).toHaveLength(2000);
    expect(r.output).toContain(
      "  2000|y\n\n(File has more lines. Use 'offset' parameter to read beyond line 2000)\n</file>\n",
    );
  });

  it('strips carriage returns of CRLF files', async () => {
    const { ctx } = setup({ 'win.txt': 'one\r\ntwo\r\n' });
    const r = await runTool(viewTool, { file_path: 'win.txt' }, ctx);
    expect(r.output).toBe('<file>\n     1|one\n     2|two\n</file>\n');
  });

  it('reads a file whose line is longer than 64 KB and cuts that line at 2000 characters', async () => {
    const { ctx } = setup({ 'min.js': `${'a'.repeat(70_000)}\nend\n` });
    const r = await runTool(viewTool, { file_path: 'min.js' }, ctx);
    expect(r.isError).toBe(false);
    expect(r.output).toBe(`<file>\n     1|${'a'.repeat(2000)}...\n     2|end\n</file>\n`);
  });

  it('never cuts a line inside a surrogate pair', async () => {
    const { ctx } = setup({ 'emoji.txt': `${'a'.repeat(1999)}😀${'b'.repeat(10)}\n` });
    const r = await runTool(viewTool, { file_path: 'emoji.txt' }, ctx);
    expect(r.output).toBe(`<file>\n     1|${'a'.repeat(1999)}...\n</file>\n`);
  });

  it('shows an empty file as empty tags', async () => {
    const { ctx } = setup({ 'empty.txt': '' });
    expect((await runTool(viewTool, { file_path: 'empty.txt' }, ctx)).output).toBe('<file>\n\n</file>\n');
  });

  it('refuses a binary file with a clear error', async () => {
    const { dir, ctx, fileTimes } = setup({ 'data.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]) });
    const r = await runTool(viewTool, { file_path: 'data.bin' }, ctx);
    expect(r).toEqual({
      output: `File appears to be binary (it contains NUL bytes): ${join(dir, 'data.bin')}\nOnly text files can be viewed or changed.`,
      isError: true,
      metadata: undefined,
    });
    expect(fileTimes.wasRead(join(dir, 'data.bin'))).toBe(false);
  });

  it('decodes a UTF-16 file that starts with a byte order mark, naming the encoding', async () => {
    const { ctx } = setup({
      'u16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]),
    });
    expect((await runTool(viewTool, { file_path: 'u16.txt' }, ctx)).output).toBe(
      '<file>\n(file encoding: UTF-16LE)\n     1|héllo\n     2|wörld\n</file>\n',
    );
  });

  it('suggests up to 3 names from the same folder when the file is missing', async () => {
    const { dir, ctx } = setup({
      'config.ts': '',
      'config.test.ts': '',
      'my-config.json': '',
      'configs.md': '',
      'other.ts': '',
    });
    const r = await runTool(viewTool, { file_path: 'config' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.output).toBe(
      `File not found: ${join(dir, 'config')}\n\nDid you mean one of these?\n${join(dir, 'config.test.ts')}\n${join(dir, 'config.ts')}\n${join(dir, 'configs.md')}`,
    );
  });

  it('reports a missing file in a missing folder without suggestions', async () => {
    const { dir, ctx } = setup({});
    const r = await runTool(viewTool, { file_path: 'nope/x.ts' }, ctx);
    expect(r.output).toBe(`File not found: ${join(dir, 'nope/x.ts')}`);
    expect(r.isError).toBe(true);
  });

  it('refuses images, naming their type', async () => {
    const { ctx } = setup({ 'logo.PNG': Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    const r = await runTool(viewTool, { file_path: 'logo.PNG' }, ctx);
    expect(r.output).toBe('This is an image file of type: PNG\nUse a different tool to process images');
    expect(r.isError).toBe(true);
  });

  it('refuses files over 250 KB', async () => {
    const { ctx } = setup({ 'big.txt': 'z'.repeat(256_001) });
    const r = await runTool(viewTool, { file_path: 'big.txt' }, ctx);
    expect(r.output).toBe('File is too large (256001 bytes). Maximum size is 256000 bytes');
    expect(r.isError).toBe(true);
  });

  it('refuses a folder', async () => {
    const { dir, ctx } = setup({ 'src/a.ts': '' });
    const r = await runTool(viewTool, { file_path: 'src' }, ctx);
    expect(r.output).toBe(`Path is a directory, not a file: ${join(dir, 'src')}`);
  });

  it('records the read so edit and write accept the file', async () => {
    const { dir, ctx, fileTimes } = setup({ 'a.txt': 'hi\n' });
    await runTool(viewTool, { file_path: join(dir, 'a.txt') }, ctx);
    expect(fileTimes.check(join(dir, 'a.txt'))).toEqual({ status: 'ok' });
  });

  it('follows a symbolic link to the file', async () => {
    const { dir, ctx } = setup({ 'real.txt': 'real\n' });
    symlinkSync(join(dir, 'real.txt'), join(dir, 'link.txt'));
    expect((await runTool(viewTool, { file_path: 'link.txt' }, ctx)).output).toBe('<file>\n     1|real\n</file>\n');
  });

  it('tells the model what to send when offset is not a number', async () => {
    const { ctx } = setup({ 'a.txt': 'hi\n' });
    const r = await runTool(viewTool, { file_path: 'a.txt', offset: 'x' }, ctx);
    expect(r.output).toBe('Invalid input for view: offset must be a number; you sent "x"');
  });

  it('reports a cancelled read as cancelled', async () => {
    const { ctx: base } = setup({ 'a.txt': 'hi\n' });
    const abort = new AbortController();
    abort.abort();
    const r = await runTool(viewTool, { file_path: 'a.txt' }, { ...base, signal: abort.signal });
    expect(r).toEqual({ output: 'Tool execution canceled by user', isError: true });
  });

  it('keeps its description short', () => {
    expect(viewTool.description.length).toBeLessThanOrEqual(1200);
  });
});
