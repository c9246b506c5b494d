/**
 * The collapsed thinking line names the key in effect for messages.toggle_thinking,
 * and the line cache draws it again when that key changes.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { LineCache } from '../../src/tui/render/line-cache.js';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const done: ChatItem = {
  id: 'a1',
  version: '1',
  role: 'assistant',
  streaming: false,
  tools: [],
  message: {
    id: 'a1',
    sessionId: 's',
    role: 'assistant',
    seq: 1,
    createdAt: 0,
    updatedAt: 0,
    parts: [
      { type: 'reasoning', thinking: 'one\ntwo' },
      { type: 'text', text: 'Answer.' },
    ],
  },
};

describe('the collapsed thinking line', () => {
  it.each([
    [undefined, 'Thinking (2 lines) — ctrl+y to show'],
    ['alt+t', 'Thinking (2 lines) — alt+t to show'],
    ['', 'Thinking (2 lines)'], // unbound: no key to name
  ])('with thinkingKey %j reads %j', (thinkingKey, line) => {
    expect(
      renderChatItem(
        done,
        { width: 50, showThinking: false, ...(thinkingKey !== undefined && { thinkingKey }) },
        theme,
      ),
    ).toEqual([line, '', 'Answer.']);
  });

  it('is drawn again from the cache when the key changes', () => {
    const cache = new LineCache();
    expect(cache.get(done, { width: 50, showThinking: false, thinkingKey: 'ctrl+y' }, theme).at(0)).toContain(
      'ctrl+y to show',
    );
    expect(cache.get(done, { width: 50, showThinking: false, thinkingKey: 'alt+t' }, theme).at(0)).toContain(
      'alt+t to show',
    );
  });
});
