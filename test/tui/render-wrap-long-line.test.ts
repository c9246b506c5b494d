/**
 * Wrapping stays correct for a 1 MB line (wrap-ansi and slice-ansi were quadratic, so
 * wrapping is now ours, wrap.ts). Correctness only: the speed is measured by `npm run bench -- --only tui`.
 */
import chalk from 'chalk';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { describe, expect, it } from 'vitest';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import { wrapText } from '../../src/tui/render/text-width.js';
import { wrapLine } from '../../src/tui/render/wrap.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import type { MessagePart } from '../../src/message.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const MB = 1024 * 1024;
const SGR = /\u001b\[[0-9;]*m/g;
const visible = (s: string) => s.replace(SGR, '');
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].map((g) => g.segment);

/** ~1 MB of words of varied lengths (1 to 13 letters), single spaces. */
function prose(): string {
  const words = [
    'a',
    'to',
    'the',
    'word',
    'quick',
    'jumped',
    'example',
    'wrapping',
    'linearity',
    'terminal',
    'columns',
    'paragraphs',
    'unbelievable',
  ];
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < MB; i++) {
    const word = words[(i * 7 + (i >> 3)) % words.length]!;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ');
}

describe('wrapping a 1 MB line', () => {
  it('fills each row greedily with whole words and loses none', () => {
    const line = prose();
    const rows = wrapText(line, 80);
    expect(rows.join(' ')).toBe(line);
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i]!.length).toBeLessThanOrEqual(80);
      expect(rows[i]!.startsWith(' ') || rows[i]!.endsWith(' ')).toBe(false);
      // greedy: the next row's first word would not have fitted
      if (i + 1 < rows.length) expect(rows[i]!.length + 1 + rows[i + 1]!.split(' ')[0]!.length).toBeGreaterThan(80);
    }
    expect(rows.slice(0, 2)).toEqual([
      'a wrapping to linearity the terminal word columns jumped unbelievable example a',
      'wrapping to linearity the columns quick paragraphs jumped unbelievable example a',
    ]);
  });

  it('breaks a 1 MB word into rows of exactly the width', () => {
    const line = 'x'.repeat(MB);
    const rows = wrapText(line, 80);
    expect(rows).toHaveLength(Math.ceil(MB / 80));
    expect(rows.slice(0, -1).every((row) => row.length === 80)).toBe(true);
    expect(rows.at(-1)).toBe('x'.repeat(MB % 80));
  });

  it('never splits CJK, emoji, ZWJ sequences, flags or combining marks, and fills rows to the column', () => {
    const unit = 'ab中文😀👨‍👩‍👧🇫🇷e\u0301한국어ｆｕｌｌ';
    const line = unit.repeat(Math.ceil(MB / unit.length));
    for (const width of [79, 80]) {
      const rows = wrapText(line, width);
      expect(rows.join('')).toBe(line);
      const units = graphemes(unit);
      // string-width (the reference) is slow on emoji: check every 64th row, and the last
      for (let i = 0; i < rows.length; i += i + 64 < rows.length ? 64 : Math.max(1, rows.length - 1 - i)) {
        const row = rows[i]!;
        expect(stringWidth(row)).toBeLessThanOrEqual(width);
        // a row ends where the next cluster would not fit
        if (i + 1 < rows.length)
          expect(stringWidth(row) + stringWidth(graphemes(rows[i + 1]!.slice(0, 16))[0]!)).toBeGreaterThan(width);
      }
      // the clusters at every cut are whole ones of the text
      const starts = new Set(units);
      for (const row of rows) expect(starts.has(graphemes(row.slice(0, 16))[0]!)).toBe(true);
    }
  });

  it('keeps colours across rows: each row closes what is open and the next opens it again', () => {
    chalk.level = 3;
    const words = 'styled words that go on and on '.repeat(MB / 32);
    const line = `plain start ${chalk.bold(chalk.hex('#ff0000')(words))} plain end`;
    const rows = wrapText(line, 60);
    expect(rows.map(visible).join(' ').replace(/ +/g, ' ')).toBe(visible(line).replace(/ +/g, ' '));
    expect(rows[0]).toBe(
      'plain start \u001b[1m\u001b[38;2;255;0;0mstyled words that go on and on styled words that\u001b[22m\u001b[39m',
    );
    expect(rows[1]).toBe(
      '\u001b[1m\u001b[38;2;255;0;0mgo on and on styled words that go on and on styled words\u001b[22m\u001b[39m',
    );
    for (const row of rows.slice(1, -1)) {
      expect(row.startsWith('\u001b[1m\u001b[38;2;255;0;0m')).toBe(true);
      expect(row.endsWith('\u001b[22m\u001b[39m')).toBe(true);
      expect(stringWidth(row)).toBeLessThanOrEqual(60);
    }
    expect(visible(rows.at(-1)!).endsWith('plain end')).toBe(true);
  });
});

describe("the wrapping rules are wrap-ansi's (hard mode) on ordinary lines", () => {
  chalk.level = 3;
  const cases: [string, number][] = [
    ['hello world foo', 7], // words to rows
    ['ab cdefghijkl', 5], // a long word starts on the row when that takes no more rows
    ['abcd efghijklmnop', 5], // …and on a new row when it would
    ['a  b   c', 3], // inner spaces kept, edges trimmed
    ['   leading and trailing   ', 8],
    ['中文字符测试 😀😀😀 mixed', 7],
    [`say ${chalk.red('red words here')} and ${chalk.bold('bold')}`, 9],
    [`${chalk.green('x'.repeat(25))}`, 10],
  ];
  it.each(cases)('%j at %i columns', (line, width) => {
    expect(wrapLine(line, width)).toEqual(wrapAnsi(line, width, { hard: true }).split('\n'));
  });
});

describe('a 1 MB line in the chat', () => {
  const line = prose();
  const item = (role: 'user' | 'assistant', parts: MessagePart[]): ChatItem => ({
    id: 'm1',
    version: '1',
    role,
    streaming: false,
    tools: [],
    message: { id: 'm1', sessionId: 's', role, seq: 1, createdAt: 0, updatedAt: 0, parts },
  });
  const render = (it: ChatItem) => renderChatItem(it, { width: 100, showThinking: false }, theme);

  it('as a reply: every word, in rows within the width', () => {
    const lines = render(item('assistant', [{ type: 'text', text: line }]));
    expect(lines.map(visible).join(' ')).toBe(line);
    expect(Math.max(...lines.map((l) => stringWidth(l)))).toBeLessThanOrEqual(100);
  });

  it('as a user message: every row behind the bar', () => {
    const lines = render(item('user', [{ type: 'text', text: line }]));
    expect(lines.every((l) => visible(l).startsWith('┃ '))).toBe(true);
    expect(lines.map((l) => visible(l).slice(2)).join(' ')).toBe(line);
    expect(Math.max(...lines.map((l) => stringWidth(l)))).toBeLessThanOrEqual(100);
  });

  it('in a code block: every row indented by 2 and within the width, the code kept whole', () => {
    const code = `const data = "${'x'.repeat(MB)}";`;
    const lines = render(item('assistant', [{ type: 'text', text: `\`\`\`js\n${code}\n\`\`\`` }]));
    expect(lines.every((l) => visible(l).startsWith('  '))).toBe(true);
    expect(lines.map((l) => visible(l).slice(2)).join('')).toBe(
      code.replace(/ /g, '').replace('constdata=', 'const data = '),
    );
    expect(Math.max(...lines.map((l) => stringWidth(l)))).toBeLessThanOrEqual(100);
  });
});
