/**
 * A session holding a 1 MB line opens with only the shown rows laid out: the rows of a
 * huge item are found by a scan and cut when read. These tests hold the lazy rows to the full layout:
 * the rows shown at the bottom, after paging up and in the middle equal those of laying the item out
 * whole, as the renderer did before.
 */
import chalk from 'chalk';
import { Lexer } from 'marked';
import { afterEach, describe, expect, it, vi } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import { HUGE_TEXT_CHARS, hugeTextRows, LazyWrappedText } from '../../src/tui/render/lazy-rows.js';
import { LineCache } from '../../src/tui/render/line-cache.js';
import { renderMarkdown } from '../../src/tui/render/markdown.js';
import { layoutChatItem, renderChatItem } from '../../src/tui/render/message-lines.js';
import { concatRows, mapRows, RowSeq, type Rows } from '../../src/tui/render/rows.js';
import { wrapText } from '../../src/tui/render/text-width.js';
import { wrapLine } from '../../src/tui/render/wrap.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { bottomWindow, moveDown, moveUp, windowFrom, type LinesOf } from '../../src/tui/state/viewport.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const MB = 1024 * 1024;

/** `chars` characters of prose-like ASCII words, no newline (the bench's line). */
const prose = (chars = MB) => {
  const words = 'the quick brown fox jumps over the lazy dog while the model keeps writing one very long line ';
  return words.repeat(Math.ceil(chars / words.length)).slice(0, chars);
};

const item = (id: string, role: 'user' | 'assistant', text: string): ChatItem => ({
  id,
  version: '1',
  role,
  streaming: false,
  tools: [],
  message: { id, sessionId: 's', role, seq: 1, createdAt: 0, updatedAt: 0, parts: [{ type: 'text', text }] },
});

afterEach(() => vi.restoreAllMocks());

describe('LazyWrappedText gives wrapText’s rows', () => {
  const cases: [string, string][] = [
    ['a 1 MB line of prose', prose()],
    ['a 300 KB word with no space (minified code)', 'x'.repeat(300_000)],
    [
      'short, empty, indented and long lines',
      `short\n\n    indented ${prose(5000)}\nend  with spaces   \n${' '.repeat(30)}`,
    ],
    ['an indentation that leaves no room', `${' '.repeat(70)}${prose(2000)}`],
    ['CJK and emoji (wrapped by wrapText itself)', `${'漢字かな'.repeat(500)}\n${'👩‍💻 '.repeat(300)}`],
    ['colour codes, tabs, CRLF and a cursor move', `\u001b[31mred ${prose(3000)}\u001b[39m\r\n\tcode\u001b[2J after`],
    ['a trailing newline', `${prose(500)}\n`],
  ];
  for (const [name, text] of cases) {
    it(name, () => {
      for (const width of [1, 7, 80, 120]) {
        const lazy = new LazyWrappedText(text, width);
        const full = wrapText(text, width);
        expect(lazy.length).toBe(full.length);
        expect(lazy.slice()).toEqual(full);
        expect([lazy.at(0), lazy.at(full.length - 1), lazy.at(full.length), lazy.at(-1)]).toEqual([
          full[0],
          full.at(-1),
          undefined,
          undefined,
        ]);
      }
    });
  }
});

describe('RowSeq and mapRows read like one array', () => {
  it('at, slice (negative and out-of-range bounds) and length across parts', () => {
    const lazy = new LazyWrappedText('alpha beta gamma delta', 10);
    const seq: Rows = new RowSeq([['a', 'b'], [], mapRows(lazy, (r) => `<${r}>`), ['z']]);
    const array = ['a', 'b', '<alpha beta>', '<gamma>', '<delta>', 'z'];
    expect(seq.length).toBe(6);
    expect(seq.slice()).toEqual(array);
    expect([seq.slice(1, 4), seq.slice(-2), seq.slice(4, 99), seq.slice(5, 2)]).toEqual([
      array.slice(1, 4),
      array.slice(-2),
      array.slice(4, 99),
      [],
    ]);
    expect([0, 2, 4, 5, 6].map((i) => seq.at(i))).toEqual(['a', '<alpha beta>', '<delta>', 'z', undefined]);
    expect(concatRows(['x'], [''])).toEqual(['x', '']);
    expect(concatRows(seq, ['']).slice(-2)).toEqual(['z', '']);
  });
});

describe('a 1 MB reply in the message list', () => {
  const width = 120;
  const height = 40;
  const line = prose();
  const items = [
    item('u1', 'user', 'Show me the big thing.'),
    item('a1', 'assistant', line),
    item('a2', 'assistant', 'That was it.'),
  ];
  /** The list's rows as MessageList builds them: the cached item's rows and a blank row between items. */
  const lazyLinesOf = (): LinesOf => {
    const cache = new LineCache();
    return (i) => concatRows(cache.get(items[i]!, { width, showThinking: false }, theme), ['']);
  };
  /** The full layout, without lazy rows: the whole reply lexed as markdown and wrapped. */
  const full = [
    renderChatItem(items[0]!, { width, showThinking: false }, theme),
    renderMarkdown(line, width, theme),
    renderMarkdown('That was it.', width, theme),
  ];
  const fullLinesOf: LinesOf = (i) => [...full[i]!, ''];

  it('is laid out lazily: rows, not an array, and never lexed as markdown', () => {
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    const rows = layoutChatItem(items[1]!, { width, showThinking: false }, theme);
    expect(Array.isArray(rows)).toBe(false);
    expect(rows.length).toBe(full[1]!.length);
    expect(lex).not.toHaveBeenCalled();
  });

  it('shows at the bottom the rows of the full layout', () => {
    const lazy = bottomWindow(items.length, lazyLinesOf(), height);
    expect(lazy).toEqual(bottomWindow(items.length, fullLinesOf, height));
    // the last reply and its blank row take 2 rows; the other 38 are the end of the 1 MB reply and its blank row
    expect(lazy.top).toEqual({ index: 1, line: full[1]!.length + 1 - (height - 2) });
    expect(lazy.lines.slice(0, 37)).toEqual(full[1]!.slice(-37));
  });

  it('shows after each page up, and back down, the rows of the full layout at that position', () => {
    const lazyOf = lazyLinesOf();
    let lazyTop = bottomWindow(items.length, lazyOf, height).top;
    let fullTop = bottomWindow(items.length, fullLinesOf, height).top;
    for (let page = 0; page < 5; page++) {
      lazyTop = moveUp(lazyTop, height - 2, lazyOf);
      fullTop = moveUp(fullTop, height - 2, fullLinesOf);
      expect(lazyTop).toEqual(fullTop);
      expect(windowFrom(lazyTop, items.length, lazyOf, height)).toEqual(
        windowFrom(fullTop, items.length, fullLinesOf, height),
      );
    }
    lazyTop = moveDown(lazyTop, 3 * (height - 2), items.length, lazyOf);
    fullTop = moveDown(fullTop, 3 * (height - 2), items.length, fullLinesOf);
    expect(windowFrom(lazyTop, items.length, lazyOf, height)).toEqual(
      windowFrom(fullTop, items.length, fullLinesOf, height),
    );
  });

  it('shows the middle and the top of the reply as the full layout does', () => {
    const lazyOf = lazyLinesOf();
    for (const top of [
      { index: 1, line: 4321 },
      { index: 0, line: 0 },
    ]) {
      expect(windowFrom(top, items.length, lazyOf, height)).toEqual(windowFrom(top, items.length, fullLinesOf, height));
    }
  });
});

describe('a 1 MB user message', () => {
  it('is its text wrapped behind the bar, row for row', () => {
    const line = prose();
    const rows = layoutChatItem(item('u1', 'user', line), { width: 100, showThinking: false }, theme);
    const bar = chalk.hex(theme.secondary)('┃ ');
    const full = wrapText(line, 98).map((l) => bar + chalk.hex(theme.text)(l));
    expect(Array.isArray(rows)).toBe(false);
    expect(rows.length).toBe(full.length);
    expect(rows.slice(-40)).toEqual(full.slice(-40));
    expect(rows.slice(1000, 1040)).toEqual(full.slice(1000, 1040));
  });
});

describe('a text part past 256 KiB', () => {
  it('is drawn as the markdown renderer draws plain paragraphs and fenced code, without lexing', () => {
    const text = [
      'Here is the data, as asked.',
      '```js\nconst small = 1;\n```',
      prose(HUGE_TEXT_CHARS),
      '```\n' + `const data = "${'x'.repeat(300_000)}";\n  second(line);` + '\n```',
      'That was all of it.',
    ].join('\n\n\n');
    expect(text.length).toBeGreaterThan(HUGE_TEXT_CHARS);
    const full = renderMarkdown(text, 100, theme);
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    const rows = hugeTextRows(text, 100, theme);
    expect(rows.slice()).toEqual(full);
    expect(lex).not.toHaveBeenCalled();
  });

  it('keeps an unclosed code block open to the end, as markdown does', () => {
    const text = `${prose(HUGE_TEXT_CHARS)}\n\n~~~\n${'y'.repeat(70_000)}\nlast\n`;
    expect(hugeTextRows(text, 60, theme).slice()).toEqual(renderMarkdown(text, 60, theme));
  });

  it('shows markdown syntax as typed: headings keep their marks (the documented cost)', () => {
    const rows = hugeTextRows(`# Title\n\n${prose(HUGE_TEXT_CHARS)}`, 80, theme);
    expect(rows.at(0)).toBe('# Title');
    expect(rows.at(1)).toBe('');
  });
});

describe('1 MB of thinking, shown (ctrl+y)', () => {
  it('is its text wrapped in the muted italic style, row for row, then the reply', () => {
    const thinking = prose();
    const reply: ChatItem = {
      ...item('a1', 'assistant', ''),
      message: {
        id: 'a1',
        sessionId: 's',
        role: 'assistant',
        seq: 1,
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'reasoning', thinking },
          { type: 'text', text: 'Done.' },
        ],
      },
    };
    const rows = layoutChatItem(reply, { width: 80, showThinking: true }, theme);
    const style = chalk.italic.hex(theme.textMuted);
    const full = [...wrapText(thinking, 80).map((l) => style(l)), '', 'Done.'];
    expect(Array.isArray(rows)).toBe(false);
    expect(rows.length).toBe(full.length);
    expect(rows.slice(-45)).toEqual(full.slice(-45));
    expect(rows.slice(0, 3)).toEqual(full.slice(0, 3));
  });
});

describe('rows found by the scans are those of the wrapping they stand for', () => {
  /** A deterministic generator (mulberry32): the same lines on every run. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it('printable ASCII, a row at a time: wrap-ansi’s (hard mode) on 3,000 random lines of words, runs of spaces and words wider than the row, at widths 2–30', () => {
    const next = random(10);
    const differences: string[] = [];
    for (let n = 0; n < 3000; n++) {
      let line = '';
      const words = Math.floor(next() * 12);
      for (let i = 0; i < words; i++) {
        line += ' '.repeat(next() < 0.8 ? 1 : Math.floor(next() * 5));
        line += 'abcdefghijklmnopqrstuvwxyz0123456789'.slice(0, 1 + Math.floor(next() * (next() < 0.2 ? 36 : 8)));
      }
      const width = 2 + Math.floor(next() * 29);
      const expected = wrapAnsi(line, width, { hard: true }).split('\n');
      if (
        JSON.stringify(new LazyWrappedText(line, width).slice()) !== JSON.stringify(wrapText(line, width)) ||
        JSON.stringify(wrapLine(line, width)) !== JSON.stringify(expected)
      ) {
        differences.push(`${JSON.stringify(line)} at ${width}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('and lines of wide and accented characters, scanned a character at a time, are wrapText’s', () => {
    const next = random(20);
    const alphabet = ['漢', '字', 'か', 'な', 'é', 'ß', 'a', 'b', '→', '█', '𠀋', '\u200b', 'e\u0301'];
    const differences: string[] = [];
    for (let n = 0; n < 3000; n++) {
      let line = ' '.repeat(next() < 0.2 ? Math.floor(next() * 6) : 0);
      const words = Math.floor(next() * 10);
      for (let i = 0; i < words; i++) {
        if (i > 0) line += ' '.repeat(next() < 0.8 ? 1 : Math.floor(next() * 4));
        const length = 1 + Math.floor(next() * (next() < 0.2 ? 40 : 6));
        // mostly characters the scan handles; now and then a zero-width space or a combining mark
        for (let k = 0; k < length; k++)
          line += alphabet[Math.floor(next() * (next() < 0.97 ? alphabet.length - 2 : alphabet.length))];
      }
      const width = 2 + Math.floor(next() * 29);
      if (JSON.stringify(new LazyWrappedText(line, width).slice()) !== JSON.stringify(wrapText(line, width)))
        differences.push(`${JSON.stringify(line)} at ${width}`);
    }
    expect(differences).toEqual([]);
  });
});
