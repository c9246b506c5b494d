/**
 * The message list showing a session that holds a 1 MB line, through the real component:
 * the screen at the bottom and after page up / page down shows the rows of the full layout there.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageList } from '../../src/tui/components/MessageList.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { LineCache } from '../../src/tui/render/line-cache.js';
import { renderMarkdown } from '../../src/tui/render/markdown.js';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { bottomWindow, moveUp, windowFrom, type LinesOf } from '../../src/tui/state/viewport.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const SGR = /\u001b\[[0-9;]*m/g;
const settle = () => new Promise((r) => setTimeout(r, 50));

const item = (id: string, role: 'user' | 'assistant', text: string): ChatItem => ({
  id,
  version: '1',
  role,
  streaming: false,
  tools: [],
  message: { id, sessionId: 's', role, seq: 1, createdAt: 0, updatedAt: 0, parts: [{ type: 'text', text }] },
});

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('a session holding a 1 MB line, in the message list', () => {
  const width = 100;
  const height = 12;
  const words = 'the quick brown fox jumps over the lazy dog while the model keeps writing one very long line ';
  const line = words.repeat(Math.ceil(2 ** 20 / words.length)).slice(0, 2 ** 20);
  const items = [
    item('u1', 'user', 'Show me the big thing.'),
    item('a1', 'assistant', line),
    item('a2', 'assistant', 'That was it.'),
  ];
  // the full layout, without lazy rows: the whole reply lexed as markdown and wrapped
  const full = [
    renderChatItem(items[0]!, { width, showThinking: false }, theme),
    renderMarkdown(line, width, theme),
    ['That was it.'],
  ];
  const fullLinesOf: LinesOf = (i) => [...full[i]!, ''];
  const screen = (lines: string[]) => lines.map((l) => (l.replace(SGR, '') || ' ').trimEnd());

  it('shows the end, then each page up and down, as the full layout has them', async () => {
    const r = render(
      <InputProvider>
        <MessageList
          items={items}
          width={width}
          height={height}
          showThinking={false}
          cwd="/p"
          active
          cache={new LineCache()}
        />
      </InputProvider>,
    );
    unmount = r.unmount;
    const frame = () =>
      (r.lastFrame() ?? '')
        .replace(SGR, '')
        .split('\n')
        .map((l) => l.trimEnd());
    await settle();
    const bottom = bottomWindow(items.length, fullLinesOf, height);
    expect(frame()).toEqual(screen(bottom.lines));

    let top = bottom.top;
    for (let page = 1; page <= 3; page++) {
      r.stdin.write('\u001b[5~'); // page up
      await settle();
      top = moveUp(top, height - 2, fullLinesOf);
      const expected = screen(windowFrom(top, items.length, fullLinesOf, height).lines);
      expected[height - 1] = '  ↓ more below: pgdown / ctrl+d';
      expect(frame()).toEqual(expected);
    }
    expect(top).toEqual({ index: 1, line: full[1]!.length + 1 - (height - 2) - 3 * (height - 2) });
    for (let page = 0; page < 3; page++) {
      r.stdin.write('\u001b[6~'); // page down
      await settle();
    }
    expect(frame()).toEqual(screen(bottom.lines));
  });
});
