/**
 * The pulse's words: what `describeActivity` says for each state of a reply, built
 * through the real SessionView from messages as the agent stores them; the retry countdown; the
 * elapsed time and the whole line.
 */
import { describe, expect, it } from 'vitest';
import type { Message, MessagePart } from '../../src/message.js';
import { ACTIVITY_LABELS, describeActivity, retryLabel } from '../../src/tui/state/activity.js';
import { SessionView } from '../../src/tui/state/session-view.js';
import { formatElapsed, pulseText } from '../../src/tui/components/Pulse.js';
import type { PermissionRequest } from '../../src/permission/types.js';

let seq = 0;
function message(role: Message['role'], parts: MessagePart[], id = `m${++seq}`): Message {
  return { id, sessionId: 's', role, parts, seq: ++seq, createdAt: 1000, updatedAt: 1000 };
}
const call = (id: string, name: string, input: object, finished = true): MessagePart => ({
  type: 'tool_call',
  id,
  name,
  input: JSON.stringify(input),
  finished,
});
const finish = (reason: 'tool_use' | 'end_turn' = 'tool_use'): MessagePart => ({ type: 'finish', reason, time: 2000 });

/** The label for a session holding `messages` while a reply runs. */
function label(messages: Message[], permission?: PermissionRequest): string {
  const view = new SessionView('s');
  view.setRunning(true);
  for (const m of messages) view.upsert(m);
  return describeActivity(view.items(), { permission, cwd: '/project' });
}

const user = () => message('user', [{ type: 'text', text: 'go' }, finish('end_turn')]);

describe('describeActivity', () => {
  it.each<[string, () => Message[], string]>([
    ['the request is sent, nothing back yet', () => [user(), message('assistant', [])], 'Thinking…'],
    ['no assistant message yet', () => [user()], 'Thinking…'],
    ['reasoning streams', () => [user(), message('assistant', [{ type: 'reasoning', thinking: 'hmm' }])], 'Thinking…'],
    ['text streams', () => [user(), message('assistant', [{ type: 'text', text: 'Here is' }])], 'Writing…'],
    [
      'the model writes a tool call',
      () => [
        user(),
        message('assistant', [
          {
            type: 'tool_call',
            id: 'c1',
            name: 'edit',
            input: '{"file_path":"/project/src/app.ts","old_',
            finished: false,
          },
        ]),
      ],
      'Preparing edit: src/app.ts',
    ],
    [
      'a tool runs',
      () => [user(), message('assistant', [call('c1', 'bash', { command: 'npm test' }), finish()])],
      'Running bash: npm test',
    ],
    [
      'three run at once, one finished',
      () => [
        user(),
        message('assistant', [
          call('c1', 'grep', { pattern: 'TODO' }),
          call('c2', 'glob', { pattern: '*.ts' }),
          call('c3', 'ls', {}),
          finish(),
        ]),
        message('tool', [{ type: 'tool_result', toolCallId: 'c2', name: 'glob', content: 'a.ts', isError: false }]),
      ],
      'Running grep: TODO (+1 more)',
    ],
    [
      'the tools finished, the next request waits',
      () => [
        user(),
        message('assistant', [call('c1', 'bash', { command: 'ls' }), finish()]),
        message('tool', [{ type: 'tool_result', toolCallId: 'c1', name: 'bash', content: 'a', isError: false }]),
      ],
      'Thinking…',
    ],
  ])('%s: %s', (_, messages, expected) => {
    expect(label(messages())).toBe(expected);
  });

  it('a permission request waiting names its tool, whatever else runs', () => {
    const request = {
      id: 'p1',
      sessionId: 's',
      toolName: 'bash',
      action: 'execute',
      description: 'rm x',
      params: {},
    } as unknown as PermissionRequest;
    expect(label([user(), message('assistant', [call('c1', 'bash', { command: 'rm x' }), finish()])], request)).toBe(
      'Waiting for permission: bash',
    );
  });

  it("a sub-agent's running tool follows its call after ›", () => {
    const child = new SessionView('child');
    child.setRunning(true);
    child.upsert(message('user', [{ type: 'text', text: 'find' }, finish('end_turn')]));
    child.upsert(message('assistant', [call('k1', 'grep', { pattern: 'config' }), finish()]));
    const view = new SessionView('s', (id) => (id === 'c1' ? child.items() : undefined));
    view.setRunning(true);
    view.upsert(user());
    view.upsert(message('assistant', [call('c1', 'agent', { prompt: 'Find where the config is loaded' }), finish()]));
    expect(describeActivity(view.items())).toBe(
      'Running agent: Find where the config is loaded › Running grep: config',
    );
  });

  it('a long key parameter is cut at 60 characters', () => {
    const long = 'x'.repeat(100);
    expect(label([user(), message('assistant', [call('c1', 'bash', { command: long }), finish()])])).toBe(
      `Running bash: ${'x'.repeat(59)}…`,
    );
  });
});

describe('the pulse line', () => {
  it('counts a retry down in whole seconds, rounded up', () => {
    const retry = { untilMs: 10_000, reason: 'overloaded (HTTP 529)', attempt: 1, maxRetries: 8 };
    expect(retryLabel(retry, 2_000)).toBe('Retrying in 8 s (overloaded, HTTP 529)');
    expect(retryLabel(retry, 2_001)).toBe('Retrying in 8 s (overloaded, HTTP 529)');
    expect(retryLabel(retry, 9_999)).toBe('Retrying in 1 s (overloaded, HTTP 529)');
    expect(ACTIVITY_LABELS.retrying(3, 'rate limited')).toBe('Retrying in 3 s (rate limited)');
  });

  it.each([
    [0, '0s'],
    [999, '0s'],
    [59_999, '59s'],
    [80_000, '1m 20s'],
    [3_725_000, '1h 2m'],
  ])('formats %d ms elapsed as %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });

  it('reads label · elapsed · key; the retry countdown replaces the label while it lasts, then the label is back', () => {
    const activity = {
      label: 'Thinking…',
      startedAt: 1_000,
      retry: { untilMs: 20_000, reason: 'overloaded', attempt: 2, maxRetries: 8 },
    };
    expect(pulseText(activity, 12_000, 'esc')).toBe('Retrying in 8 s (overloaded) · 11s · esc to interrupt');
    expect(pulseText(activity, 81_000, 'esc')).toBe('Thinking… · 1m 20s · esc to interrupt');
    expect(pulseText({ label: 'Running bash: npm test', startedAt: 0 }, 5_000, 'esc')).toBe(
      'Running bash: npm test · 5s · esc to interrupt',
    );
  });
});
