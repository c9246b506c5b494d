/**
 * Word wrap of one line in time linear in its length (wrap-ansi and slice-ansi are
 * quadratic, ~25 s for a 60 KB line, so a session holding a 200 KB line could not be opened).
 *
 * The rules are wrap-ansi's `hard` mode, which the render layer used before: words are separated by
 * spaces and go on the current row while they fit; a word wider than the row is broken (starting on
 * the current row unless that takes more rows); spaces at the start and end of a row are dropped
 * (with `trim: false`, kept, the way code is wrapped when its indentation leaves no room). Widths are
 * string-width's: a grapheme cluster (Intl.Segmenter) is measured as string-width measures it, so CJK
 * and emoji are 2 columns and are never split. Colour codes (SGR) are carried across rows: a row ends
 * by closing the styles still open and the next row opens them again, as wrap-ansi does.
 */
import stringWidth from 'string-width';

/** An SGR escape; the render layer produces no other escapes (text-width.ts normalizeText). */
const SGR = /\u001b\[([0-9;]*)m/g;

/** Text made of printable ASCII only: one column per UTF-16 unit, one grapheme per unit. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Code points that can join the one before or after into a grapheme cluster (Unicode UAX #29): marks,
 * ZWJ, variation selectors, emoji modifiers, regional indicators, Hangul jamo, tags, keycap, prepend
 * marks of Indic scripts. Text without them is one cluster per code point.
 */
const CLUSTER_JOINING =
  // eslint-disable-next-line no-misleading-character-class -- each code point of the class is a member on its own
  /[\p{M}\u200c\u200d\ufe00-\ufe0f\u20e3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{110bd}\u{110cd}\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u{e0000}-\u{e0fff}]/u;

/**
 * Grapheme clusters by regular expression (UAX #29's rules for emoji sequences, flags, Hangul and
 * combining marks): ~10× faster than Intl.Segmenter, whose cost per cluster dominates a megabyte of
 * emoji. It agrees with Intl.Segmenter except on Indic conjuncts (GB9c), for which see {@link INDIC}.
 */
const EMOJI_TAIL = '[\\p{M}\\ufe0e\\ufe0f\\u{1f3fb}-\\u{1f3ff}\\u{e0020}-\\u{e007f}]*';
const CLUSTER = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- each code point of a class is a member on its own
  [
    '\\p{RI}\\p{RI}', // a flag
    `\\p{Extended_Pictographic}${EMOJI_TAIL}(?:\\u200d\\p{Extended_Pictographic}${EMOJI_TAIL})*`, // emoji, ZWJ sequences
    '[\\u1100-\\u115f\\ua960-\\ua97c]*(?:[\\uac00-\\ud7a3]|[\\u1160-\\u11a7\\ud7b0-\\ud7c6])[\\u1160-\\u11a7\\ud7b0-\\ud7c6]*[\\u11a8-\\u11ff\\ud7cb-\\ud7fb]*[\\p{M}\\u200d]*', // Hangul
    '[\\u1100-\\u115f\\ua960-\\ua97c]+[\\p{M}\\u200d]*', // leading jamo alone
    '[^\\p{M}\\u200d][\\p{M}\\u200d\\ufe00-\\ufe0f\\u{e0100}-\\u{e01ef}]*', // a base and its marks
    '[\\s\\S][\\p{M}\\u200d]*', // a mark with no base
  ].join('|'),
  'gu',
);

/** Scripts whose conjuncts (virama + consonant) join clusters: Devanagari to Sinhala, Myanmar, Khmer. */
const INDIC = /[\u0900-\u0dff\u1000-\u109f\u1780-\u17ff]/;

/** Calls `each` with the grapheme clusters of `text`, in linear time. */
function eachCluster(text: string, each: (grapheme: string) => void): void {
  if (INDIC.test(text)) {
    forEachGrapheme(text, each);
    return;
  }
  CLUSTER.lastIndex = 0;
  for (let match = CLUSTER.exec(text); match; match = CLUSTER.exec(text)) each(match[0]);
}

/** Characters segmented at a time: V8's Intl.Segmenter is quadratic in the length of what it segments. */
const SEGMENT_WINDOW_CHARS = 256;

/**
 * Calls `each` with the grapheme clusters of `text` in order, in time linear in its length: the text is
 * segmented a window at a time, and each window's last cluster (perhaps cut by the window's end) is
 * segmented again at the start of the next window.
 */
function forEachGrapheme(text: string, each: (grapheme: string) => void): void {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SEGMENT_WINDOW_CHARS);
    // a lone high surrogate at the window's end would be a cluster of its own, and the one before it
    // (e.g. a ZWJ sequence missing its last emoji) would pass as complete
    const last16 = text.charCodeAt(end - 1);
    if (end < text.length && last16 >= 0xd800 && last16 <= 0xdbff) end++;
    let last = '';
    let lastIndex = 0;
    for (const { segment, index } of segmenter.segment(text.slice(start, end))) {
      if (last) each(last);
      last = segment;
      lastIndex = index;
    }
    if (end === text.length || lastIndex === 0) {
      each(last); // the text's end, or one cluster as long as the window
      start = end;
    } else {
      start += lastIndex;
    }
  }
}

/** string-width of each grapheme cluster seen (emoji and CJK repeat a lot; the set stays small). */
const graphemeWidths = new Map<string, number>();
const GRAPHEME_CACHE_SIZE = 10_000;

function graphemeWidth(grapheme: string): number {
  let width = graphemeWidths.get(grapheme);
  if (width === undefined) {
    width = stringWidth(grapheme);
    if (graphemeWidths.size >= GRAPHEME_CACHE_SIZE) graphemeWidths.clear();
    graphemeWidths.set(grapheme, width);
  }
  return width;
}

/**
 * Style slots of SGR parameters: a later code of a slot replaces the earlier, its close code ends it.
 * Source: ECMA-48 §8.3.117 and the codes chalk (ansi-styles) emits.
 */
const SLOTS: { slot: string; codes: (code: number) => boolean; close: number }[] = [
  { slot: 'intensity', codes: (c) => c === 1 || c === 2, close: 22 }, // bold, dim
  { slot: 'italic', codes: (c) => c === 3, close: 23 },
  { slot: 'underline', codes: (c) => c === 4, close: 24 },
  { slot: 'inverse', codes: (c) => c === 7, close: 27 },
  { slot: 'hidden', codes: (c) => c === 8, close: 28 },
  { slot: 'strike', codes: (c) => c === 9, close: 29 },
  { slot: 'foreground', codes: (c) => (c >= 30 && c <= 38) || (c >= 90 && c <= 97), close: 39 },
  { slot: 'background', codes: (c) => (c >= 40 && c <= 48) || (c >= 100 && c <= 107), close: 49 },
  { slot: 'overline', codes: (c) => c === 53, close: 55 },
];

/** The styles open at a point of a line, by slot, and how to close and reopen them at a row edge. */
class StyleState {
  private readonly open = new Map<string, string>();

  /** Applies one SGR escape's parameters (`"1;38;2;255;0;0"`). */
  apply(params: string): void {
    const codes = params === '' ? [0] : params.split(';').map(Number);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i]!;
      if (code === 0) {
        this.open.clear();
        continue;
      }
      // 38/48 take a colour: 5;n or 2;r;g;b
      const extra = code === 38 || code === 48 ? (codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0) : 0;
      const sequence = codes.slice(i, i + 1 + extra).join(';');
      i += extra;
      for (const { slot, codes: isOpen, close } of SLOTS) {
        if (code === close || (slot === 'intensity' && code === 21)) this.open.delete(slot);
        else if (isOpen(code)) this.open.set(slot, `\u001b[${sequence}m`);
      }
    }
  }

  /** Closes what is open (at the end of a row). */
  closing(): string {
    let out = '';
    for (const { slot, close } of SLOTS) if (this.open.has(slot)) out += `\u001b[${close}m`;
    return out;
  }

  /** Opens again what is open (at the start of the next row). */
  reopening(): string {
    return [...this.open.values()].join('');
  }
}

/** A piece of a word: an escape (width 0), a grapheme cluster, or a run of printable ASCII. */
interface Piece {
  text: string;
  width: number;
  /** a run of printable ASCII, one column per character */
  ascii?: boolean;
}

/**
 * Columns `text` (colour codes removed, no other escapes) takes, as string-width counts them: the sum
 * of its grapheme clusters' widths, which is how string-width measures (v8). Linear in the length;
 * string-width itself segments the whole string at once, which V8 does in quadratic time.
 */
export function clustersWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  const add = (grapheme: string) => void (width += graphemeWidth(grapheme));
  for (const chars of text.split(' ')) {
    if (!CLUSTER_JOINING.test(chars)) for (const codePoint of chars) add(codePoint);
    else eachCluster(chars, add);
  }
  return width + (text.split(' ').length - 1);
}

/** Options of {@link wrapLine}. */
export interface WrapLineOptions {
  /** drop spaces at the start and end of rows (default true) */
  trim?: boolean;
}

/**
 * Wraps one line (no `\n`; tabs already expanded) to rows of at most `width` columns, in time linear
 * in its length. See the module comment for the rules. An empty or all-space line gives `['']`.
 */
export function wrapLine(line: string, width: number, options: WrapLineOptions = {}): string[] {
  const w = Math.max(1, Math.floor(width));
  const trim = options.trim !== false;
  if (trim && PRINTABLE_ASCII.test(line)) return wrapPlainAscii(line, w);
  const rows: string[] = [];
  const style = new StyleState();
  let row = ''; // the current row's text
  let rowWidth = 0;
  let rowHasText = false; // a visible character is on the row (spaces count when not trimming)
  let pendingSpaces = 0; // spaces after the row's last word, written only if a word follows on the row
  let word: Piece[] = []; // graphemes, ASCII runs and escapes of the word being read
  let wordWidth = 0;

  const endRow = () => {
    rows.push(row + style.closing());
    row = style.reopening();
    rowWidth = 0;
    rowHasText = false;
    pendingSpaces = 0;
  };
  /**
   * Puts a piece on the row, starting a new row when it does not fit: an escape (width 0), a grapheme,
   * or a run of printable ASCII (`ascii`), which is split across rows as needed.
   */
  const put = (piece: Piece) => {
    if (piece.ascii) {
      let at = 0;
      while (at < piece.text.length) {
        if (rowWidth >= w && rowHasText) endRow();
        const take = Math.max(1, Math.min(piece.text.length - at, w - rowWidth));
        row += piece.text.slice(at, at + take);
        rowWidth += take;
        rowHasText = true;
        at += take;
      }
      return;
    }
    if (piece.width > 0 && rowWidth + piece.width > w && rowHasText) endRow();
    if (piece.width === 0 && piece.text.startsWith('\u001b')) {
      const params = /^\u001b\[([0-9;]*)m$/.exec(piece.text)?.[1];
      if (params !== undefined) style.apply(params);
    } else if (piece.width > 0) {
      rowHasText = true;
    }
    row += piece.text;
    rowWidth += piece.width;
  };
  const flushWord = () => {
    if (word.length === 0) return;
    const spaces = rowHasText || !trim ? pendingSpaces : 0;
    if (wordWidth === 0) {
      // escapes only: applied where they are; the spaces before them stay pending for the next word
      for (const piece of word) put(piece);
      word = [];
      return;
    } else if (wordWidth <= w) {
      if (rowHasText && rowWidth + spaces + wordWidth > w) endRow();
      else if (spaces) {
        row += ' '.repeat(spaces);
        rowWidth += spaces;
      }
      for (const piece of word) put(piece);
    } else {
      // a word wider than a row is broken; it starts on this row unless that takes more rows (wrap-ansi)
      const room = w - rowWidth - spaces;
      const breaksHere = 1 + Math.floor((wordWidth - room - 1) / w);
      const breaksNext = Math.floor((wordWidth - 1) / w);
      if (rowHasText && (breaksNext < breaksHere || room <= 0)) endRow();
      else if (spaces) {
        row += ' '.repeat(spaces);
        rowWidth += spaces;
      }
      for (const piece of word) put(piece);
    }
    pendingSpaces = 0;
    word = [];
    wordWidth = 0;
  };
  const space = () => {
    flushWord();
    if (trim) {
      pendingSpaces++;
      return;
    }
    if (rowWidth + 1 > w) endRow();
    row += ' ';
    rowWidth += 1;
    rowHasText = true;
  };
  const text = (segment: string) => {
    if (PRINTABLE_ASCII.test(segment)) {
      let start = 0;
      for (let i = 0; i <= segment.length; i++) {
        if (i < segment.length && segment.charCodeAt(i) !== 32) continue;
        if (i > start) addAsciiWord(segment.slice(start, i));
        if (i < segment.length) space();
        start = i + 1;
      }
      return;
    }
    const addGrapheme = (grapheme: string) => {
      const gw = graphemeWidth(grapheme);
      word.push({ text: grapheme, width: gw });
      wordWidth += gw;
    };
    segment.split(' ').forEach((chars, i) => {
      if (i > 0) space();
      // code points that never join a neighbour are clusters of their own: no segmenter needed
      if (!CLUSTER_JOINING.test(chars)) for (const codePoint of chars) addGrapheme(codePoint);
      else eachCluster(chars, addGrapheme);
    });
  };
  /** A run of printable ASCII without spaces: one piece, split by `put` when it is wider than a row. */
  const addAsciiWord = (chars: string) => {
    word.push({ text: chars, width: chars.length, ascii: true });
    wordWidth += chars.length;
  };

  SGR.lastIndex = 0;
  let last = 0;
  for (let match = SGR.exec(line); match; match = SGR.exec(line)) {
    if (match.index > last) text(line.slice(last, match.index));
    word.push({ text: match[0], width: 0 });
    last = SGR.lastIndex;
  }
  if (last < line.length) text(line.slice(last));
  flushWord();
  // spaces left at the end of the line are trailing: dropped when trimming
  rows.push(row);
  return trim ? rows.map(trimRowEnd) : rows;
}

/**
 * {@link wrapLine} of printable ASCII without colour codes, trimming (the common long line: prose or
 * minified code): the same rows, cut from the line by index without building them a piece at a time.
 * Every row is a slice of the line, since trimming only drops the spaces at row edges.
 */
function wrapPlainAscii(line: string, w: number): string[] {
  const rows: string[] = [];
  plainAsciiRowBounds(line, 0, line.length, w, (start, end) => void rows.push(line.slice(start, end)));
  return rows;
}

/**
 * The rows {@link wrapLine} makes of `text.slice(from, to)` (printable ASCII, no `\n`, no escapes) at
 * `width` columns, trimming, as offsets into `text`: `each(start, end)` is called once per row in
 * order, and the row is `text.slice(start, end)` (an empty line gives one empty row). No string is
 * built and the work is per row, not per word (a row is found by looking at its last column), so
 * the rows of a megabyte line are counted in about a millisecond and cut only when shown
 * (lazy-rows.ts).
 *
 * The rules, as wrapLine's: a row is a slice of the line, so it is as wide as it is long; it takes
 * every following word that ends within `width` columns of its start; a word wider than a row is
 * broken, starting on the current row unless that takes more rows (wrap-ansi's `hard` mode).
 */
export function plainAsciiRowBounds(
  text: string,
  from: number,
  to: number,
  width: number,
  each: (start: number, end: number) => void,
): void {
  const w = Math.max(1, Math.floor(width));
  const n = to;
  let open = false; // a row is being filled: [rowStart, rowEnd), rowEnd the end of its last word
  let rowStart = from;
  let rowEnd = from;
  let i = from;
  for (;;) {
    if (open) {
      // the row takes every word ending by its last column: cut at that column, or before the word
      // that straddles it, then drop the spaces before the cut (rowEnd is a word's end: never passed)
      const limit = rowStart + w;
      let cut = limit >= n ? n : text.charCodeAt(limit) === 32 ? limit : text.lastIndexOf(' ', limit - 1);
      if (cut < rowEnd) cut = rowEnd;
      while (cut > rowEnd && text.charCodeAt(cut - 1) === 32) cut--;
      rowEnd = cut;
      i = cut;
    }
    // the next word: [start, end)
    let start = i;
    while (start < n && text.charCodeAt(start) === 32) start++;
    if (start >= n) break;
    let end = text.indexOf(' ', start);
    if (end < 0 || end > n) end = n;
    const length = end - start;
    if (length <= w) {
      // it did not fit on the open row (the row took every word that did)
      if (open) each(rowStart, rowEnd);
      open = true;
      rowStart = start;
      rowEnd = end;
      continue;
    }
    // broken across rows; it starts on this row unless that takes more rows
    let at = start;
    if (open) {
      const room = rowStart + w - start;
      const breaksHere = 1 + Math.floor((length - room - 1) / w);
      const breaksNext = Math.floor((length - 1) / w);
      if (breaksNext < breaksHere || room <= 0) each(rowStart, rowEnd);
      else {
        at = start + room;
        each(rowStart, at);
      }
    }
    for (; end - at > w; at += w) each(at, at + w);
    open = true;
    rowStart = at;
    rowEnd = end;
  }
  if (open) each(rowStart, rowEnd);
  else each(from, from);
}

/**
 * What each BMP code point seen is, for the character scan: 0 not looked at yet, {@link JOINS} a code
 * point that can join a neighbour into one cluster, else its string-width plus one. A lookup per
 * character: CLUSTER_JOINING's test over a megabyte of CJK alone took ~60 ms.
 */
const bmpClasses = new Uint8Array(0x10000);
const JOINS = 255;

/**
 * Columns of the code point at `text[i]` as {@link graphemeWidth} measures it, or -1 when it can join
 * a neighbour (a mark, ZWJ, …: the line is not one cluster per code point).
 */
function codePointWidth(text: string, i: number, codePoint: number): number {
  if (codePoint > 0xffff) {
    const char = text.slice(i, i + 2);
    return CLUSTER_JOINING.test(char) ? -1 : graphemeWidth(char);
  }
  let known = bmpClasses[codePoint]!;
  if (known === 0) {
    const char = String.fromCharCode(codePoint);
    known = CLUSTER_JOINING.test(char) ? JOINS : graphemeWidth(char) + 1;
    bmpClasses[codePoint] = known;
  }
  return known === JOINS ? -1 : known - 1;
}

/**
 * Row offsets of a line of code points that are grapheme clusters each (no combining or joining
 * marks, see {@link CLUSTER_JOINING}) and have no colour codes: CJK, most symbols, accented Latin.
 * The rows are {@link wrapLine}'s (trimming) of `text.slice(from, to)`, as pairs `[start0, end0,
 * start1, end1, …]` of offsets into `text`, each row `text.slice(start, end)`; `undefined` when the
 * line holds what this does not handle (a joining mark, a colour code, a zero-width character), to be
 * wrapped by wrapLine instead. Linear, one width lookup per code point, no string built per row.
 */
export function simpleRowBounds(text: string, from: number, to: number, width: number): number[] | undefined {
  if (text.slice(from, to).includes('\u001b')) return undefined;
  const w = Math.max(1, Math.floor(width));
  const rows: number[] = [];
  let rowStart = from;
  let rowEnd = from;
  let rowWidth = 0;
  let hasText = false;
  let pendingSpaces = 0;
  const endRow = (end: number) => {
    // spaces before a wide character that did not fit end the row: trimmed, as wrapLine trims them
    while (end > rowStart && text.charCodeAt(end - 1) === 32) end--;
    rows.push(rowStart, end);
    rowWidth = 0;
    hasText = false;
  };
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    if (code === 32) {
      pendingSpaces++;
      i++;
      continue;
    }
    // the word [start, end) and its width
    const start = i;
    let wordWidth = 0;
    while (i < to && text.charCodeAt(i) !== 32) {
      const cp = text.codePointAt(i)!;
      const size = cp > 0xffff ? 2 : 1;
      const cw = codePointWidth(text, i, cp);
      if (cw <= 0) return undefined;
      wordWidth += cw;
      i += size;
    }
    const end = i;
    const spaces = hasText ? pendingSpaces : 0;
    pendingSpaces = 0;
    if (wordWidth <= w) {
      if (hasText && rowWidth + spaces + wordWidth > w) endRow(rowEnd);
      if (hasText) rowWidth += spaces;
      else rowStart = start;
      rowWidth += wordWidth;
      hasText = true;
      rowEnd = end;
      continue;
    }
    // a word wider than a row is broken; it starts on this row unless that takes more rows (as wrapLine)
    const room = w - rowWidth - spaces;
    const breaksHere = 1 + Math.floor((wordWidth - room - 1) / w);
    const breaksNext = Math.floor((wordWidth - 1) / w);
    if (hasText && (breaksNext < breaksHere || room <= 0)) endRow(rowEnd);
    if (hasText) rowWidth += spaces;
    else rowStart = start;
    for (let at = start; at < end;) {
      const cp = text.codePointAt(at)!;
      const size = cp > 0xffff ? 2 : 1;
      const cw = codePointWidth(text, at, cp);
      if (rowWidth + cw > w && hasText) {
        endRow(at);
        rowStart = at;
      }
      hasText = true;
      rowWidth += cw;
      at += size;
    }
    rowEnd = end;
  }
  if (hasText) rows.push(rowStart, rowEnd);
  else rows.push(from, from);
  return rows;
}

/** A row without the spaces before its end (escapes after them are kept). Linear in the row's length. */
function trimRowEnd(row: string): string {
  let escapesStart = row.length;
  while (escapesStart > 0 && row[escapesStart - 1] === 'm') {
    const at = row.lastIndexOf('\u001b', escapesStart - 1);
    if (at < 0 || !/^\u001b\[[0-9;]*m$/.test(row.slice(at, escapesStart))) break;
    escapesStart = at;
  }
  let end = escapesStart;
  while (end > 0 && row[end - 1] === ' ') end--;
  return end === escapesStart ? row : row.slice(0, end) + row.slice(escapesStart);
}
