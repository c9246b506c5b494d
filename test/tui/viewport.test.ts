/**
 * The message list's viewport: only the visible lines are asked for, scrolling anchors the view,
 * and the bottom window follows new output.
 */
import { describe, expect, it } from 'vitest';
import { bottomWindow, moveDown, moveUp, windowFrom } from '../../src/tui/state/viewport.js';

/** items of 3 lines each: `i:0`, `i:1`, `i:2`; records which items were asked for */
function list(count: number) {
  const asked = new Set<number>();
  const linesOf = (i: number) => {
    asked.add(i);
    return [`${i}:0`, `${i}:1`, `${i}:2`];
  };
  return { count, linesOf, asked };
}

describe('viewport', () => {
  it('the bottom window shows the last lines and asks only for the items it shows', () => {
    const l = list(2000);
    const view = bottomWindow(l.count, l.linesOf, 5);
    expect(view.lines).toEqual(['1998:1', '1998:2', '1999:0', '1999:1', '1999:2']);
    expect(view.top).toEqual({ index: 1998, line: 1 });
    expect([...l.asked].sort()).toEqual([1998, 1999]);
  });

  it('a short list starts at the top', () => {
    const l = list(1);
    expect(bottomWindow(l.count, l.linesOf, 5)).toEqual({
      top: { index: 0, line: 0 },
      lines: ['0:0', '0:1', '0:2'],
      atBottom: true,
    });
  });

  it('moving up and down crosses item boundaries and clamps at both ends', () => {
    const l = list(10);
    expect(moveUp({ index: 5, line: 1 }, 4, l.linesOf)).toEqual({ index: 4, line: 0 });
    expect(moveUp({ index: 1, line: 0 }, 100, l.linesOf)).toEqual({ index: 0, line: 0 });
    expect(moveDown({ index: 4, line: 0 }, 4, l.count, l.linesOf)).toEqual({ index: 5, line: 1 });
    expect(moveDown({ index: 8, line: 0 }, 100, l.count, l.linesOf)).toEqual({ index: 9, line: 2 });
  });

  it('a window from an anchor says whether the end is in sight', () => {
    const l = list(10);
    expect(windowFrom({ index: 2, line: 2 }, l.count, l.linesOf, 3)).toEqual({
      top: { index: 2, line: 2 },
      lines: ['2:2', '3:0', '3:1'],
      atBottom: false,
    });
    expect(windowFrom({ index: 9, line: 0 }, l.count, l.linesOf, 3).atBottom).toBe(true);
  });

  it('an anchored window does not move when items are appended below it', () => {
    const before = list(10);
    const after = list(11);
    const top = { index: 3, line: 1 };
    expect(windowFrom(top, after.count, after.linesOf, 4).lines).toEqual(
      windowFrom(top, before.count, before.linesOf, 4).lines,
    );
  });
});
