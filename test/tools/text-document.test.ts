/**
 * The shared text-file policy: decoding, re-encoding byte for byte, line endings, and
 * the atomic write. Exact bytes throughout.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decodeDocument,
  describeFormat,
  encodeDocument,
  readDocument,
  textAsRead,
  writeFileAtomic,
  type TextDocument,
} from '../../src/tools/text-document.js';
import { tempDir } from '../support/recording-context.js';

function doc(bytes: Buffer, path = '/p/f.txt'): TextDocument {
  return { path, ...decodeDocument(path, bytes), mode: 0o644 };
}

function roundTrip(bytes: Buffer, edit: (text: string) => string): Buffer {
  const d = doc(bytes);
  return encodeDocument(d, edit(d.text));
}

const LATIN1 = iconv.encode('# Configuración del café\nnombre = "José Núñez"\nciudad = "Zürich"\n', 'latin1');
const GBK = iconv.encode('// 配置文件：数据库连接\nhost = "本地主机"\nport = 5432\n用户 = "管理员"\n', 'gbk');

describe('decodeDocument', () => {
  it('reads UTF-8 with LF as it is', () => {
    expect(decodeDocument('f', Buffer.from('a\nb\n'))).toEqual({
      text: 'a\nb\n',
      format: { encoding: 'utf8', bom: false, eol: '\n', lineEndings: ['\n', '\n', ''] },
    });
  });

  it('normalises CRLF to LF and remembers each line ending', () => {
    expect(decodeDocument('f', Buffer.from('a\r\nb\nc\r\nd'))).toEqual({
      text: 'a\nb\nc\nd',
      format: { encoding: 'utf8', bom: false, eol: '\r\n', lineEndings: ['\r\n', '\n', '\r\n', ''] },
    });
  });

  it('keeps a lone CR as a character', () => {
    expect(decodeDocument('f', Buffer.from('a\rb\r\r\n')).text).toBe('a\rb\r\n');
  });

  it('strips a UTF-8 byte order mark from the text', () => {
    const d = decodeDocument('f', Buffer.from('\uFEFFhello\n'));
    expect([d.text, d.format.bom, d.format.encoding]).toEqual(['hello\n', true, 'utf8']);
  });

  it('recognises ISO-8859-1 and GBK, which are not valid UTF-8', () => {
    expect(decodeDocument('f', LATIN1)).toMatchObject({
      text: '# Configuración del café\nnombre = "José Núñez"\nciudad = "Zürich"\n',
      format: { encoding: 'ISO-8859-1' },
    });
    expect(decodeDocument('f', GBK)).toMatchObject({
      text: '// 配置文件：数据库连接\nhost = "本地主机"\nport = 5432\n用户 = "管理员"\n',
      format: { encoding: 'GBK' },
    });
  });

  it('falls back to a single-byte encoding when chardet has no answer for a short text', () => {
    expect(decodeDocument('f', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))).toMatchObject({
      text: 'café\n',
      format: { encoding: 'ISO-8859-1' },
    });
  });

  it('reads UTF-16 with a byte order mark, and without one when the bytes show it', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\r\nthere\r\n', 'utf16le')]);
    expect(decodeDocument('f', le)).toEqual({
      text: 'hi\nthere\n',
      format: { encoding: 'utf16le', bom: true, eol: '\r\n', lineEndings: ['\r\n', '\r\n', ''] },
    });
    expect(decodeDocument('f', Buffer.from('plain\n', 'utf16le')).format).toMatchObject({
      encoding: 'utf16le',
      bom: false,
    });
    expect(decodeDocument('f', iconv.encode('plain\n', 'utf16be')).format).toMatchObject({
      encoding: 'utf16be',
      bom: false,
    });
  });

  it('refuses binary content with a clear message', () => {
    expect(() =>
      decodeDocument('/p/a.out', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00])),
    ).toThrow('File appears to be binary (it contains NUL bytes): /p/a.out\nOnly text files can be viewed or changed.');
  });

  it('refuses a UTF-16 BOM followed by bytes that are not UTF-16', () => {
    expect(() => decodeDocument('/p/x', Buffer.from([0xff, 0xfe, 0x41]))).toThrow(
      'File /p/x starts with a UTF-16LE byte order mark but is not valid UTF-16LE; it cannot be read or changed without damaging it.',
    );
  });
});

describe('encodeDocument', () => {
  it('writes a new file as given, in UTF-8', () => {
    expect(encodeDocument(undefined, 'a\r\nb → c\n')).toEqual(Buffer.from('a\r\nb → c\n'));
  });

  it('puts CRLF back on every line of a CRLF file', () => {
    expect(roundTrip(Buffer.from('one\r\ntwo\r\nthree\r\n'), (t) => t.replace('two', 'TWO\nand a half'))).toEqual(
      Buffer.from('one\r\nTWO\r\nand a half\r\nthree\r\n'),
    );
  });

  it('in a mixed file changes only the bytes of the change: a changed line keeps its ending, an added line gets the dominant one', () => {
    const mixed = Buffer.from('a\r\nb\nc\r\nd\r\ne\n');
    expect(roundTrip(mixed, (t) => t.replace('b', 'B'))).toEqual(Buffer.from('a\r\nB\nc\r\nd\r\ne\n'));
    expect(roundTrip(mixed, (t) => t.replace('c\n', 'c\nnew\n'))).toEqual(Buffer.from('a\r\nb\nc\r\nnew\r\nd\r\ne\n'));
    expect(roundTrip(mixed, (t) => t.replace('b\nc', 'bc'))).toEqual(Buffer.from('a\r\nbc\r\nd\r\ne\n'));
  });

  it('gives a last line that gains a line break the dominant ending', () => {
    expect(roundTrip(Buffer.from('a\r\nb'), (t) => `${t}\nc`)).toEqual(Buffer.from('a\r\nb\r\nc'));
  });

  it('keeps the byte order mark', () => {
    expect(roundTrip(Buffer.from('\uFEFFx = 1\n'), (t) => t.replace('1', '2'))).toEqual(Buffer.from('\uFEFFx = 2\n'));
  });

  it('re-encodes ISO-8859-1 and GBK so that only the edited bytes differ', () => {
    const latin1 = roundTrip(LATIN1, (t) => t.replace('Zürich', 'Málaga'));
    expect(latin1).toEqual(
      iconv.encode('# Configuración del café\nnombre = "José Núñez"\nciudad = "Málaga"\n', 'latin1'),
    );
    const gbk = roundTrip(GBK, (t) => t.replace('5432', '5433'));
    expect(gbk).toEqual(
      Buffer.concat([GBK.subarray(0, GBK.indexOf('5432')), Buffer.from('5433'), GBK.subarray(GBK.indexOf('5432') + 4)]),
    );
  });

  it('refuses a character the encoding cannot represent, naming it and its line', () => {
    const d = doc(LATIN1, '/p/conf.ini');
    expect(() => encodeDocument(d, d.text.replace('Zürich', '北京'))).toThrow(
      'Cannot write to /p/conf.ini: the file is encoded in ISO-8859-1, which has no "北" (U+5317, line 3). Nothing was written. ' +
        "Use only characters ISO-8859-1 has (or an escape sequence of the file's language).",
    );
  });

  it('refuses an emoji in a GBK file rather than writing GB18030 bytes a GBK reader cannot read', () => {
    const d = doc(GBK);
    expect(() => encodeDocument(d, `${d.text}// 🚀\n`)).toThrow('which has no "🚀" (U+1F680, line 5)');
  });

  it('writes UTF-16LE with its BOM and CRLF', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\r\nthere\r\n', 'utf16le')]);
    expect(roundTrip(le, (t) => t.replace('there', 'wörld 😀'))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\r\nwörld 😀\r\n', 'utf16le')]),
    );
  });

  it('never writes U+FFFD for a lone surrogate', () => {
    expect(() => encodeDocument(doc(Buffer.from('a\n')), 'a\ud800\n')).toThrow(
      'Cannot write to /p/f.txt: the text contains a lone UTF-16 surrogate (U+D800, line 1), which is not a character. Nothing was written.',
    );
  });
});

describe('textAsRead and describeFormat', () => {
  it('give the text a new file reads back as, and what is special about a format', () => {
    expect(textAsRead('\uFEFFa\r\nb')).toBe('a\nb');
    expect(describeFormat(doc(Buffer.from('\uFEFFa\r\n')).format)).toBe('CRLF line endings, byte order mark');
    expect(describeFormat(doc(LATIN1).format)).toBe('encoding ISO-8859-1');
    expect(describeFormat(doc(Buffer.from('a\n')).format)).toBe('');
  });
});

describe('readDocument and writeFileAtomic', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.remove());

  it('reads the mode, and writes back keeping it, leaving no temporary file', () => {
    const path = join(tmp.dir, 'run.sh');
    writeFileSync(path, '#!/bin/sh\r\necho hi\r\n');
    chmodSync(path, 0o755);
    const d = readDocument(path);
    expect(d).toMatchObject({ path, text: '#!/bin/sh\necho hi\n', mode: 0o755 });
    writeFileAtomic(path, encodeDocument(d, d.text.replace('hi', 'ho')));
    expect(readFileSync(path)).toEqual(Buffer.from('#!/bin/sh\r\necho ho\r\n'));
    expect(statSync(path).mode & 0o7777).toBe(0o755);
    expect(readdirSync(tmp.dir)).toEqual(['run.sh']);
  });

  it('writes through a symbolic link, also a dangling one, and the link stays a link', () => {
    mkdirSync(join(tmp.dir, 'real'));
    writeFileSync(join(tmp.dir, 'real/a.txt'), 'old\n');
    symlinkSync('real/a.txt', join(tmp.dir, 'link.txt'));
    writeFileAtomic(join(tmp.dir, 'link.txt'), Buffer.from('new\n'));
    expect(lstatSync(join(tmp.dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(tmp.dir, 'real/a.txt'), 'utf8')).toBe('new\n');

    symlinkSync('real/missing.txt', join(tmp.dir, 'dangling.txt'));
    writeFileAtomic(join(tmp.dir, 'dangling.txt'), Buffer.from('made\n'));
    expect(readlinkSync(join(tmp.dir, 'dangling.txt'))).toBe('real/missing.txt');
    expect(readFileSync(join(tmp.dir, 'real/missing.txt'), 'utf8')).toBe('made\n');
  });

  it('gives a new file the mode any new file gets (0o666 minus the umask)', () => {
    const path = join(tmp.dir, 'new.txt');
    writeFileAtomic(path, Buffer.from('x'));
    writeFileSync(join(tmp.dir, 'plain.txt'), 'x');
    expect(statSync(path).mode & 0o7777).toBe(statSync(join(tmp.dir, 'plain.txt')).mode & 0o7777);
  });

  it('fails on a directory, leaving it as it was and no temporary file', () => {
    mkdirSync(join(tmp.dir, 'd'));
    expect(() => writeFileAtomic(join(tmp.dir, 'd'), Buffer.from('x'))).toThrow(/EISDIR/);
    expect(readdirSync(tmp.dir)).toEqual(['d']);
    expect(existsSync(join(tmp.dir, 'd'))).toBe(true);
  });
});
