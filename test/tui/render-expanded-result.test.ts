/**
 * Long results, the pure parts: an expanded result shows up to 500 lines; which result
 * the expand and pager keys act on (the newest cut one among the visible items); what the pager shows.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCallPart, ToolResultPart } from '../../src/message.js';
import { newestExpandableCall } from '../../src/tui/components/MessageList.js';
import { pagerContent, pagerPosition } from '../../src/tui/pages/PagerPage.js';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import { EXPANDED_MAX_LINES, isExpandable } from '../../src/tui/render/tool-lines.js';
import type { ChatItem, ToolCallView } from '../../src/tui/state/chat-item.js';
import { lastVisibleIndex } from '../../src/tui/state/viewport.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const CWD = '/home/me/project';
const options = { width: 60, cwd: CWD };

const call = (id: string, name: string, input: object): ToolCallPart => ({
  type: 'tool_call',
  id,
  name,
  input: JSON.stringify(input),
  finished: true,
});
const result = (c: ToolCallPart, content: string, metadata?: Record<string, unknown>): ToolResultPart => ({
  type: 'tool_result',
  toolCallId: c.id,
  name: c.name,
  content,
  metadata,
  isError: false,
});
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

function assistant(tools: ToolCallView[], id: string): ChatItem {
  return {
    id,
    version: '1',
    role: 'assistant',
    streaming: false,
    tools,
    message: {
      id,
      sessionId: 's',
      role: 'assistant',
      seq: 2,
      createdAt: 0,
      updatedAt: 0,
      parts: tools.map((t) => t.call),
    },
  };
}

describe('an expanded tool result', () => {
  it(`shows ${EXPANDED_MAX_LINES} lines, then counts the rest`, () => {
    const c = call('b', 'bash', { command: 'seq 600' });
    const view: ToolCallView = { call: c, result: result(c, numbered(600)), expanded: true };
    const lines = renderChatItem(assistant([view], 'a'), { width: 60, showThinking: false, cwd: CWD }, theme);
    expect(lines).toHaveLength(1 + EXPANDED_MAX_LINES + 1);
    expect(lines.slice(-2)).toEqual(['  line 500', '  … (100 more lines)']);
    // collapsed: the usual 10
    const collapsed = renderChatItem(
      assistant([{ ...view, expanded: false }], 'a'),
      { width: 60, showThinking: false, cwd: CWD },
      theme,
    );
    expect(collapsed.slice(-2)).toEqual(['  line 10', '  … (590 more lines)']);
  });

  it.each<[string, ToolCallView, boolean]>([
    ['a cut result', { call: call('b', 'bash', {}), result: result(call('b', 'bash', {}), numbered(11)) }, true],
    [
      'a result of 10 lines',
      { call: call('b', 'bash', {}), result: result(call('b', 'bash', {}), numbered(10)) },
      false,
    ],
    [
      'an expanded one (to collapse it)',
      { call: call('b', 'bash', {}), result: result(call('b', 'bash', {}), numbered(3)), expanded: true },
      true,
    ],
    ['a call still running', { call: call('b', 'bash', {}) }, false],
  ])('isExpandable: %s → %s', (_, view, expected) => {
    expect(isExpandable(view, options, theme)).toBe(expected);
  });
});

describe('the result the keys act on', () => {
  const long = (id: string) => {
    const c = call(id, 'bash', { command: id });
    return { call: c, result: result(c, numbered(20)) };
  };
  const short = (id: string) => {
    const c = call(id, 'bash', { command: id });
    return { call: c, result: result(c, 'ok') };
  };
  const items = [
    assistant([long('old')], 'i0'),
    assistant([long('a'), long('b'), short('c')], 'i1'),
    assistant([short('d')], 'i2'),
  ];

  it('the visible items end where the window does', () => {
    const linesOf = () => ['a', 'b', 'c'];
    expect(lastVisibleIndex({ index: 0, line: 0 }, 3, linesOf, 3)).toBe(0);
    expect(lastVisibleIndex({ index: 0, line: 0 }, 3, linesOf, 4)).toBe(1);
    expect(lastVisibleIndex({ index: 1, line: 2 }, 3, linesOf, 5)).toBe(2);
    expect(lastVisibleIndex({ index: 0, line: 0 }, 0, linesOf, 5)).toBe(-1);
  });

  it('is the newest cut result among the visible items', () => {
    expect(newestExpandableCall(items, 0, 2, options, theme)).toBe('b');
    expect(newestExpandableCall(items, 0, 0, options, theme)).toBe('old');
    expect(newestExpandableCall(items, 2, 2, options, theme)).toBeUndefined();
  });
});

describe('the pager', () => {
  it('shows a bash result whole under the call, and an edit as its diff', () => {
    const bash = call('b', 'bash', { command: 'npm test' });
    expect(pagerContent(bash, result(bash, 'all\nof it'), CWD)).toEqual({
      title: 'Bash  npm test',
      text: 'all\nof it',
    });
    const edit = call('e', 'edit', { file_path: `${CWD}/src/app.ts` });
    const diff = '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-a\n+b\n';
    expect(pagerContent(edit, result(edit, '<result>ok</result>', { diff }), CWD)).toEqual({
      title: 'Edit  src/app.ts',
      text: diff,
    });
    // a result whose call is gone: named by the result's tool name
    expect(pagerContent(undefined, result(bash, 'x'), CWD).title).toBe('Bash');
  });

  it('shows a viewed file as its text, without the wrapper and line numbers the model gets (as the list does)', () => {
    const view = call('v', 'view', { file_path: `${CWD}/src/add.js` });
    const forModel = '<file>\n     1|export function add(a, b) {\n     2|  return a + b;\n     3|}\n</file>';
    expect(pagerContent(view, result(view, forModel), CWD)).toEqual({
      title: 'View  src/add.js',
      text: 'export function add(a, b) {\n  return a + b;\n}',
    });
  });

  it('says which lines it shows', () => {
    expect(pagerPosition(0, 38, 2000)).toBe('lines 1–38 of 2,000');
    expect(pagerPosition(1990, 10, 2000)).toBe('lines 1,991–2,000 of 2,000');
    expect(pagerPosition(0, 0, 0)).toBe('empty');
  });
});
