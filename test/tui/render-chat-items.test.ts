import { describe, expect, it } from 'vitest';
import { LineCache } from '../../src/tui/render/line-cache.js';
import { formatDuration, renderChatItem } from '../../src/tui/render/message-lines.js';
import type { MessagePart } from '../../src/message.js';
import { INTERRUPTED_REPLY } from '../../src/agent/history.js';
import type { ChatItem, ReplyFooter, ToolCallView } from '../../src/tui/state/chat-item.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

function item(role: 'user' | 'assistant', parts: MessagePart[], extra: Partial<ChatItem> = {}): ChatItem {
  const id = extra.id ?? `${role}-1`;
  return {
    id,
    version: '1',
    role,
    streaming: false,
    tools: [],
    message: { id, sessionId: 's', role, seq: 1, createdAt: 0, updatedAt: 0, parts },
    ...extra,
  };
}

const render = (i: ChatItem, width = 50, showThinking = false) => renderChatItem(i, { width, showThinking }, theme);
const thinking = Array.from({ length: 9 }, (_, n) => `thought ${n + 1}`).join('\n');

describe('user messages', () => {
  it('draws the text behind a bar, wrapped, then the attachment names', () => {
    const user = item('user', [
      { type: 'text', text: 'please fix the failing test in the parser module' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA', name: 'image.png' },
      { type: 'image', mimeType: 'image/jpeg', data: 'AAAA', name: 'shot.jpg' },
    ]);
    expect(render(user, 30)).toEqual([
      '┃ please fix the failing test',
      '┃ in the parser module',
      '┃ [image.png] [shot.jpg]',
    ]);
  });

  it("keeps the user's line breaks and markdown characters as typed", () => {
    expect(render(item('user', [{ type: 'text', text: '# not a heading\n**x**' }]))).toEqual([
      '┃ # not a heading',
      '┃ **x**',
    ]);
  });
});

describe('assistant thinking', () => {
  it('shows the last 6 lines of thinking while the message streams', () => {
    const streaming = item('assistant', [{ type: 'reasoning', thinking }], { streaming: true });
    expect(render(streaming)).toEqual(['thought 4', 'thought 5', 'thought 6', 'thought 7', 'thought 8', 'thought 9']);
  });

  it('collapses finished thinking to one line unless showThinking is on', () => {
    const done = item('assistant', [
      { type: 'reasoning', thinking },
      { type: 'text', text: 'Answer.' },
    ]);
    expect(render(done)).toEqual(['Thinking (9 lines) — ctrl+y to show', '', 'Answer.']);
    expect(render(done, 50, true)).toEqual([...thinking.split('\n'), '', 'Answer.']);
  });

  it('shows nothing for redacted thinking', () => {
    expect(
      render(
        item('assistant', [
          { type: 'reasoning', thinking: '', redactedData: 'xx' },
          { type: 'text', text: 'Hi' },
        ]),
      ),
    ).toEqual(['Hi']);
  });
});

describe('assistant text', () => {
  it('renders markdown, a streaming message with its unfinished line as written so far', () => {
    const text = 'Plan:\n\n1. read\n2. wri';
    expect(render(item('assistant', [{ type: 'text', text }], { streaming: true }))).toEqual([
      'Plan:',
      '',
      '1. read',
      '2. wri',
    ]);
    expect(render(item('assistant', [{ type: 'text', text: 'Plan:\n``' }], { streaming: true }))).toEqual(['Plan:']);
    expect(render(item('assistant', [{ type: 'text', text }]))).toEqual(['Plan:', '', '1. read', '2. wri']);
  });

  it('renders an open code fence while streaming as a code block, stable when it closes', () => {
    const open = item('assistant', [{ type: 'text', text: 'Try:\n```sh\nnpm ci\nnpm t' }], { streaming: true });
    const closed = item('assistant', [{ type: 'text', text: 'Try:\n```sh\nnpm ci\nnpm test\n```\n' }]);
    expect(render(open)).toEqual(['Try:', '', '  npm ci', '  npm t']);
    expect(render(closed)).toEqual(['Try:', '', '  npm ci', '  npm test']);
  });

  it('puts tool calls after the text in part order, with no blank line at the end', () => {
    const call = { type: 'tool_call' as const, id: 'c1', name: 'ls', input: '{}', finished: true };
    const view: ToolCallView = {
      call,
      result: { type: 'tool_result', toolCallId: 'c1', name: 'ls', content: '- src/', isError: false },
    };
    const lines = render(item('assistant', [{ type: 'text', text: 'Looking.' }, call], { tools: [view] }));
    expect(lines).toEqual(['Looking.', '', '● List  .', '  - src/']);
  });
});

describe('reply footers', () => {
  const withFooter = (footer: ReplyFooter, parts: MessagePart[] = [{ type: 'text', text: 'Done.' }]) =>
    render(item('assistant', parts, { footer })).slice(-1)[0];

  it('shows the model and duration for a normal finish', () => {
    expect(withFooter({ reason: 'end_turn', model: 'anthropic/claude-sonnet-4', durationMs: 12_345 })).toBe(
      'claude-sonnet-4 (12.3s)',
    );
    expect(withFooter({ reason: 'tool_use', model: 'openai/gpt-4.1', durationMs: 800 })).toBe('gpt-4.1 (0.8s)');
    expect(withFooter({ reason: 'max_tokens', model: 'openai/gpt-4.1', durationMs: 125_000 })).toBe('gpt-4.1 (2m 5s)');
  });

  it('names the model by its display name when it is known, as the status bar does', () => {
    expect(
      withFooter({
        reason: 'end_turn',
        model: 'anthropic/claude-sonnet-5-5',
        modelName: 'Claude Sonnet 5.5',
        durationMs: 12_345,
      }),
    ).toBe('Claude Sonnet 5.5 (12.3s)');
  });

  it('says why a reply stopped', () => {
    expect(withFooter({ reason: 'canceled', model: 'a/b', durationMs: 1 })).toBe('canceled');
    // a reply a crash cut off carries the repair's note (agent/history.ts), and is not shown as canceled by the person
    expect(
      render(
        item('assistant', [{ type: 'text', text: 'Done.' }], {
          footer: { reason: 'canceled', message: INTERRUPTED_REPLY },
        }),
      )
        .slice(2)
        .join(' '),
    ).toBe('interrupted: opencode stopped before this reply finished');
    expect(withFooter({ reason: 'error', message: 'overloaded_error:\nAnthropic is overloaded' })).toBe(
      'error: overloaded_error: Anthropic is overloaded',
    );
    expect(withFooter({ reason: 'permission_denied' })).toBe('permission denied');
    expect(withFooter({ reason: 'step_limit', message: 'reached 25 steps' })).toBe('step limit: reached 25 steps');
  });

  it('notes an end_turn that wrote nothing', () => {
    expect(render(item('assistant', [], { footer: { reason: 'end_turn', model: 'a/b', durationMs: 1000 } }))).toEqual([
      'finished without output',
    ]);
  });

  it('separates the footer from the message by one blank line', () => {
    expect(render(item('assistant', [{ type: 'text', text: 'Done.' }], { footer: { reason: 'canceled' } }))).toEqual([
      'Done.',
      '',
      'canceled',
    ]);
  });

  it('formats durations', () => {
    expect([0, 50, 9_949, 59_999, 60_000, 3_725_000].map(formatDuration)).toEqual([
      '0.0s',
      '0.1s',
      '9.9s',
      '1m 0s',
      '1m 0s',
      '62m 5s',
    ]);
  });
});

describe('LineCache', () => {
  const text = (t: string, version: string) => item('assistant', [{ type: 'text', text: t }], { id: 'm1', version });

  it('returns the same array for the same version, width and theme', () => {
    const cache = new LineCache();
    const first = cache.get(text('hello world', '1'), { width: 40, showThinking: false }, theme);
    expect(first).toEqual(['hello world']);
    expect(cache.get(text('hello world', '1'), { width: 40, showThinking: false }, theme)).toBe(first);
  });

  it('re-renders on a new version, a width change, showThinking or another theme', () => {
    const cache = new LineCache();
    const first = cache.get(text('hello world', '1'), { width: 40, showThinking: false }, theme);
    const narrow = cache.get(text('hello world', '1'), { width: 6, showThinking: false }, theme);
    expect(narrow).toEqual(['hello', 'world']);
    expect(cache.get(text('hello world!', '2'), { width: 6, showThinking: false }, theme)).toEqual(['hello', 'world!']);
    const again = cache.get(text('hello world!', '2'), { width: 40, showThinking: true }, theme);
    expect(again).not.toBe(first);
    expect(cache.get(text('hello world!', '2'), { width: 40, showThinking: true }, THEMES.dracula)).not.toBe(again);
    expect(cache.size).toBe(1);
  });

  it('re-renders when a theme file of the same name has new colours (its cacheKey)', () => {
    const cache = new LineCache();
    const opts = { width: 40, showThinking: false };
    const before = { ...THEMES.opencode, name: 'mine', cacheKey: 'mine:aaaa' };
    const after = { ...THEMES.opencode, name: 'mine', cacheKey: 'mine:bbbb' };
    const first = cache.get(text('hello world', '1'), opts, before);
    expect(cache.get(text('hello world', '1'), opts, before)).toBe(first);
    expect(cache.get(text('hello world', '1'), opts, after)).not.toBe(first);
  });

  it('evicts the least recently used items beyond maxEntries', () => {
    const cache = new LineCache(2);
    const opts = { width: 40, showThinking: false };
    const a = item('assistant', [{ type: 'text', text: 'a' }], { id: 'a' });
    const b = item('assistant', [{ type: 'text', text: 'b' }], { id: 'b' });
    const c = item('assistant', [{ type: 'text', text: 'c' }], { id: 'c' });
    const aLines = cache.get(a, opts, theme);
    const bLines = cache.get(b, opts, theme);
    expect(cache.get(a, opts, theme)).toBe(aLines); // a is now the most recent
    cache.get(c, opts, theme); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.get(a, opts, theme)).toBe(aLines);
    expect(cache.get(b, opts, theme)).not.toBe(bLines);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});

describe('a long error footer', () => {
  it('wraps instead of losing its end', () => {
    const footer: ReplyFooter = {
      reason: 'error',
      message: 'Anthropic API rejected the request (HTTP 400): prompt is too long: 300000 tokens > 200000 maximum',
    };
    const lines = renderChatItem(
      {
        id: 'm',
        version: '1',
        role: 'assistant',
        message: { id: 'm', sessionId: 's', role: 'assistant', parts: [], seq: 1, createdAt: 0, updatedAt: 0 },
        tools: [],
        footer,
        streaming: false,
      },
      { width: 40, showThinking: false },
      THEMES.opencode,
    );
    expect(lines.join(' ')).toContain('300000 tokens > 200000 maximum');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });
});
