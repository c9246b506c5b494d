/**
 * A session's messages as ACP updates: only what is new is sent, a retried reply starts afresh, a
 * tool call is announced, completed when its input is whole and finished with its result; live output
 * shows for commands, not over an edit's diff.
 */
import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { SessionStream } from '../../src/acp/session-stream.js';
import type { Message, MessagePart } from '../../src/message.js';

const message = (role: Message['role'], parts: MessagePart[], id = 'm1'): Message => ({
  id,
  sessionId: 's1',
  role,
  parts,
  seq: 1,
  createdAt: 0,
  updatedAt: 0,
});

function stream(): { s: SessionStream; sent: SessionUpdate[] } {
  const sent: SessionUpdate[] = [];
  return { s: new SessionStream('/p', (u) => sent.push(u)), sent };
}

describe('SessionStream', () => {
  it('sends only the new end of a growing text; a text that shrank (a retry) is sent whole again', () => {
    const { s, sent } = stream();
    s.message(message('assistant', [{ type: 'text', text: 'Hel' }]));
    s.message(message('assistant', [{ type: 'text', text: 'Hello' }]));
    s.message(message('assistant', [{ type: 'text', text: 'Hello' }]));
    s.message(message('assistant', []));
    s.message(message('assistant', [{ type: 'text', text: 'Hi' }]));
    expect(
      sent.map((u) =>
        u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : u.sessionUpdate,
      ),
    ).toEqual(['Hel', 'lo', 'Hi']);
  });

  it("does not echo the person's message live (the editor shows it), but replays it", () => {
    const { s, sent } = stream();
    s.message(message('user', [{ type: 'text', text: 'hi' }]));
    expect(sent).toEqual([]);
    const replayed: SessionUpdate[] = [];
    new SessionStream('/p', (u) => replayed.push(u), true).message(
      message('user', [
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: 'AA' },
      ]),
    );
    expect(replayed).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm1' },
      {
        sessionUpdate: 'user_message_chunk',
        content: { type: 'image', mimeType: 'image/png', data: 'AA' },
        messageId: 'm1',
      },
    ]);
  });

  it('announces a command, shows its live output, and finishes it with its result', () => {
    const { s, sent } = stream();
    s.message(message('assistant', [{ type: 'tool_call', id: 't1', name: 'bash', input: '{"comm', finished: false }]));
    s.message(
      message('assistant', [{ type: 'tool_call', id: 't1', name: 'bash', input: '{"command":"ls"}', finished: true }]),
    );
    s.toolStarted('t1');
    s.toolProgress('t1', 'a.txt');
    s.message(
      message(
        'tool',
        [{ type: 'tool_result', toolCallId: 't1', name: 'bash', content: 'a.txt\nb.txt', isError: false }],
        'm2',
      ),
    );
    s.toolProgress('t1', 'late');
    expect(sent).toEqual([
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'bash', kind: 'execute', status: 'pending' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        title: '`ls`',
        kind: 'execute',
        locations: [],
        content: [],
        rawInput: { command: 'ls' },
      },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        content: [{ type: 'content', content: { type: 'text', text: 'a.txt' } }],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'a.txt\nb.txt' } }],
      },
    ]);
  });

  it('an edit keeps its diff when it succeeds and shows the error when it fails', () => {
    const { s, sent } = stream();
    const input = JSON.stringify({ file_path: 'a.txt', old_string: 'x', new_string: 'y' });
    s.message(
      message('assistant', [
        { type: 'tool_call', id: 'e1', name: 'edit', input, finished: true },
        { type: 'tool_call', id: 'e2', name: 'edit', input, finished: true },
      ]),
    );
    s.toolProgress('e1', 'ignored over a diff');
    s.message(
      message(
        'tool',
        [
          { type: 'tool_result', toolCallId: 'e1', name: 'edit', content: 'done', isError: false },
          { type: 'tool_result', toolCallId: 'e2', name: 'edit', content: 'old_string not found', isError: true },
        ],
        'm2',
      ),
    );
    const diff = { type: 'diff', path: '/p/a.txt', oldText: 'x', newText: 'y' };
    expect(sent.slice(2)).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed', content: [diff] },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'e2',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'old_string not found' } }],
      },
    ]);
  });
});
