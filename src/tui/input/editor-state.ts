/**
 * The editor's text and cursor, and every edit and cursor move, as pure functions of
 * {@link EditorState}. The cursor is a UTF-16 index into the text that always sits on a grapheme
 * boundary: left/right/backspace/delete step over a whole grapheme (an emoji with its modifiers, a
 * CJK character, a letter with its combining accents), never half of one.
 *
 * Bindings these serve (the Editor maps keys to them): home/end and ctrl+a (line start/end;
 * ctrl+e is the external editor), alt+←/→ (words), ctrl+w and alt+backspace (delete the previous
 * word), ↑/↓ (rows of a multi-line or wrapped text; at the first/last row the Editor recalls history).
 */
import { cursorRowIndex, displayWidth, graphemes, indexAtColumn, startsGrapheme, wrapRows } from './editor-layout.js';

/** How far back or ahead a grapheme boundary is looked for before segmenting the whole line (UTF-16 units). */
const BOUNDARY_WINDOW = 256;

/** The text being written and where the cursor is. */
export interface EditorState {
  text: string;
  /** UTF-16 index into `text`, 0…text.length, on a grapheme boundary */
  cursor: number;
}

/** An empty editor. */
export const EMPTY_EDITOR: EditorState = { text: '', cursor: 0 };

/** A state holding `text` with the cursor at its end. */
export function editorWith(text: string): EditorState {
  return { text, cursor: text.length };
}

function lineStartOf(text: string, cursor: number): number {
  return cursor === 0 ? 0 : text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEndOf(text: string, cursor: number): number {
  const nl = text.indexOf('\n', cursor);
  return nl < 0 ? text.length : nl;
}

/** The grapheme boundary before `cursor` (a `\n` is a grapheme of its own). */
export function previousBoundary(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const start = lineStartOf(text, cursor);
  if (start === cursor) return cursor - 1; // the newline before the line
  // segment from the nearest character that surely starts a grapheme, not from the line's start
  let from = cursor - 1;
  const limit = Math.max(start, cursor - BOUNDARY_WINDOW);
  while (from > limit && !startsGrapheme(text.charCodeAt(from))) from--;
  if (!startsGrapheme(text.charCodeAt(from))) from = start;
  const gs = graphemes(text.slice(from, cursor));
  return from + gs[gs.length - 1]![0];
}

/** The grapheme boundary after `cursor`. */
export function nextBoundary(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const end = lineEndOf(text, cursor);
  if (end === cursor) return cursor + 1; // the newline itself
  // the grapheme at the cursor ends at the latest where the next sure grapheme start is
  let to = cursor + 1;
  const limit = Math.min(end, cursor + BOUNDARY_WINDOW);
  while (to < limit && !startsGrapheme(text.charCodeAt(to))) to++;
  if (to < end && !startsGrapheme(text.charCodeAt(to))) to = end;
  const [first] = graphemes(text.slice(cursor, to));
  return cursor + first![1].length;
}

/** Inserts `str` at the cursor and puts the cursor after it. */
export function insertText(s: EditorState, str: string): EditorState {
  if (str.length === 0) return s;
  return { text: s.text.slice(0, s.cursor) + str + s.text.slice(s.cursor), cursor: s.cursor + str.length };
}

/** Deletes the grapheme before the cursor (backspace). */
export function backspace(s: EditorState): EditorState {
  if (s.cursor === 0) return s;
  const from = previousBoundary(s.text, s.cursor);
  return { text: s.text.slice(0, from) + s.text.slice(s.cursor), cursor: from };
}

/** Deletes the grapheme under the cursor (delete). */
export function deleteForward(s: EditorState): EditorState {
  if (s.cursor >= s.text.length) return s;
  const to = nextBoundary(s.text, s.cursor);
  return { text: s.text.slice(0, s.cursor) + s.text.slice(to), cursor: s.cursor };
}

/** One grapheme left. */
export function moveLeft(s: EditorState): EditorState {
  return { ...s, cursor: previousBoundary(s.text, s.cursor) };
}

/** One grapheme right. */
export function moveRight(s: EditorState): EditorState {
  return { ...s, cursor: nextBoundary(s.text, s.cursor) };
}

/** To the start of the cursor's logical line (home, ctrl+a). */
export function moveLineStart(s: EditorState): EditorState {
  return { ...s, cursor: lineStartOf(s.text, s.cursor) };
}

/** To the end of the cursor's logical line (end). */
export function moveLineEnd(s: EditorState): EditorState {
  return { ...s, cursor: lineEndOf(s.text, s.cursor) };
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const SPACE = /\s/u;

/** Start of the word before the cursor: skip non-word characters back, then word characters (alt+←). */
export function moveWordLeft(s: EditorState): EditorState {
  let i = s.cursor;
  while (i > 0 && !WORD_CHAR.test(charBefore(s.text, i))) i = previousBoundary(s.text, i);
  while (i > 0 && WORD_CHAR.test(charBefore(s.text, i))) i = previousBoundary(s.text, i);
  return { ...s, cursor: i };
}

/** End of the word after the cursor: skip non-word characters, then word characters (alt+→). */
export function moveWordRight(s: EditorState): EditorState {
  let i = s.cursor;
  while (i < s.text.length && !WORD_CHAR.test(charAt(s.text, i))) i = nextBoundary(s.text, i);
  while (i < s.text.length && WORD_CHAR.test(charAt(s.text, i))) i = nextBoundary(s.text, i);
  return { ...s, cursor: i };
}

/**
 * Deletes back to the start of the previous whitespace-separated word, as readline's ctrl+w
 * (unix-word-rubout) does: trailing spaces, then the non-space run before them.
 */
export function deleteWordBefore(s: EditorState): EditorState {
  let i = s.cursor;
  while (i > 0 && SPACE.test(charBefore(s.text, i))) i = previousBoundary(s.text, i);
  while (i > 0 && !SPACE.test(charBefore(s.text, i))) i = previousBoundary(s.text, i);
  return { text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

/**
 * Deletes from the start of the cursor's logical line to the cursor (ctrl+u, readline's
 * unix-line-discard): the whole line when the cursor is at its end. At a line's start it does nothing.
 */
export function deleteToLineStart(s: EditorState): EditorState {
  const start = lineStartOf(s.text, s.cursor);
  return { text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

function charBefore(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(previousBoundary(text, i))!);
}

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i)!);
}

/**
 * The cursor one screen row up (`-1`) or down (`1`) with the text wrapped to `width` columns,
 * keeping its display column where the row is long enough. Undefined when the cursor is already on
 * the first (up) or last (down) row: the caller then recalls history.
 */
export function moveVertical(s: EditorState, width: number, direction: -1 | 1): EditorState | undefined {
  const rows = wrapRows(s.text, width);
  const at = cursorRowIndex(rows, s.cursor);
  const target = at + direction;
  if (target < 0 || target >= rows.length) return undefined;
  const col = displayWidth(s.text.slice(rows[at]!.start, s.cursor));
  return { ...s, cursor: indexAtColumn(s.text, rows[target]!, col) };
}
