/**
 * The text-file policy shared by view, edit, write and patch: files are never damaged.
 *
 * A file is read into a {@link TextDocument}: its text decoded, without byte order mark, every line
 * ending `\n`, plus the {@link TextFormat} needed to write it back the way it was. The tools work on
 * that text; {@link encodeDocument} turns the new text into bytes in the file's own encoding, BOM and
 * line endings, so only the bytes of the intended change differ; `writeFileAtomic` puts them on
 * disk. Nothing is ever decoded or encoded with loss: a file or a text that can't be represented
 * exactly is refused with a {@link ToolError}, and no U+FFFD is ever written.
 */
import { readFileSync, statSync } from 'node:fs';
import { analyse } from 'chardet';
import { diffArrays } from 'diff';
import iconv from 'iconv-lite';
import { requireRegularFile } from './file-io.js';
import { ToolError } from './tool.js';

export { writeFileAtomic, resolveWriteTarget, type WriteOptions } from './file-io.js';

/** The ending of one line: the last line of a text has none (`''`). */
export type LineEnding = '\n' | '\r\n' | '';

/** How a file's text is stored, to write it back the same way. */
export interface TextFormat {
  /**
   * iconv-lite name of the encoding: `utf8`, `utf16le`, `utf16be`, `utf32le`, `utf32be`, or a
   * legacy encoding as detected (`ISO-8859-1`, `windows-1252`, `GBK`, `GB18030`, `Shift_JIS`, …).
   */
  encoding: string;
  /** the file starts with a byte order mark (not part of {@link TextDocument.text}) */
  bom: boolean;
  /** the dominant line ending, given to new lines (`\n` when the file has none) */
  eol: '\n' | '\r\n';
  /** the ending of each line of the original (`text.split('\n')`); the last is always `''` */
  lineEndings: LineEnding[];
}

/** A text file as the tools see it. */
export interface TextDocument {
  /** the path it was read from */
  path: string;
  /** decoded, BOM stripped, every line ending normalised to `\n` (a lone `\r` is kept as a character) */
  text: string;
  format: TextFormat;
  /** permission bits (`st_mode & 0o7777`) */
  mode: number;
  /** the bytes read ({@link readDocument} sets it): what undo puts back */
  bytes?: Buffer;
}

/** A NUL byte within this many leading bytes marks a binary file (git looks at the first 8000). */
const BINARY_SNIFF_BYTES = 8000;

/** A line diff for line endings that takes longer gives up (a huge rewrite of a mixed file). */
const LINE_DIFF_TIMEOUT_MS = 250;

/** How many bytes chardet looks at, from just before the first non-ASCII byte. */
const CHARDET_SAMPLE_BYTES = 64 * 1024;

/** Byte order marks, longest first: UTF-32LE's starts with UTF-16LE's. */
const BYTE_ORDER_MARKS: readonly { encoding: string; bytes: readonly number[] }[] = [
  { encoding: 'utf8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf32le', bytes: [0xff, 0xfe, 0x00, 0x00] },
  { encoding: 'utf32be', bytes: [0x00, 0x00, 0xfe, 0xff] },
  { encoding: 'utf16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf16be', bytes: [0xfe, 0xff] },
];

/** How encodings are named to the model. */
const ENCODING_LABELS: Readonly<Record<string, string>> = {
  utf8: 'UTF-8',
  utf16le: 'UTF-16LE',
  utf16be: 'UTF-16BE',
  utf32le: 'UTF-32LE',
  utf32be: 'UTF-32BE',
};

/** chardet answers that are not legacy encodings: Unicode is recognised by its BOM or its validity. */
const NOT_LEGACY = new Set(['ASCII', 'UTF-8', 'UTF-16LE', 'UTF-16BE', 'UTF-32LE', 'UTF-32BE']);

/**
 * Reads and decodes the file at `path` (symbolic links followed).
 * @throws ToolError for a binary file, bytes no encoding decodes exactly, or a path that is not a
 * regular file (FIFO, device, socket); the fs error (`ENOENT`…)
 */
export function readDocument(path: string): TextDocument {
  // before opening: a FIFO would block forever, /dev/zero would fill the memory
  const stats = statSync(path);
  requireRegularFile(path, stats);
  const bytes = readFileSync(path);
  const mode = stats.mode & 0o7777;
  return { path, ...decodeDocument(path, bytes), mode, bytes };
}

/**
 * Decodes a file's bytes (`path` only names it in errors):
 * 1. a byte order mark decides (UTF-8, UTF-16, UTF-32);
 * 2. a NUL byte in the first 8000 bytes means binary, unless the bytes are UTF-16 without BOM;
 * 3. valid UTF-8 is UTF-8;
 * 4. otherwise the encodings chardet proposes, most likely first, then Windows-1252 / ISO-8859-1:
 *    the first that decodes the bytes so that encoding the text gives the same bytes back.
 * @throws ToolError for a binary file or bytes no encoding decodes exactly
 */
export function decodeDocument(path: string, bytes: Uint8Array): { text: string; format: TextFormat } {
  const { encoding, bom, raw } = decodeBytes(path, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const { text, lineEndings, eol } = splitLineEndings(raw);
  return { text, format: { encoding, bom, eol, lineEndings } };
}

/**
 * The bytes to write for `newText` (LF line endings) in place of `previous`: in its encoding, with its
 * BOM and its line endings ({@link restoreLineEndings}: unchanged and changed lines keep their own,
 * added lines get the dominant one). Without `previous` (a new file) `newText` is UTF-8, exactly as
 * given.
 * @throws ToolError when the text holds a character the encoding can't represent (or a lone UTF-16
 * surrogate), naming it and its line
 */
export function encodeDocument(
  previous: TextDocument | undefined,
  newText: string,
  /**
   * when the caller knows where each new line came from (patch does): per line of `newText`, the
   * index of the original line whose ending it keeps, or undefined for a new line. Used instead of
   * the line diff, which cannot tell a kept line from a removed identical one.
   */
  lineSources?: readonly (number | undefined)[],
): Buffer {
  if (!previous) return encodeText(newText, 'utf8', false, undefined);
  const { encoding, bom } = previous.format;
  const text = lineSources ? endingsFromSources(previous, newText, lineSources) : restoreLineEndings(previous, newText);
  return encodeText(text, encoding, bom, previous.path);
}

/**
 * The line sources (for {@link encodeDocument}) of the text made by replacing `spans` of `text`
 * (sorted, not overlapping; `text` with `\n` endings). Every line break outside the spans keeps the
 * ending it had. Inside a span, the new text's breaks in the part it shares with the old text at the
 * start keep theirs, then those in the part shared at the end; the breaks of the changed middle take
 * the middle's old ones paired from the end, and those beyond the pairs are new. When the new text is
 * just the end of the old (a deletion at the start: `same\nsame\n` → `same\n`), the shared end is
 * what is kept.
 *
 * The edit tool knows where it replaced, so it needs no line diff of the whole file, which cannot tell
 * a kept line from a removed identical one: removing the first of `x\r\nsame\r\nsame\n` with
 * `x\nsame` → `x` by a line diff gives the kept `same` the removed one's `\r\n`.
 */
export function lineSourcesOfSpans(
  text: string,
  spans: readonly { start: number; end: number; replacement: string }[],
): (number | undefined)[] {
  const sources: (number | undefined)[] = [];
  let line = 0; // index of the next line break of `text`
  let at = 0;
  const copy = (until: number) => {
    for (let i = text.indexOf('\n', at); i !== -1 && i < until; i = text.indexOf('\n', i + 1)) sources.push(line++);
    at = until;
  };
  for (const span of spans) {
    copy(span.start);
    const old = text.slice(span.start, span.end);
    const rep = span.replacement;
    // old break offset (in `old`) → its line index
    const oldBreaks = new Map<number, number>();
    for (let i = old.indexOf('\n'); i !== -1; i = old.indexOf('\n', i + 1)) oldBreaks.set(i, line++);
    at = span.end;
    let prefix = 0;
    let suffix = 0;
    if (rep.length < old.length && old.endsWith(rep)) suffix = rep.length;
    else {
      const shorter = Math.min(old.length, rep.length);
      while (prefix < shorter && old[prefix] === rep[prefix]) prefix++;
      while (suffix < shorter - prefix && old[old.length - 1 - suffix] === rep[rep.length - 1 - suffix]) suffix++;
    }
    const shift = old.length - rep.length;
    const middleOld = [...oldBreaks].filter(([i]) => i >= prefix && i < old.length - suffix).map(([, l]) => l);
    const middleNew: number[] = [];
    for (let i = rep.indexOf('\n'); i !== -1; i = rep.indexOf('\n', i + 1)) {
      if (i < prefix) sources.push(oldBreaks.get(i));
      else if (i >= rep.length - suffix) sources.push(oldBreaks.get(i + shift));
      else {
        middleNew.push(sources.length);
        sources.push(undefined);
      }
    }
    const paired = Math.min(middleNew.length, middleOld.length);
    for (let k = 1; k <= paired; k++) sources[middleNew[middleNew.length - k]!] = middleOld[middleOld.length - k];
  }
  copy(text.length);
  sources.push(line); // the last line (after the last break) has the file's final "ending"
  return sources;
}

/** `newText` (LF) with each line given the ending of its source line in `previous` (the dominant one when new). */
function endingsFromSources(previous: TextDocument, newText: string, sources: readonly (number | undefined)[]): string {
  const { lineEndings, eol } = previous.format;
  if (!lineEndings.includes('\r\n')) return newText;
  const newLines = newText.split('\n');
  return newLines
    .map((line, i) => {
      if (i === newLines.length - 1) return line;
      const source = sources[i];
      return line + ((source === undefined ? undefined : lineEndings[source]) || eol);
    })
    .join('');
}

/**
 * `newText` (LF) with the line endings of `previous` put back. A line diff (common prefix and suffix
 * first) pairs new lines with old ones: an unchanged line keeps its ending, and so does a changed line
 * that replaces an old one (paired from the end of each change); a line added beyond those gets the
 * dominant ending. So in a mixed file only the bytes of the change differ.
 */
export function restoreLineEndings(previous: TextDocument, newText: string): string {
  const { lineEndings, eol } = previous.format;
  const crlf = lineEndings.includes('\r\n');
  if (!crlf) return newText;
  if (!lineEndings.includes('\n')) return newText.replaceAll('\n', '\r\n');

  const oldLines = previous.text.split('\n');
  const newLines = newText.split('\n');
  const endings: LineEnding[] = newLines.map(() => eol);
  const keep = (newIndex: number, oldIndex: number) => {
    endings[newIndex] = lineEndings[oldIndex] || eol;
  };
  const shorter = Math.min(oldLines.length, newLines.length);
  let head = 0;
  while (head < shorter && oldLines[head] === newLines[head]) {
    keep(head, head);
    head++;
  }
  let tail = 0;
  while (tail < shorter - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) {
    keep(newLines.length - 1 - tail, oldLines.length - 1 - tail);
    tail++;
  }
  const oldMiddle = oldLines.slice(head, oldLines.length - tail);
  const newMiddle = newLines.slice(head, newLines.length - tail);
  const parts =
    oldMiddle.length && newMiddle.length
      ? diffArrays(oldMiddle, newMiddle, { timeout: LINE_DIFF_TIMEOUT_MS })
      : undefined;
  // a huge change the diff gave up on: lines changed in place (same count) keep their endings, else
  // they take the dominant one
  if (!parts && oldMiddle.length === newMiddle.length)
    for (let k = 0; k < newMiddle.length; k++) keep(head + k, head + k);
  let oldIndex = head;
  let newIndex = head;
  let removed = 0;
  for (const part of parts ?? []) {
    const count = part.value.length;
    if (part.removed) {
      oldIndex += count;
      removed = count;
      continue;
    }
    if (part.added) {
      // lines replacing lines keep their endings, paired from the end: a change inside a line
      // leaves the line break after it alone; lines beyond the pairs are new
      for (let j = 0; j < Math.min(count, removed); j++) keep(newIndex + count - 1 - j, oldIndex - 1 - j);
      newIndex += count;
    } else {
      for (let k = 0; k < count; k++) keep(newIndex + k, oldIndex + k);
      oldIndex += count;
      newIndex += count;
    }
    removed = 0;
  }
  endings[newLines.length - 1] = '';
  return newLines.map((line, i) => line + endings[i]).join('');
}

/** `\r\n` → `\n`: how text from the model is compared with and written into a document. */
export function normalizeLineEndings(text: string): string {
  return text.replaceAll('\r\n', '\n');
}

/**
 * The text {@link readDocument} will give back for a new file written with
 * `encodeDocument(undefined, text)`: what the file history stores, so versions compare equal.
 */
export function textAsRead(text: string): string {
  return normalizeLineEndings(text.startsWith('\uFEFF') ? text.slice(1) : text);
}

/** The encoding as named to the model: `UTF-8`, `UTF-16LE`, `ISO-8859-1`, `GBK`… */
export function encodingLabel(format: TextFormat): string {
  return ENCODING_LABELS[format.encoding] ?? format.encoding;
}

/**
 * What is special about the format, for a note to the model (e.g. `CRLF line endings, byte order
 * mark, encoding ISO-8859-1`), or `''` for plain UTF-8 with LF.
 */
export function describeFormat(format: TextFormat): string {
  const parts: string[] = [];
  if (format.eol === '\r\n') parts.push('CRLF line endings');
  if (format.bom) parts.push('byte order mark');
  if (format.encoding !== 'utf8') parts.push(`encoding ${encodingLabel(format)}`);
  return parts.join(', ');
}

function decodeBytes(path: string, bytes: Buffer): { encoding: string; bom: boolean; raw: string } {
  const mark = BYTE_ORDER_MARKS.find((m) => m.bytes.every((b, i) => bytes[i] === b));
  if (mark) {
    const raw = decodeExactly(bytes.subarray(mark.bytes.length), mark.encoding);
    if (raw === undefined || raw.includes('\0')) {
      throw new ToolError(
        `File ${path} starts with a ${ENCODING_LABELS[mark.encoding]} byte order mark but is not valid ${ENCODING_LABELS[mark.encoding]}; ` +
          'it cannot be read or changed without damaging it.',
      );
    }
    return { encoding: mark.encoding, bom: true, raw };
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    const utf16 = sniffUtf16(bytes);
    const raw = utf16 && decodeExactly(bytes, utf16);
    if (utf16 && raw !== undefined && !raw.includes('\0')) return { encoding: utf16, bom: false, raw };
    throw new ToolError(
      `File appears to be binary (it contains NUL bytes): ${path}\nOnly text files can be viewed or changed.`,
    );
  }
  const utf8 = decodeExactly(bytes, 'utf8');
  if (utf8 !== undefined) return { encoding: 'utf8', bom: false, raw: utf8 };
  for (const encoding of legacyCandidates(bytes)) {
    const raw = decodeExactly(bytes, encoding);
    if (raw !== undefined) return { encoding, bom: false, raw };
  }
  throw new ToolError(
    `File ${path} is not valid UTF-8 and its encoding could not be recognised; it cannot be read or changed without damaging it.`,
  );
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text `bytes` hold in `encoding`, or undefined unless encoding it again gives exactly `bytes`. */
function decodeExactly(bytes: Buffer, encoding: string): string | undefined {
  if (encoding === 'utf8') {
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  const text = iconv.decode(bytes, encoding, { stripBOM: false });
  return iconv.encode(text, encoding).equals(bytes) ? text : undefined;
}

/** Legacy encodings to try, most likely first. */
function legacyCandidates(bytes: Buffer): string[] {
  const names: string[] = [];
  // chardet reads every byte it is given: a window from the first non-ASCII byte is enough and fast
  const firstHigh = bytes.findIndex((b) => b >= 0x80);
  const sample = bytes.subarray(Math.max(0, firstHigh - 1_024), firstHigh + CHARDET_SAMPLE_BYTES);
  for (const { name } of analyse(sample)) {
    if (NOT_LEGACY.has(name)) continue;
    // GBK first: a GB18030 text that fits GBK stays readable by GBK tools (GB18030 would accept emoji)
    if (name === 'GB18030') names.push('GBK');
    if (iconv.encodingExists(name)) names.push(name);
  }
  // chardet gives up on short texts ("café"); bytes 0x80–0x9F are C1 controls in ISO-8859-1 but “”€… in Windows-1252
  const c1 = bytes.some((b) => b >= 0x80 && b <= 0x9f);
  names.push(...(c1 ? ['windows-1252', 'ISO-8859-1'] : ['ISO-8859-1']));
  return [...new Set(names)];
}

/**
 * UTF-16 without BOM: mostly ASCII-range text, so one byte of most code units is zero and the other
 * almost never is, and nothing decodes to a control character. Binary data fails one of these.
 */
function sniffUtf16(bytes: Buffer): 'utf16le' | 'utf16be' | undefined {
  if (bytes.length % 2 !== 0) return undefined;
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES) & ~1;
  const units = end / 2;
  let zeroLow = 0;
  let zeroHigh = 0;
  for (let i = 0; i < end; i += 2) {
    if (bytes[i] === 0) zeroLow++;
    if (bytes[i + 1] === 0) zeroHigh++;
  }
  const encoding =
    zeroHigh >= units * 0.3 && zeroLow <= units * 0.02
      ? 'utf16le'
      : zeroLow >= units * 0.3 && zeroHigh <= units * 0.02
        ? 'utf16be'
        : undefined;
  if (!encoding) return undefined;
  const sample = iconv.decode(bytes.subarray(0, end), encoding, { stripBOM: false });
  return /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(sample) ? undefined : encoding;
}

function splitLineEndings(raw: string): { text: string; lineEndings: LineEnding[]; eol: '\n' | '\r\n' } {
  const lineEndings: LineEnding[] = [];
  let crlf = 0;
  for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) {
    if (i > 0 && raw[i - 1] === '\r') {
      crlf++;
      lineEndings.push('\r\n');
    } else lineEndings.push('\n');
  }
  lineEndings.push('');
  const lf = lineEndings.length - 1 - crlf;
  const eol = crlf > lf || (crlf === lf && crlf > 0 && lineEndings[0] === '\r\n') ? '\r\n' : '\n';
  return { text: crlf ? normalizeLineEndings(raw) : raw, lineEndings, eol };
}

function encodeText(text: string, encoding: string, bom: boolean, path: string | undefined): Buffer {
  const where = path ? ` to ${path}` : '';
  let body: Buffer;
  if (encoding === 'utf8') {
    // Buffer.from would write a lone surrogate as U+FFFD
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
    if (lone) {
      throw new ToolError(
        `Cannot write${where}: the text contains a lone UTF-16 surrogate (U+${hex(lone[0])}, line ${lineOf(text, lone.index)}), which is not a character. Nothing was written.`,
      );
    }
    body = Buffer.from(text, 'utf8');
  } else {
    body = iconv.encode(text, encoding);
    if (iconv.decode(body, encoding, { stripBOM: false }) !== text) throw unrepresentable(text, encoding, where);
  }
  if (!bom) return body;
  const mark = BYTE_ORDER_MARKS.find((m) => m.encoding === encoding);
  return mark ? Buffer.concat([Buffer.from(mark.bytes), body]) : body;
}

function unrepresentable(text: string, encoding: string, where: string): ToolError {
  const label = ENCODING_LABELS[encoding] ?? encoding;
  // the encoder substitutes what it can't represent ("?"): the first difference is the culprit
  const back = iconv.decode(iconv.encode(text, encoding), encoding, { stripBOM: false });
  let index = 0;
  while (index < text.length && text[index] === back[index]) index++;
  const char = String.fromCodePoint(text.codePointAt(index) ?? 0xfffd);
  if (index < text.length && iconv.decode(iconv.encode(char, encoding), encoding, { stripBOM: false }) !== char) {
    return new ToolError(
      `Cannot write${where}: the file is encoded in ${label}, which has no "${char}" (U+${hex(char)}, line ${lineOf(text, index)}). ` +
        `Nothing was written. Use only characters ${label} has (or an escape sequence of the file's language).`,
    );
  }
  return new ToolError(
    `Cannot write${where}: the new text cannot be represented exactly in ${label}. Nothing was written.`,
  );
}

function hex(char: string): string {
  return char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
