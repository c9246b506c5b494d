/**
 * What the store's writes cost in statements: a message this store created and never gave
 * chunk rows is rewritten by one UPDATE, with no transaction or savepoint of its own; a message that may
 * have rows (another process's, or one streamed past the rewrite limit) still has them deleted with the
 * rewrite, atomically. Counted on a traced connection (better-sqlite3's `verbose`), not timed. And a write
 * that fails inside a batch whose caller catches the error leaves nothing of itself behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { STREAMING_REWRITE_MAX_CHARS } from '../../src/db/message-store.js';
import { TurnChangeStore } from '../../src/db/turn-changes.js';
import type { Message, MessagePart } from '../../src/message.js';
import { tempDataDir } from './helpers.js';
import { traced, type Traced } from './traced.js';

let cleanup: () => void;
/** another process's connection: creates "earlier" messages, and reads what was committed */
let other: Database;
let t: Traced;
let sessionId: string;

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
const finished = (message: Message, parts: MessagePart[], time = 1700000000000): Message => ({
  ...message,
  parts: [...parts, { type: 'finish', reason: 'end_turn', time }],
});
const chunkRows = (id: string) =>
  other.connection
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM message_chunks WHERE message_id = ?')
    .get(id)!.n;

beforeEach(() => {
  let dataDir: string;
  ({ dataDir, cleanup } = tempDataDir());
  other = openDatabase(dataDir);
  t = traced(other.path);
  sessionId = t.sessions.create({ title: 'statements' }).id;
  t.take();
});
afterEach(() => {
  t.close();
  other.close();
  cleanup();
});

describe('statements of a write', () => {
  it("a step of the agent loop: two commits, a create one INSERT, a rewrite of the store's own messages one UPDATE each, no streaming write within the interval", () => {
    // what the agent does per tool step (bench/agent-loop.ts): the last step's held writes (log record,
    // tool message finished) and the new assistant message in one batch; a quick reply streamed; its
    // usage, finish and the tool message in the next batch
    const toolMessage = t.messages.create({ sessionId, role: 'tool', parts: [] });
    t.take();
    const assistant = t.messages.batch(() => {
      t.toolCalls.record({
        sessionId,
        messageId: toolMessage.id,
        toolCallId: 'toolu_0',
        tool: 'view',
        source: 'builtin',
        startedAt: 1,
        durationMs: 1,
        outcome: 'ok',
        coerced: false,
        inputChars: 2,
        outputChars: 3,
        truncated: false,
      });
      t.messages.finish(
        finished(toolMessage, [
          { type: 'tool_result', toolCallId: 'toolu_0', name: 'view', content: 'x', isError: false },
        ]),
      );
      return t.messages.create({ sessionId, role: 'assistant', parts: [], model: 'm' });
    });
    expect(t.take()).toEqual([
      'BEGIN IMMEDIATE',
      'INSERT INTO tool_calls',
      'UPDATE messages',
      'INSERT INTO messages',
      'COMMIT',
    ]);
    const call: MessagePart = {
      type: 'tool_call',
      id: 'toolu_1',
      name: 'view',
      input: '{"file_path":"a"}',
      finished: true,
    };
    t.messages.updateStreaming({ ...assistant, parts: [call] });
    expect(t.take()).toEqual([]);
    t.messages.batch(() => {
      t.sessions.addUsage(sessionId, usage, 0.001, 15);
      t.messages.finish(finished(assistant, [call]));
      return t.messages.create({ sessionId, role: 'tool', parts: [] });
    });
    expect(t.take()).toEqual([
      'BEGIN IMMEDIATE',
      'UPDATE sessions',
      'UPDATE messages',
      'INSERT INTO messages',
      'COMMIT',
    ]);
    expect(other.messages.get(assistant.id)!.parts).toEqual([
      call,
      { type: 'finish', reason: 'end_turn', time: 1700000000000 },
    ]);
  });

  it("outside a batch, a rewrite of a message this store created is one statement; another process's message gets the DELETE of its rows, in one transaction", () => {
    const own = t.messages.create({ sessionId, role: 'assistant', parts: [] });
    const earlier = other.messages.create({ sessionId, role: 'assistant', parts: [] });
    t.take();
    t.messages.update({ ...own, parts: [{ type: 'text', text: 'a' }] });
    expect(t.take()).toEqual(['UPDATE messages']);
    t.messages.update({ ...earlier, parts: [{ type: 'text', text: 'b' }] });
    expect(t.take()).toEqual(['BEGIN IMMEDIATE', 'DELETE FROM message_chunks', 'UPDATE messages', 'COMMIT']);
    t.messages.batch(() => t.messages.finish(finished(earlier, [])));
    expect(t.take()).toEqual([
      'BEGIN IMMEDIATE',
      'SAVEPOINT',
      'DELETE FROM message_chunks',
      'UPDATE messages',
      'RELEASE',
      'COMMIT',
    ]);
  });

  it('a message that streamed chunk rows has them deleted by its finish, and reads whole from another connection', () => {
    const message = t.messages.create({ sessionId, role: 'assistant', parts: [] });
    const big = 'x'.repeat(STREAMING_REWRITE_MAX_CHARS + 1);
    // a resumed stream: past the creation interval
    const store = traced(other.path, { streamingIntervalMs: 0 });
    try {
      store.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: big }] });
      store.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: `${big}yz` }] });
      expect(chunkRows(message.id)).toBe(1);
      expect(other.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: `${big}yz` }]);
    } finally {
      store.close();
    }
    // the same within one store: its own message, chunked, then finished
    t.close();
    t = traced(other.path, { streamingIntervalMs: 0 });
    const own = t.messages.create({ sessionId, role: 'assistant', parts: [] });
    t.messages.updateStreaming({ ...own, parts: [{ type: 'text', text: big }] });
    t.messages.updateStreaming({ ...own, parts: [{ type: 'text', text: `${big}yz` }] });
    expect(chunkRows(own.id)).toBe(1);
    t.take();
    t.messages.finish(finished(own, [{ type: 'text', text: `${big}!` }]));
    expect(t.take()).toEqual(['BEGIN IMMEDIATE', 'DELETE FROM message_chunks', 'UPDATE messages', 'COMMIT']);
    expect(chunkRows(own.id)).toBe(0);
    expect(other.messages.get(own.id)!.parts).toEqual([
      { type: 'text', text: `${big}!` },
      { type: 'finish', reason: 'end_turn', time: 1700000000000 },
    ]);
  });

  it('after a failed batch, the next rewrite deletes chunk rows again (a rollback could have brought some back)', () => {
    const message = t.messages.create({ sessionId, role: 'assistant', parts: [] });
    expect(() =>
      t.messages.batch(() => {
        t.messages.update({ ...message, parts: [{ type: 'text', text: 'rolled back' }] });
        throw new Error('later write failed');
      }),
    ).toThrow('later write failed');
    t.take();
    t.messages.update({ ...message, parts: [{ type: 'text', text: 'kept' }] });
    expect(t.take()).toEqual(['BEGIN IMMEDIATE', 'DELETE FROM message_chunks', 'UPDATE messages', 'COMMIT']);
    expect(other.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: 'kept' }]);
  });

  it('TurnChangeStore.setStates takes the write lock first (BEGIN IMMEDIATE)', () => {
    new TurnChangeStore(t.connection).setStates([{ id: 1, state: 'undone' }]);
    expect(t.take()).toEqual(['BEGIN IMMEDIATE', 'UPDATE turn_changes', 'COMMIT']);
  });
});

describe('a write that fails inside a batch whose caller catches the error', () => {
  beforeEach(() => {
    other.connection.exec(`
      CREATE TABLE fail_when (what TEXT);
      CREATE TRIGGER fail_message_write BEFORE UPDATE ON messages WHEN NEW.parts GLOB '*FAIL*'
      BEGIN SELECT RAISE(ABORT, 'disk I/O error (simulated)'); END;
      -- the touch of create, not addUsage (which moves the totals)
      CREATE TRIGGER fail_touch BEFORE UPDATE OF updated_at ON sessions WHEN EXISTS (SELECT 1 FROM fail_when WHERE what = 'touch') AND NEW.prompt_tokens = OLD.prompt_tokens
      BEGIN SELECT RAISE(ABORT, 'touch failed (simulated)'); END;
    `);
  });

  /** Runs `failing` inside a batch that catches its error and adds usage after it; returns the error. */
  const caught = (failing: () => void): unknown => {
    let error: unknown;
    t.messages.batch(() => {
      try {
        failing();
      } catch (err) {
        error = err;
      }
      t.sessions.addUsage(sessionId, usage, 0.5, 15);
    });
    expect(other.sessions.get(sessionId)!.costUsd).toBe(0.5);
    return error;
  };

  it('a one-statement rewrite: the message stays as it was, the rest commits', () => {
    const message = t.messages.create({ sessionId, role: 'assistant', parts: [{ type: 'text', text: 'as created' }] });
    expect(caught(() => t.messages.update({ ...message, parts: [{ type: 'text', text: 'FAIL' }] }))).toMatchObject({
      message: 'disk I/O error (simulated)',
    });
    expect(other.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: 'as created' }]);
  });

  it('a rewrite that deletes chunk rows: the rows stay with the message, which reads as streamed', () => {
    const message = other.messages.create({ sessionId, role: 'assistant', parts: [] });
    const big = 'x'.repeat(STREAMING_REWRITE_MAX_CHARS + 1);
    const store = traced(other.path, { streamingIntervalMs: 0 });
    try {
      store.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: big }] });
      store.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: `${big}yz` }] });
    } finally {
      store.close();
    }
    expect(chunkRows(message.id)).toBe(1);
    expect(caught(() => t.messages.finish({ ...message, parts: [{ type: 'text', text: 'FAIL' }] }))).toMatchObject({
      message: 'disk I/O error (simulated)',
    });
    expect(chunkRows(message.id)).toBe(1);
    expect(other.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: `${big}yz` }]);
  });

  it("create, when the session's touch fails after the insert: no message, the count unchanged", () => {
    const before = other.sessions.get(sessionId)!;
    other.connection.exec(`INSERT INTO fail_when VALUES ('touch')`);
    expect(
      caught(() => t.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'hi' }] })),
    ).toMatchObject({ message: 'touch failed (simulated)' });
    expect(other.messages.list(sessionId)).toEqual([]);
    expect(other.sessions.get(sessionId)!.messageCount).toBe(before.messageCount);
  });

  it('addUsage with a bad count (CHECK): the totals stay as they were', () => {
    const message = t.messages.create({ sessionId, role: 'assistant', parts: [] });
    let error: unknown;
    t.messages.batch(() => {
      t.messages.update({ ...message, parts: [{ type: 'text', text: 'kept' }] });
      try {
        t.sessions.addUsage(sessionId, { ...usage, input: -1_000_000 }, 1, 15);
      } catch (err) {
        error = err;
      }
    });
    expect(error).toMatchObject({ code: 'SQLITE_CONSTRAINT_CHECK' });
    expect(other.sessions.get(sessionId)).toMatchObject({ promptTokens: 0, costUsd: 0 });
    expect(other.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: 'kept' }]);
  });
});
