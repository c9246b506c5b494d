/**
 * `MessageStore.batch`: the writes the agent makes at one moment — a reply finished, its usage
 * added to the session, the tool message created — commit together, once. Checked from a second
 * connection to the same file, as another opencode process would see them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
let other: Database;
let sessionId: string;
const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 };

beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
  other = openDatabase(dataDir);
  sessionId = db.sessions.create({ title: 'batch' }).id;
});
afterEach(() => {
  other.close();
  db.close();
  cleanup();
});

describe('MessageStore.batch', () => {
  it('commits the writes of every store made inside it together: another connection sees none of them before it returns', () => {
    let seenInside: unknown;
    const created = db.messages.batch(() => {
      const m = db.messages.create({ sessionId, role: 'assistant', parts: [{ type: 'text', text: 'hi' }] });
      db.sessions.addUsage(sessionId, usage, 0.25, 120);
      db.messages.finish({ ...m, parts: [...m.parts, { type: 'finish', reason: 'end_turn', time: 1700000000000 }] });
      seenInside = { messages: other.messages.list(sessionId).length, cost: other.sessions.get(sessionId)!.costUsd };
      return m;
    });
    expect(seenInside).toEqual({ messages: 0, cost: 0 });
    expect(other.messages.get(created.id)).toMatchObject({
      parts: [
        { type: 'text', text: 'hi' },
        { type: 'finish', reason: 'end_turn' },
      ],
      finishedAt: 1700000000000,
    });
    expect(other.sessions.get(sessionId)).toMatchObject({
      costUsd: 0.25,
      promptTokens: 100,
      completionTokens: 20,
      contextTokens: 120,
      messageCount: 1,
    });
  });

  it('rolls back everything written inside it when it throws, and rethrows', () => {
    const kept = db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'before' }] });
    expect(() =>
      db.messages.batch(() => {
        db.messages.create({ sessionId, role: 'assistant', parts: [] });
        db.sessions.addUsage(sessionId, usage, 0.25, 120);
        throw new Error('tool message failed');
      }),
    ).toThrow('tool message failed');
    expect(other.messages.list(sessionId).map((m) => m.id)).toEqual([kept.id]);
    expect(other.sessions.get(sessionId)).toMatchObject({ costUsd: 0, promptTokens: 0, messageCount: 1 });
    // the connection is usable afterwards, outside any transaction
    expect(db.connection.inTransaction).toBe(false);
    db.messages.create({ sessionId, role: 'assistant', parts: [] });
    expect(other.messages.list(sessionId)).toHaveLength(2);
  });

  it('a batch inside a batch joins it: the outer throw undoes the inner writes too', () => {
    expect(() =>
      db.messages.batch(() => {
        const inner = db.messages.batch(() => db.messages.create({ sessionId, role: 'assistant', parts: [] }));
        expect(inner.seq).toBe(1);
        throw new Error('outer failed');
      }),
    ).toThrow('outer failed');
    expect(other.messages.list(sessionId)).toEqual([]);
  });

  it('after a rolled-back streaming write, the next streaming write of the message is whole (no chunk rows on a lost base)', () => {
    const streamed = openDatabase(dataDir, { streamingIntervalMs: 0 });
    try {
      const m = streamed.messages.create({ sessionId, role: 'assistant', parts: [] });
      const long = 'x'.repeat(70 * 1024); // past STREAMING_REWRITE_MAX_CHARS: later writes would be appends
      streamed.messages.updateStreaming({ ...m, parts: [{ type: 'text', text: long }] });
      expect(() =>
        streamed.messages.batch(() => {
          streamed.messages.updateStreaming({ ...m, parts: [{ type: 'text', text: `${long}y` }] });
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      streamed.messages.updateStreaming({ ...m, parts: [{ type: 'text', text: `${long}yz` }] });
      expect(other.messages.get(m.id)!.parts).toEqual([{ type: 'text', text: `${long}yz` }]);
    } finally {
      streamed.close();
    }
  });
});
