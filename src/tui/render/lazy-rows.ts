/**
 * Huge text laid out lazily: a session holding a 1 MiB line must open and scroll with
 * key → frame ≤ 50 ms, and laying the line out whole (markdown lexing ~70 ms, wrapping and styling
 * ~100 ms more) missed that. Here the rows are found as offsets by a scan that builds no string
 * (a few ms per MiB of printable ASCII), and each row is cut from the text only when the viewport
 * reads it. The rows are exactly {@link wrapText}'s.
 *
 * A text part past {@link HUGE_TEXT_CHARS} is not parsed as markdown (lexing megabytes at once is
 * what froze the screen): it is shown as its lines, wrapped, with fenced code blocks drawn as code
 * (indented by 2, highlighted when small) — see {@link hugeTextRows}.
 */
import type { Theme } from '../theme.js';
import { nextFenceState, renderCodeBlock, type OpenFence } from './markdown.js';
import { mapRows, RowSeq, type Rows } from './rows.js';
import { displayWidth, fitLine, normalizeText, wrapText } from './text-width.js';
import { plainAsciiRowBounds, simpleRowBounds } from './wrap.js';

/** Text longer than this (UTF-16 units) is laid out lazily, and a text part is not lexed as markdown. */
export const HUGE_TEXT_CHARS = 256 * 1024;

/** A fenced code block up to this size inside a huge text is still highlighted (and laid out at once). */
const HIGHLIGHTED_CODE_MAX_CHARS = 64 * 1024;

/** Printable ASCII only: one column and one UTF-16 unit per character, no escapes. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** What {@link normalizeText} changes or removes: CR, tabs, controls other than `\n`, escapes. */
const NEEDS_NORMALIZING = /[\u0000-\u0009\u000b-\u001f\u007f]/;

/** Lines of printable ASCII only (the common huge text): nothing to normalize, every line scanned. */
const ASCII_LINES = /^[\x20-\x7e\n]*$/;

/** Lines of a width that short are the width's own (wrapText's `SHORT_LINE_CHARS`). */
const SHORT_LINE_CHARS = 1024;

/**
 * {@link wrapText}`(text, width)` as {@link Rows}: row offsets are found on first use (`length` or a
 * row), rows are cut when read. Lines of printable ASCII are scanned a row at a time, lines of wide
 * or accented characters a character at a time, without building strings; any other line (combining
 * marks, emoji sequences, colour codes, an indentation that leaves too little room) is wrapped by
 * wrapText itself when the scan reaches it.
 */
export class LazyWrappedText implements Rows {
  private readonly text: string;
  private readonly width: number;
  /** row r is `pad` spaces + text.slice(starts[r], ends[r]), unless `made` holds it */
  private starts: number[] = [];
  private ends: number[] = [];
  private pads: number[] = [];
  private readonly made = new Map<number, string>();
  private scanned = false;
  /** every line is printable ASCII */
  private readonly ascii: boolean;

  /** @param asciiLines known: every line of `text` is printable ASCII (saves a pass over a megabyte) */
  constructor(text: string, width: number, asciiLines?: boolean) {
    this.ascii = asciiLines ?? ASCII_LINES.test(text);
    this.text = !this.ascii && NEEDS_NORMALIZING.test(text) ? normalizeText(text) : text;
    this.width = Math.max(1, width);
  }

  get length(): number {
    this.scan();
    return this.starts.length;
  }

  at(index: number): string | undefined {
    this.scan();
    if (!Number.isInteger(index) || index < 0 || index >= this.starts.length) return undefined;
    const made = this.made.get(index);
    if (made !== undefined) return made;
    const pad = this.pads[index]!;
    return (pad ? ' '.repeat(pad) : '') + this.text.slice(this.starts[index], this.ends[index]);
  }

  slice(start = 0, end = this.length): string[] {
    const length = this.length;
    const from = start < 0 ? Math.max(0, length + start) : Math.min(start, length);
    const to = end < 0 ? Math.max(0, length + end) : Math.min(end, length);
    const out: string[] = [];
    for (let i = from; i < to; i++) out.push(this.at(i)!);
    return out;
  }

  private scan(): void {
    if (this.scanned) return;
    this.scanned = true;
    const { text, width: w } = this;
    const row = (start: number, end: number, pad: number) => {
      this.starts.push(start);
      this.ends.push(end);
      this.pads.push(pad);
    };
    for (let lineStart = 0; lineStart <= text.length;) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const source = text.slice(lineStart, lineEnd);
      if (this.ascii || PRINTABLE_ASCII.test(source)) {
        if (source.length <= SHORT_LINE_CHARS && source.length <= w) row(lineStart, lineEnd, 0);
        else {
          // wrapText's hanging indent: the indentation (as it measures it) repeated on every row
          const indent = /^ */.exec(source.slice(0, 4 * w))![0].length;
          const room = w - indent;
          if (room >= Math.min(10, Math.ceil(w / 2)))
            plainAsciiRowBounds(text, lineStart + indent, lineEnd, room, (s, e) => row(s, e, indent));
          else this.eager(source, row);
        }
      } else if (!this.simple(source, lineStart, lineEnd, row)) this.eager(source, row);
      lineStart = lineEnd + 1;
    }
  }

  /**
   * A line of wide or accented characters without marks or colour codes (CJK, most symbols): its row
   * offsets from a scan with one width lookup per character. False when it is not such a line.
   */
  private simple(
    source: string,
    lineStart: number,
    lineEnd: number,
    row: (start: number, end: number, pad: number) => void,
  ): boolean {
    const w = this.width;
    // rows of width 1 get wide characters cut by fitLine (wrapText): left to wrapText
    if (w < 2 || source.includes('\u001b')) return false;
    if (source.length <= SHORT_LINE_CHARS && displayWidth(source) <= w) {
      row(lineStart, lineEnd, 0);
      return true;
    }
    const indent = /^ */.exec(source.slice(0, 4 * w))![0].length;
    const room = w - indent;
    if (room < Math.min(10, Math.ceil(w / 2))) return false;
    const bounds = simpleRowBounds(this.text, lineStart + indent, lineEnd, room);
    if (!bounds) return false;
    for (let k = 0; k < bounds.length; k += 2) row(bounds[k]!, bounds[k + 1]!, indent);
    return true;
  }

  /** A line the scans do not handle: wrapText's rows, kept as strings. */
  private eager(source: string, row: (start: number, end: number, pad: number) => void): void {
    for (const made of wrapText(source, this.width)) {
      this.made.set(this.starts.length, made);
      row(0, 0, 0);
    }
  }
}

/**
 * A text part past {@link HUGE_TEXT_CHARS}, drawn without lexing it as markdown: its lines wrapped to
 * `width` (hanging indent, as wrapText), runs of blank lines shown as one and none at the start or
 * end (as between markdown blocks), and each fenced code block (```` ``` ```` / `~~~`, closed or
 * running to the end) as renderCodeBlock draws it — fences dropped, indented by 2, highlighted when
 * under 64 KiB, else plain — with a blank row around it. A 1 MiB line of prose gives the same rows
 * as the markdown renderer.
 */
export function hugeTextRows(raw: string, width: number, theme: Theme): Rows {
  const w = Math.max(1, width);
  // CR and tabs first: a fence line ending in CR would not be seen as one
  const ascii = ASCII_LINES.test(raw);
  const text = !ascii && NEEDS_NORMALIZING.test(raw) ? normalizeText(raw) : raw;
  const parts: Rows[] = [];
  const add = (rows: Rows) => {
    if (rows.length === 0) return;
    if (parts.length) parts.push(['']);
    parts.push(rows);
  };
  const prose = (from: number, to: number) => {
    let chunk = text.slice(from, to);
    if (chunk.includes('\n'))
      chunk = chunk
        .replace(/^(?:[ \t]*\n)+/, '')
        .replace(/(?:\n[ \t]*)+$/, '')
        .replace(/\n(?:[ \t]*\n)+/g, '\n\n');
    if (chunk.trim() !== '') add(new LazyWrappedText(chunk, w, ascii || undefined));
  };
  const code = (body: string, language: string | undefined) => {
    if (body.length <= HIGHLIGHTED_CODE_MAX_CHARS) {
      add(renderCodeBlock(body, language, w, theme));
      return;
    }
    const room = Math.max(1, w - 2);
    add(
      mapRows(new LazyWrappedText(body, room, ascii || undefined), (row) => (row === '' ? '' : fitLine(`  ${row}`, w))),
    );
  };

  let open: OpenFence | undefined;
  let proseStart = 0;
  let codeStart = 0;
  let language: string | undefined;
  for (let lineStart = 0; lineStart <= text.length;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    // only a short line can be a fence: don't run the pattern over a megabyte line
    const line = lineEnd - lineStart <= SHORT_LINE_CHARS ? text.slice(lineStart, lineEnd) : '';
    const next = line ? nextFenceState(open, line) : open;
    if (!open && next) {
      prose(proseStart, lineStart);
      codeStart = lineEnd + 1;
      language = /^\s*(?:`{3,}|~{3,})\s*(\S*)/.exec(line)?.[1] || undefined;
    } else if (open && !next) {
      code(text.slice(codeStart, Math.max(codeStart, lineStart - 1)), language);
      proseStart = lineEnd + 1;
    }
    open = next;
    lineStart = lineEnd + 1;
  }
  if (open) code(text.slice(Math.min(codeStart, text.length)).replace(/\n$/, ''), language);
  else prose(proseStart, text.length);
  return new RowSeq(parts);
}
