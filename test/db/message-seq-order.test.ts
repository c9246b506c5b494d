import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText } from '../../src/message.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { startWriter, tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
});
afterEach(() => {
  db.close();
  cleanup();
});

describe('message order', () => {
  it('lists messages created within the same millisecond in creation order, by seq', () => {
    const session = db.sessions.create({ title: 'burst' });
    const other = db.sessions.create({ title: 'other' });
    const created = [];
    for (let i = 0; i < 500; i++) {
      created.push(
        db.messages.create({
          sessionId: session.id,
          role: i % 2 ? 'assistant' : 'user',
          parts: [{ type: 'text', text: `m${i}` }],
        }),
      );
      if (i % 50 === 0) db.messages.create({ sessionId: other.id, role: 'user', parts: [] });
    }
    // the burst really did share milliseconds, which is what broke time-ordering in the original
    expect(new Set(created.map((m) => m.createdAt)).size).toBeLessThan(500);

    const listed = db.messages.list(session.id);
    expect(listed.map((m) => m.seq)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(listed.map((m) => messageText(m))).toEqual(Array.from({ length: 500 }, (_, i) => `m${i}`));
    expect(listed.map((m) => m.id)).toEqual(created.map((m) => m.id));
    expect(db.messages.list(other.id).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(db.sessions.get(session.id)?.messageCount).toBe(500);
  });

  it('round-trips a message exactly', () => {
    const session = db.sessions.create({ title: 't' });
    const message = db.messages.create({
      sessionId: session.id,
      role: 'assistant',
      model: 'anthropic/claude-sonnet-4',
      parts: [
        { type: 'reasoning', thinking: 'hmm', signature: 'sig' },
        { type: 'tool_call', id: 'call_1', name: 'view', input: '{"file_path": "/a"', finished: false },
      ],
    });
    expect(message).toEqual({
      id: message.id,
      sessionId: session.id,
      role: 'assistant',
      model: 'anthropic/claude-sonnet-4',
      parts: [
        { type: 'reasoning', thinking: 'hmm', signature: 'sig' },
        { type: 'tool_call', id: 'call_1', name: 'view', input: '{"file_path": "/a"', finished: false },
      ],
      seq: 1,
      createdAt: message.createdAt,
      updatedAt: message.createdAt,
    });
    expect(db.messages.get(message.id)).toEqual(message);
    expect(db.messages.get('missing')).toBeUndefined();
  });

  it('sets finishedAt from a finish part given at creation', () => {
    const session = db.sessions.create({ title: 't' });
    const message = db.messages.create({
      sessionId: session.id,
      role: 'user',
      parts: [
        { type: 'text', text: 'hi' },
        { type: 'finish', reason: 'end_turn', time: 1234 },
      ],
    });
    expect(message.finishedAt).toBe(1234);
  });

  it('refuses a message for a session that does not exist', () => {
    expect(() => db.messages.create({ sessionId: 'nope', role: 'user', parts: [] })).toThrow(
      /FOREIGN KEY constraint failed/,
    );
  });

  it('gives distinct, gapless seqs when two connections and two processes append to one session at once', async () => {
    const session = db.sessions.create({ title: 'shared' });
    const writers = [startWriter(dataDir, session.id, 100), startWriter(dataDir, session.id, 100)];
    await Promise.all(writers.map((w) => w.ready));
    const second = openDatabase(dataDir);
    writers.forEach((w) => w.go());
    const mine: number[] = [];
    for (let i = 0; i < 100; i++) {
      mine.push(db.messages.create({ sessionId: session.id, role: 'user', parts: [] }).seq);
      mine.push(second.messages.create({ sessionId: session.id, role: 'user', parts: [] }).seq);
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const theirs = (await Promise.all(writers.map((w) => w.done))).flatMap((r) => r.seqs);
    second.close();

    const all = [...mine, ...theirs].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // each writer saw its own seqs strictly increase
    for (let i = 1; i < mine.length; i++) expect(mine[i]).toBeGreaterThan(mine[i - 1]);
    expect(db.messages.list(session.id).map((m) => m.seq)).toEqual(all);
    expect(db.sessions.get(session.id)?.messageCount).toBe(400);
  }, 30_000);
});
