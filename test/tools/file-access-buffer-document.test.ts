/**
 * `bufferDocument`: the editor's text of a file in the disk's format, as edit, write and patch change
 * it when an editor holds the files (opencode acp). The texts agreeing gives the disk's document
 * itself; a differing buffer keeps the file's encoding and BOM, takes its dominant line ending on
 * every line, and has the bytes undo would put back (none when the encoding lacks a character).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferDocument, textForEditor } from '../../src/tools/file-access.js';
import { encodeDocument, readDocument } from '../../src/tools/text-document.js';
import { cleanupTempDirs, tempDir } from '../support/temp-tree.js';

afterAll(cleanupTempDirs);

function diskDocument(bytes: Buffer) {
  const path = join(tempDir(), 'file.txt');
  writeFileSync(path, bytes);
  return readDocument(path);
}

describe('bufferDocument', () => {
  it('is the disk document itself when the editor has the same text', () => {
    const disk = diskDocument(Buffer.from('\ufeffa\r\nb\n'));
    expect(bufferDocument(disk, 'a\nb\n')).toBe(disk);
  });

  it.each<[string, Buffer, string, Buffer]>([
    // disk bytes → the editor's text → the bytes of the buffer's document
    ['CRLF: every line gets CRLF', Buffer.from('a\r\nb\r\n'), 'a\nunsaved\nb\n', Buffer.from('a\r\nunsaved\r\nb\r\n')],
    ['mixed, CRLF dominant: every line gets CRLF', Buffer.from('a\r\nb\r\nc\n'), 'a\nc\n', Buffer.from('a\r\nc\r\n')],
    ['UTF-8 with BOM: the BOM stays', Buffer.from('\ufeffa\n'), 'a\nb\n', Buffer.from('\ufeffa\nb\n')],
    ['UTF-16LE with BOM: the encoding stays', iconv.encode('\ufeffa\n', 'utf16le'), 'a\nü\n', iconv.encode('\ufeffa\nü\n', 'utf16le')],
  ])('%s', (_, bytes, text, expected) => {
    const document = bufferDocument(diskDocument(bytes), text);
    expect(document.text).toBe(text);
    expect(document.bytes).toEqual(expected);
    // what edit hands the editor for that text: the file's line endings, no BOM
    expect(textForEditor(encodeDocument(document, text), document.format.encoding)).toBe(iconv.decode(expected, document.format.encoding, { stripBOM: true }));
  });

  it('has no bytes for undo when the file encoding lacks a character the buffer holds', () => {
    const disk = diskDocument(iconv.encode('caf\u00e9 cr\u00e8me br\u00fbl\u00e9e\n', 'latin1'));
    expect(disk.format.encoding).not.toBe('utf8');
    const document = bufferDocument(disk, 'caf\u00e9 \u2713\n');
    expect(document.text).toBe('caf\u00e9 \u2713\n');
    expect(document.bytes).toBeUndefined();
  });
});
