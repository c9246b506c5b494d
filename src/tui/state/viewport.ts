/**
 * Which lines of the message list are on screen. Pure and lazy: it asks for the lines of only the
 * items it walks over, so a frame costs the visible lines, not the history. The list
 * is a sequence of items, each a block of lines; a position is (item index, line within it).
 *
 * The view either follows the bottom (new output stays in sight) or is anchored at a top position
 * the person scrolled to, so output arriving below does not move what they are reading.
 */
import type { Rows } from '../render/rows.js';

/** A line of the list: item `index`, its line `line`. */
export interface ListPosition {
  index: number;
  line: number;
}

/**
 * Rows of item `index` (already wrapped to the width): an array, or rows made when read (a huge item,
 * render/rows.ts); only `length` and the rows a window shows are asked for.
 */
export type LinesOf = (index: number) => Rows;

export interface VisibleWindow {
  /** the first visible line */
  top: ListPosition;
  /** at most `height` lines */
  lines: string[];
  /** the last line of the list is visible */
  atBottom: boolean;
}

/** The last `height` lines of the list. */
export function bottomWindow(count: number, linesOf: LinesOf, height: number): VisibleWindow {
  const chunks: string[][] = [];
  let need = height;
  let index = count - 1;
  let topLine = 0;
  for (; index >= 0 && need > 0; index--) {
    const lines = linesOf(index);
    if (lines.length >= need) {
      topLine = lines.length - need;
      chunks.push(lines.slice(topLine));
      need = 0;
      break;
    }
    chunks.push(lines.slice());
    need -= lines.length;
  }
  const lines = chunks.reverse().flat();
  const top = need > 0 || index < 0 ? { index: 0, line: 0 } : { index, line: topLine };
  return { top, lines, atBottom: true };
}

/** `height` lines from `top` down; `atBottom` when the list ends within them. */
export function windowFrom(top: ListPosition, count: number, linesOf: LinesOf, height: number): VisibleWindow {
  const lines: string[] = [];
  let { index, line } = clamp(top, count, linesOf);
  const start = { index, line };
  while (index < count && lines.length < height) {
    const block = linesOf(index);
    const take = Math.min(block.length - line, height - lines.length);
    if (take > 0) lines.push(...block.slice(line, line + take));
    line += Math.max(0, take);
    if (line >= block.length) {
      index++;
      line = 0;
    }
  }
  return { top: start, lines, atBottom: index >= count };
}

/**
 * The index of the last item with a line in the window of `height` lines from `top` (the window
 * {@link windowFrom} or {@link bottomWindow} gives); -1 for an empty list.
 */
export function lastVisibleIndex(top: ListPosition, count: number, linesOf: LinesOf, height: number): number {
  if (count === 0) return -1;
  let { index, line } = clamp(top, count, linesOf);
  let left = Math.max(1, height);
  for (;;) {
    left -= linesOf(index).length - line;
    if (left <= 0 || index === count - 1) return index;
    index++;
    line = 0;
  }
}

/** The position `n` lines above `pos` (clamped at the top). */
export function moveUp(pos: ListPosition, n: number, linesOf: LinesOf): ListPosition {
  let { index, line } = pos;
  let left = n;
  while (left > 0) {
    if (line >= left) return { index, line: line - left };
    left -= line;
    if (index === 0) return { index: 0, line: 0 };
    index--;
    line = linesOf(index).length;
  }
  return { index, line };
}

/** The position `n` lines below `pos` (clamped at the last line). */
export function moveDown(pos: ListPosition, n: number, count: number, linesOf: LinesOf): ListPosition {
  let { index, line } = pos;
  let left = n;
  while (left > 0 && index < count) {
    const length = linesOf(index).length;
    const rest = length - line;
    if (rest > left) return { index, line: line + left };
    left -= rest;
    if (index === count - 1) return { index, line: Math.max(0, length - 1) };
    index++;
    line = 0;
  }
  return { index, line };
}

function clamp(pos: ListPosition, count: number, linesOf: LinesOf): ListPosition {
  if (count === 0) return { index: 0, line: 0 };
  const index = Math.min(Math.max(0, pos.index), count - 1);
  const length = linesOf(index).length;
  return { index, line: Math.min(Math.max(0, pos.line), Math.max(0, length - 1)) };
}
