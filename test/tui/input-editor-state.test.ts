import { describe, expect, it } from 'vitest';
import {
  backspace,
  deleteForward,
  deleteWordBefore,
  editorWith,
  insertText,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveVertical,
  moveWordLeft,
  moveWordRight,
  EMPTY_EDITOR,
  type EditorState,
} from '../../src/tui/input/editor-state.js';
import { layoutEditor, wrapRows } from '../../src/tui/input/editor-layout.js';
import { AT_DRAFT, historyNewer, historyOlder } from '../../src/tui/input/prompt-history.js';

const at = (text: string, cursor: number): EditorState => ({ text, cursor });

describe('editor state: graphemes', () => {
  it('backspace removes a whole emoji with its skin tone, a family emoji, and an accented letter', () => {
    expect(backspace(editorWith('hi👍🏽'))).toEqual({ text: 'hi', cursor: 2 });
    expect(backspace(editorWith('a👨‍👩‍👧'))).toEqual({ text: 'a', cursor: 1 });
    expect(backspace(editorWith('cafe\u0301'))).toEqual({ text: 'caf', cursor: 3 });
  });

  it('left and right step over CJK and emoji as one unit', () => {
    const s = editorWith('中👍🏽x');
    expect(moveLeft(s).cursor).toBe(5); // before x
    expect(moveLeft(moveLeft(s)).cursor).toBe(1); // before the emoji (4 UTF-16 units)
    expect(moveRight(at('中👍🏽x', 1)).cursor).toBe(5);
    expect(deleteForward(at('中👍🏽x', 1))).toEqual({ text: '中x', cursor: 1 });
  });

  it('inserts at the cursor and crosses newlines one at a time', () => {
    expect(insertText(at('ac', 1), '中')).toEqual({ text: 'a中c', cursor: 2 });
    expect(backspace(at('ab\ncd', 3))).toEqual({ text: 'abcd', cursor: 2 });
    expect(moveRight(at('ab\ncd', 2)).cursor).toBe(3);
    expect(moveLeft(at('ab\ncd', 3)).cursor).toBe(2);
    expect(backspace(EMPTY_EDITOR)).toEqual(EMPTY_EDITOR);
  });
});

describe('editor state: lines and words', () => {
  it('home/end go to the ends of the logical line', () => {
    expect(moveLineStart(at('one\ntwo three', 9)).cursor).toBe(4);
    expect(moveLineEnd(at('one\ntwo three\nx', 5)).cursor).toBe(13);
  });

  it('word moves stop at word starts and ends', () => {
    expect(moveWordLeft(at('git commit -m', 13)).cursor).toBe(12);
    expect(moveWordLeft(at('git commit -m', 11)).cursor).toBe(4);
    expect(moveWordRight(at('git commit -m', 3)).cursor).toBe(10);
  });

  it('ctrl+w deletes the previous whitespace-separated word and the spaces after it', () => {
    expect(deleteWordBefore(editorWith('run ./build.sh  '))).toEqual({ text: 'run ', cursor: 4 });
    expect(deleteWordBefore(at('a b c', 3))).toEqual({ text: 'a  c', cursor: 2 });
  });
});

describe('editor state: up and down', () => {
  it('moves between logical lines keeping the column, and reports the edges', () => {
    const s = at('hello\nhi\nworld', 4); // after "hell"
    const down = moveVertical(s, 40, 1)!;
    expect(down.cursor).toBe(8); // end of "hi"
    expect(moveVertical(down, 40, 1)!.cursor).toBe(11); // "wo|rld": column 2
    expect(moveVertical(s, 40, -1)).toBeUndefined();
    expect(moveVertical(at('hello\nhi\nworld', 12), 40, 1)).toBeUndefined();
  });

  it('moves between the rows of a wrapped line, by display column', () => {
    // width 4: "abcd" / "efgh"; and CJK: "中文" (4 columns) / "ab"
    expect(moveVertical(at('abcdefgh', 6), 4, -1)!.cursor).toBe(2);
    expect(moveVertical(at('中文ab', 3), 4, -1)!.cursor).toBe(0); // column 1 is inside 中
    expect(moveVertical(at('中文ab', 4), 4, -1)!.cursor).toBe(1); // column 2: before 文
  });
});

describe('editor layout', () => {
  it('wraps after the last space that fits, hard inside long words, and CJK by columns', () => {
    const rows = (text: string, w: number) => wrapRows(text, w).map((r) => text.slice(r.start, r.end));
    expect(rows('hello world foo', 8)).toEqual(['hello ', 'world ', 'foo']);
    expect(rows('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(rows('中文中文中', 4)).toEqual(['中文', '中文', '中']);
    expect(rows('a\n\nb', 10)).toEqual(['a', '', 'b']);
  });

  it('shows 8 rows around the cursor and counts the hidden ones', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');
    const view = layoutEditor(text, text.length, 40, 8);
    expect(view.hiddenAbove).toBe(492);
    expect(view.hiddenBelow).toBe(0);
    expect(view.rows.map((r) => r.before + (r.cursor ?? '') + r.after)).toEqual([
      'line 493',
      'line 494',
      'line 495',
      'line 496',
      'line 497',
      'line 498',
      'line 499',
      'line 500 ',
    ]);
    const top = layoutEditor(text, 0, 40, 8);
    expect([top.hiddenAbove, top.hiddenBelow, top.rows[0]!.first, top.rows[0]!.cursor]).toEqual([0, 492, true, 'l']);
  });

  it('draws the grapheme under the cursor as the cursor cell', () => {
    const row = layoutEditor('a👍🏽b', 1, 40, 8).rows[0]!;
    expect([row.before, row.cursor, row.after]).toEqual(['a', '👍🏽', 'b']);
  });
});

describe('prompt history', () => {
  const history = ['first', 'second'];
  it('goes to older prompts and back down to the draft as it was left', () => {
    const up1 = historyOlder(history, AT_DRAFT, 'my draft')!;
    expect(up1.text).toBe('second');
    const up2 = historyOlder(history, up1.position, up1.text)!;
    expect(up2.text).toBe('first');
    expect(historyOlder(history, up2.position, up2.text)).toBeUndefined();
    const down1 = historyNewer(history, up2.position)!;
    expect(down1.text).toBe('second');
    const down2 = historyNewer(history, down1.position)!;
    expect(down2).toEqual({ text: 'my draft', position: AT_DRAFT });
    expect(historyNewer(history, down2.position)).toBeUndefined();
    expect(historyOlder([], AT_DRAFT, 'x')).toBeUndefined();
  });
});
