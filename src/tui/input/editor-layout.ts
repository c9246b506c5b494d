/**
 * Where the editor's text goes on screen: graphemes (Intl.Segmenter, so an emoji or a CJK character
 * is one unit), their column widths (string-width: CJK and emoji take 2), the text wrapped into rows
 * of at most `width` columns, and the window of rows shown around the cursor. Pure.
 *
 * The wrap is our own rather than wrap-ansi's: the editor must know which string index lands in
 * which row and column to draw the cursor and to move it up and down, and wrap-ansi reports only
 * the wrapped text. It wraps the same way (after the last space that fits, or hard inside a word
 * longer than the row).
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Columns a tab is drawn as. */
export const TAB_WIDTH = 4;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Longest run handed to Intl.Segmenter at once (UTF-16 units). */
const SEGMENT_RUN_MAX = 256;

/**
 * A character before which a grapheme always breaks: printable ASCII, tab, CJK ideographs, kana,
 * Hangul syllables. (Unicode UAX #29: none of these is Extend, ZWJ, SpacingMark or a regional
 * indicator. Ignored, as too rare to cost a test per character: GB9b, no break after a Prepend
 * character, and GB6, no break between a leading jamo and a syllable.)
 */
export function startsGrapheme(c: number): boolean {
  return (
    (c >= 0x20 && c < 0x7f) ||
    c === 0x09 ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0xac00 && c <= 0xd7a3)
  );
}

/**
 * The graphemes of `line` (which holds no `\n`) as `[startIndex, text]` pairs, in order.
 *
 * Intl.Segmenter is only given short runs: in Node 20 walking its segments takes time quadratic in
 * the string's length (a 20,000-character CJK line took 9 s). Characters that always start a
 * grapheme and are followed by another such (most text) are graphemes on their own; the runs in
 * between are segmented alone, cut at most every {@link SEGMENT_RUN_MAX} units (a longer run of,
 * say, emoji only could then split one sequence at the cut: drawn a little off, never lost).
 */
export function graphemes(line: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const n = line.length;
  if (PRINTABLE_ASCII.test(line)) {
    for (let i = 0; i < n; i++) out.push([i, line[i]!]);
    return out;
  }
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (startsGrapheme(c) && (i + 1 === n || startsGrapheme(line.charCodeAt(i + 1)))) {
      out.push([i, line[i]!]);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && !startsGrapheme(line.charCodeAt(j)) && j - i < SEGMENT_RUN_MAX) j++;
    // never cut between a surrogate pair
    if (j < n && j - i >= SEGMENT_RUN_MAX && (line.charCodeAt(j) & 0xfc00) === 0xdc00) j++;
    for (const s of segmenter.segment(line.slice(i, j))) out.push([i + s.index, s.segment]);
    i = j;
  }
  return out;
}

const widthCache = new Map<string, number>();

/** Columns one grapheme takes on screen (a tab: {@link TAB_WIDTH}). */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
    if (c === 0x09) return TAB_WIDTH;
    if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7a3)) return 2;
  }
  let w = widthCache.get(g);
  if (w === undefined) {
    w = stringWidth(g);
    if (widthCache.size >= 10_000) widthCache.clear();
    widthCache.set(g, w);
  }
  return w;
}

/** One screen row: the string indices `[start, end)` of the whole text it shows. */
export interface Row {
  start: number;
  end: number;
  /** this row ends its logical line (the next character is `\n`, or the text ends) */
  lineEnd: boolean;
}

/**
 * The text cut into rows of at most `width` columns (at least 1). A logical line wraps after the
 * last space that fits, else inside the word. An empty line is one empty row.
 */
export function wrapRows(text: string, width: number): Row[] {
  const cols = Math.max(1, width);
  const rows: Row[] = [];
  let lineStart = 0;
  for (;;) {
    const nl = text.indexOf('\n', lineStart);
    const lineEndIndex = nl < 0 ? text.length : nl;
    wrapLine(text.slice(lineStart, lineEndIndex), lineStart, cols, rows);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return rows;
}

/** Row bounds relative to their line, `[start, end]`, per width and line: most lines don't change between keystrokes. */
const wrapCache = new Map<string, number[]>();

function wrapLine(line: string, offset: number, cols: number, rows: Row[]): void {
  if (line.length === 0 || (line.length <= cols && PRINTABLE_ASCII.test(line))) {
    rows.push({ start: offset, end: offset + line.length, lineEnd: true });
    return;
  }
  const key = `${cols}\u0000${line}`;
  let bounds = wrapCache.get(key);
  if (!bounds) {
    bounds = wrapBounds(line, cols);
    if (wrapCache.size >= 4_000) wrapCache.clear();
    wrapCache.set(key, bounds);
  }
  for (let k = 0; k < bounds.length; k += 2) {
    rows.push({ start: offset + bounds[k]!, end: offset + bounds[k + 1]!, lineEnd: k + 2 === bounds.length });
  }
}

/** The rows of one line as flat `[start, end, start, end, …]` indices into it. */
function wrapBounds(line: string, cols: number): number[] {
  const out: number[] = [];
  const gs = graphemes(line);
  let rowStart = 0; // grapheme index
  let rowWidth = 0;
  let lastSpace = -1; // grapheme index of the last space in the current row
  for (let i = 0; i < gs.length; i++) {
    const g = gs[i]![1];
    const w = graphemeWidth(g);
    if (rowWidth + w > cols && i > rowStart) {
      if (g === ' ') {
        // a space at the wrap point hangs at the row's end (the column kept free for the cursor)
        out.push(gs[rowStart]![0], gs[i]![0] + 1);
        rowStart = i + 1;
        rowWidth = 0;
        lastSpace = -1;
        continue;
      }
      const cut = lastSpace >= rowStart && lastSpace < i ? lastSpace + 1 : i;
      out.push(gs[rowStart]![0], gs[cut]![0]);
      rowStart = cut;
      rowWidth = 0;
      for (let j = cut; j < i; j++) rowWidth += graphemeWidth(gs[j]![1]);
      lastSpace = -1;
    }
    rowWidth += w;
    if (g === ' ') lastSpace = i;
  }
  out.push(rowStart < gs.length ? gs[rowStart]![0] : line.length, line.length);
  return out;
}

/** The row holding the cursor: the row it is inside, or at the end of when that row ends its line. */
export function cursorRowIndex(rows: readonly Row[], cursor: number): number {
  // binary search for the last row starting at or before the cursor
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid]!.start <= cursor) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Display columns of `text` (tabs counted as {@link TAB_WIDTH}). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let w = 0;
  for (const [, g] of graphemes(text)) w += graphemeWidth(g);
  return w;
}

/**
 * The string index in `row` closest to display column `col` (never inside a grapheme; at most the
 * row's end, or just before a wrapped row's last grapheme boundary so the cursor stays in the row).
 */
export function indexAtColumn(text: string, row: Row, col: number): number {
  const gs = graphemes(text.slice(row.start, row.end));
  let w = 0;
  for (let i = 0; i < gs.length; i++) {
    const [idx, g] = gs[i]!;
    const gw = graphemeWidth(g);
    if (w + gw > col) return row.start + idx;
    w += gw;
  }
  // past the row's text: its end, but a wrapped row's end is the next row's start
  if (!row.lineEnd && gs.length > 0) return row.start + gs[gs.length - 1]![0];
  return row.end;
}

/** One row as drawn: the text before the cursor, the cursor cell, the text after. */
export interface RowView {
  before: string;
  /** the grapheme under the cursor (a space at a line's end); absent on rows without the cursor */
  cursor?: string;
  after: string;
  /** the first row of the whole text (it gets the `>` prompt) */
  first: boolean;
}

/** What the editor draws: at most `maxRows` rows and how many are hidden above and below. */
export interface EditorView {
  rows: RowView[];
  hiddenAbove: number;
  hiddenBelow: number;
}

const showTabs = (s: string) => (s.includes('\t') ? s.replaceAll('\t', ' '.repeat(TAB_WIDTH)) : s);

/**
 * The rows to draw for `text` with the cursor at `cursor` (a string index), wrapped to `width`
 * columns (the caller keeps one more column free for the cursor at a row's end), showing at most
 * `maxRows` rows around the cursor. `showCursor` false draws no cursor cell.
 */
export function layoutEditor(
  text: string,
  cursor: number,
  width: number,
  maxRows: number,
  showCursor = true,
): EditorView {
  const rows = wrapRows(text, width);
  const at = cursorRowIndex(rows, cursor);
  const visible = Math.max(1, maxRows);
  const half = Math.floor(visible / 2);
  const first = Math.max(0, Math.min(at - half, rows.length - visible));
  const last = Math.min(rows.length, first + visible);
  const out: RowView[] = [];
  for (let r = first; r < last; r++) {
    const row = rows[r]!;
    const slice = text.slice(row.start, row.end);
    if (!showCursor || r !== at) {
      out.push({ before: showTabs(slice), after: '', first: r === 0 });
      continue;
    }
    const local = cursor - row.start;
    const [next] = local < slice.length ? graphemes(slice.slice(local)) : [];
    const under = next ? next[1] : ' ';
    out.push({
      before: showTabs(slice.slice(0, local)),
      cursor: under === '\t' ? ' ' : under,
      // a tab under the cursor: one cursor cell and the rest of its columns
      after:
        (under === '\t' ? ' '.repeat(TAB_WIDTH - 1) : '') + showTabs(slice.slice(local + (next ? under.length : 0))),
      first: r === 0,
    });
  }
  return { rows: out, hiddenAbove: first, hiddenBelow: rows.length - last };
}
