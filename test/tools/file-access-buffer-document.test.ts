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
import { bufferDocument, editorTextUnstorableError, textForEditor } from '../../src/tools/file-access.js';
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
    [
      'UTF-16LE with BOM: the encoding stays',
      iconv.encode('\ufeffa\n', 'utf16le'),
      'a\nü\n',
      iconv.encode('\ufeffa\nü\n', 'utf16le'),
    ],
  ])('%s', (_, bytes, text, expected) => {
    const document = bufferDocument(diskDocument(bytes), text);
    expect(document.text).toBe(text);
    expect(document.bytes).toEqual(expected);
    // what edit hands the editor for that text: the file's line endings, no BOM
    expect(textForEditor(encodeDocument(document, text), document.format.encoding)).toBe(
      iconv.decode(expected, document.format.encoding, { stripBOM: true }),
    );
  });

  it('has no bytes for undo when the file encoding lacks a character the buffer holds', () => {
    const disk = diskDocument(iconv.encode('caf\u00e9 cr\u00e8me br\u00fbl\u00e9e\n', 'latin1'));
    expect(disk.format.encoding).not.toBe('utf8');
    const document = bufferDocument(disk, 'caf\u00e9 \u2713\n');
    expect(document.text).toBe('caf\u00e9 \u2713\n');
    expect(document.bytes).toBeUndefined();
  });
});

describe('editorTextUnstorableError', () => {
  it.each<[string, Buffer, string, string]>([
    // disk bytes, the editor's text → the message after the path
    [
      'a Latin-1 file the editor decoded as UTF-8',
      Buffer.from('caf\xe9\nd\xe9j\xe0\n', 'latin1'),
      'ok\ncaf\uFFFD\nd\uFFFDj\uFFFD\n',
      ' holds "\uFFFD" (U+FFFD, line 2), which the file\'s encoding on disk (ISO-8859-1) cannot store: the editor probably opened it in another encoding. Nothing was changed. Ask the person to reopen the file in the editor as ISO-8859-1, then read it again with view.',
    ],
    [
      'a lone surrogate in a UTF-8 buffer (an astral character before it is stored)',
      Buffer.from('a\n'),
      'a\n\u{1F600} \uD800\n',
      ' holds a lone UTF-16 surrogate (U+D800, line 2), which is not a character and cannot be stored. Nothing was changed. Ask the person to remove it in the editor, then read the file again with view.',
    ],
  ])('%s', (_name, bytes, text, message) => {
    const disk = diskDocument(bytes);
    const document = bufferDocument(disk, text);
    expect(document.bytes).toBeUndefined();
    expect(editorTextUnstorableError(document).message).toBe(`The editor's text of ${disk.path}${message}`);
  });
});
