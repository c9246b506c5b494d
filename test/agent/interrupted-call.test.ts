/**
 * A tool call cut off by a crash is interrupted, not "canceled by user": the model must
 * not be told the person stopped it. Given a session as a kill -9 leaves it (the assistant message
 * with its tool call stored, no result), the next run stores and sends "opencode stopped before this
 * call finished"; the start-up repair finds such sessions and leaves finished ones alone.
 * Real SQLite, the real provider SDK against the loopback fake provider.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_REPLY, INTERRUPTED_RESULT } from '../../src/agent/history.js';
import { repairCrashedSessions } from '../../src/app/leftovers.js';
import { sessionsWithInterruptedTurns } from '../../src/db/interrupted.js';
import type { Database } from '../../src/db/index.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What the agent has stored when the process dies while the tool runs: the prompt, the finished call. */
function killedDuringCall(db: Database, sessionId: string, callId: string): void {
  const user = db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'run the tests' }] });
  user.parts.push({ type: 'finish', reason: 'end_turn', time: 1 });
  db.messages.finish(user);
  const assistant = db.messages.create({
    sessionId,
    role: 'assistant',
    parts: [{ type: 'tool_call', id: callId, name: 'bash', input: '{"command":"sleep 300"}', finished: true }],
  });
  assistant.parts.push({ type: 'finish', reason: 'tool_use', time: 2 });
  db.messages.finish(assistant);
}

describe('a call cut off by a crash', () => {
  it('is stored and sent as interrupted when the session runs again', async () => {
    h = await agentHarness([{ text: 'The earlier run was cut off; starting again.' }]);
    killedDuringCall(h.db, h.sessionId, 'toolu_killed');

    await h.agent.run(h.sessionId, 'go on');

    expect(toolResultsOf(h.db, h.sessionId)).toEqual([{ name: 'bash', content: INTERRUPTED_RESULT, isError: true }]);
    const sent = h.fake.answered[0].messages as { role: string; content: unknown }[];
    const result = sent
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((b: { type?: string }) => b.type === 'tool_result');
    expect(result).toMatchObject({ tool_use_id: 'toolu_killed', is_error: true, content: INTERRUPTED_RESULT });
    expect(JSON.stringify(sent)).not.toContain('canceled by user');
  });

  it('is repaired at start-up with the reply that was streaming, finished sessions untouched', async () => {
    h = await agentHarness([]);
    const { db } = h;
    killedDuringCall(db, h.sessionId, 'toolu_a');
    // a second session died while the model was still writing
    const streaming = db.sessions.create({ title: 'streaming' }).id;
    db.messages.create({ sessionId: streaming, role: 'assistant', parts: [{ type: 'text', text: 'Let me' }] });
    // a third finished normally
    const done = db.sessions.create({ title: 'done' }).id;
    const reply = db.messages.create({ sessionId: done, role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] });
    reply.parts.push({ type: 'finish', reason: 'end_turn', time: 3 });
    db.messages.finish(reply);

    expect(new Set(sessionsWithInterruptedTurns(db.connection, 0))).toEqual(new Set([h.sessionId, streaming]));
    // only sessions changed since the crashed process started are looked at
    expect(sessionsWithInterruptedTurns(db.connection, Date.now() + 60_000)).toEqual([]);
    expect(repairCrashedSessions(db, 0)).toBe(2);

    expect(toolResultsOf(db, h.sessionId)).toEqual([{ name: 'bash', content: INTERRUPTED_RESULT, isError: true }]);
    const cut = db.messages.list(streaming)[0]!;
    expect(cut.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'canceled', message: INTERRUPTED_REPLY });
    expect(sessionsWithInterruptedTurns(db.connection)).toEqual([]);
    expect(db.messages.list(done)).toHaveLength(1);
  });
});
