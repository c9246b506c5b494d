/**
 * A reply of megabytes while it streams: the screen shows its end, laid out from a
 * bounded window, so a frame does not grow with the reply; once finished it is shown whole.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderChatItem, STREAMING_FULL_MAX_CHARS, STREAMING_TAIL_CHARS } from '../../src/tui/render/message-lines.js';
import { wrapText } from '../../src/tui/render/text-width.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const SGR = /\u001b\[[0-9;]*m/g;
const visible = (s: string) => s.replace(SGR, '');

const item = (text: string, streaming: boolean): ChatItem => ({
  id: 'a1',
  version: String(text.length),
  role: 'assistant',
  streaming,
  tools: [],
  message: {
    id: 'a1',
    sessionId: 's',
    role: 'assistant',
    seq: 2,
    createdAt: 0,
    updatedAt: 0,
    parts: [{ type: 'text', text }],
  },
});

/** `n` numbered lines of 100 characters (with the newline). */
const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${String(i).padStart(7, '0')} ${'word '.repeat(17)}`.padEnd(99, '.')).join(
    '\n',
  );

describe('a streaming reply past 256 KiB', () => {
  it('shows a note and the last 64 KiB from a line start, wrapped to the width', () => {
    const text = lines(10_000); // ~1 MB
    const rows = renderChatItem(item(text, true), { width: 80, showThinking: false }, theme);
    const start = text.indexOf('\n', text.length - STREAMING_TAIL_CHARS) + 1;
    expect(visible(rows[0]!)).toBe(
      `… ${start.toLocaleString('en-US')} characters above; the whole reply is shown when it finishes`.slice(0, 80),
    );
    expect(rows.slice(1)).toEqual(wrapText(text.slice(start), 80));
    expect(visible(rows.at(-1)!)).toBe(wrapText(text, 80).at(-1));
    expect(rows.length).toBeLessThan(STREAMING_TAIL_CHARS / 40);
    expect(Math.max(...rows.map((r) => stringWidth(r)))).toBeLessThanOrEqual(80);
  });

  it('keeps a surrogate pair whole at the window start', () => {
    // no newline; the odd length puts the window's start on the second half of a pair
    const text = `x${'😀'.repeat(STREAMING_FULL_MAX_CHARS)}z`;
    expect(text.charCodeAt(text.length - STREAMING_TAIL_CHARS)).toBe(0xde00);
    const rows = renderChatItem(item(text, true), { width: 40, showThinking: false }, theme);
    expect(rows.slice(1).map(visible).join('')).toMatch(/^(😀)+z$/u);
  });

  it('is shown whole, as markdown, once finished', () => {
    const text = lines(3000);
    const rows = renderChatItem(item(text, false), { width: 120, showThinking: false }, theme);
    expect(rows.map(visible)).toEqual(text.split('\n'));
  });

  it('a reply under 256 KiB streams as live markdown, as before', () => {
    const text = `# Title\n\n${lines(100)}`;
    const rows = renderChatItem(item(text, true), { width: 120, showThinking: false }, theme);
    expect(visible(rows[0]!)).toBe('Title');
    expect(rows).toHaveLength(2 + 100);
  });
});
