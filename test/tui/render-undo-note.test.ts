/**
 * An undo or redo note (a `user` message whose text part has `note`) is drawn muted behind
 * `↶ ` / `↷ `, wrapped under its first line, never behind the person's `┃ ` bar.
 */
import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import type { TextPart } from '../../src/message.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

function userItem(part: TextPart): ChatItem {
  return {
    id: 'n1',
    version: '1',
    role: 'user',
    streaming: false,
    tools: [],
    message: {
      id: 'n1',
      sessionId: 's',
      role: 'user',
      seq: 3,
      createdAt: 0,
      updatedAt: 0,
      parts: [part, { type: 'finish', reason: 'end_turn', time: 0 }],
    },
  };
}

describe('undo notes in the message list', () => {
  it('draws an undo note muted behind ↶, its wrapped lines indented under the text', () => {
    const note = userItem({
      type: 'text',
      text: "The user undid the last turn's file changes: a.ts restored.",
      note: 'undo',
    });
    const lines = renderChatItem(note, { width: 40, showThinking: false }, theme);
    expect(lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual([
      "↶ The user undid the last turn's file",
      '  changes: a.ts restored.',
    ]);
    expect(lines[0]).toBe(chalk.hex(theme.textMuted)("↶ The user undid the last turn's file"));
  });

  it('draws a redo note behind ↷; a message the person typed keeps its bar', () => {
    const redo = userItem({
      type: 'text',
      text: 'The user redid the file changes they had undone: a.ts changed again.',
      note: 'redo',
    });
    expect(
      renderChatItem(redo, { width: 200, showThinking: false }, theme).map((l) => l.replace(/\u001b\[[0-9;]*m/g, '')),
    ).toEqual(['↷ The user redid the file changes they had undone: a.ts changed again.']);
    const typed = userItem({ type: 'text', text: 'The user undid nothing' });
    expect(
      renderChatItem(typed, { width: 200, showThinking: false }, theme).map((l) => l.replace(/\u001b\[[0-9;]*m/g, '')),
    ).toEqual(['┃ The user undid nothing']);
  });
});
