/**
 * What `create`, `update` and `finish` return: the stored message, built from what was written
 * instead of read back (no `RETURNING *`, no parse of a row just written unless the caller looks at its
 * parts). It must be what a read gives — the same fields in the same order, the parts as bounded when
 * stored — and the caller's own copy. And a batch inside a batch is a savepoint: when the inner one
 * throws, only its writes are undone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/message.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { MAX_STORED_PART_CHARS } from '../../src/db/message-store.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
let other: Database;
let sessionId: string;

beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
  other = openDatabase(dataDir);
  sessionId = db.sessions.create({ title: 'writes' }).id;
});
afterEach(() => {
  other.close();
  db.close();
  cleanup();
});

/** The message as another connection reads it. */
const read = (id: string): Message => other.messages.get(id)!;

describe('a write returns the stored message without reading it back', () => {
  it('create: the fields and parts a read gives, in the same key order (the same JSON)', () => {
    const created = db.messages.create({
      sessionId,
      role: 'assistant',
      model: 'anthropic/claude-haiku-4-5',
      parts: [
        { type: 'text', text: 'hi' },
        { type: 'finish', reason: 'end_turn', time: 1700000000000 },
      ],
    });
    expect(created).toEqual(read(created.id));
    expect(read(created.id)).toEqual(created);
    expect(JSON.stringify(created)).toBe(JSON.stringify(read(created.id)));
    expect(structuredClone(created)).toEqual(read(created.id));
    expect({ ...created }).toEqual(read(created.id));
    expect(created.finishedAt).toBe(1700000000000);
    expect(created.seq).toBe(1);
  });

  it('create without model or finish part: neither key is present, as on a read', () => {
    const created = db.messages.create({ sessionId, role: 'tool', parts: [] });
    expect(Object.keys(created)).toEqual(['id', 'sessionId', 'role', 'parts', 'seq', 'createdAt', 'updatedAt']);
    expect(JSON.stringify(created)).toBe(JSON.stringify(read(created.id)));
  });

  it('update and finish: the new updatedAt and finishedAt, and the parts as bounded when stored', () => {
    const message = db.messages.create({ sessionId, role: 'tool', parts: [] });
    const big = 'y'.repeat(MAX_STORED_PART_CHARS + 100_000);
    const updated = db.messages.update({
      ...message,
      parts: [{ type: 'tool_result', toolCallId: 'c1', name: 'view', content: big, isError: false }],
    });
    // cut as the store cuts it: the same text a read gives
    expect(updated).toEqual(read(message.id));
    expect((updated.parts[0] as { content: string }).content.length).toBeLessThan(big.length);

    const finished = db.messages.finish({
      ...message,
      parts: [...updated.parts, { type: 'finish', reason: 'end_turn', time: 1700000000123 }],
    });
    expect(finished).toEqual(read(message.id));
    expect(JSON.stringify(finished)).toBe(JSON.stringify(read(message.id)));
    expect(finished.finishedAt).toBe(1700000000123);
    expect(finished.updatedAt).toBeGreaterThanOrEqual(message.updatedAt);
  });

  // short and long parts alike
  it.each([
    ['short', 'original'],
    ['long', 'original '.repeat(400)],
  ])(
    "the returned parts (%s) are the caller's own copy: changing either leaves the other and the row alone",
    (_label, original) => {
      const parts: Message['parts'] = [{ type: 'text', text: original }];
      const created = db.messages.create({ sessionId, role: 'user', parts });
      (parts[0] as { text: string }).text = 'changed by the caller';
      expect(created.parts).toEqual([{ type: 'text', text: original }]);
      (created.parts[0] as { text: string }).text = 'changed in the result';
      created.parts.push({ type: 'text', text: 'more' });
      expect(created.parts).toEqual([
        { type: 'text', text: 'changed in the result' },
        { type: 'text', text: 'more' },
      ]);
      expect(parts).toEqual([{ type: 'text', text: 'changed by the caller' }]);
      expect(read(created.id).parts).toEqual([{ type: 'text', text: original }]);

      // assigning parts replaces them, as on any message
      created.parts = [{ type: 'text', text: 'assigned' }];
      expect(created.parts).toEqual([{ type: 'text', text: 'assigned' }]);
      expect({ ...created }.parts).toEqual([{ type: 'text', text: 'assigned' }]);
      expect(JSON.parse(JSON.stringify(created)).parts).toEqual([{ type: 'text', text: 'assigned' }]);
    },
  );

  it('update and finish of a message that does not exist still throw NotFoundError', () => {
    const message = db.messages.create({ sessionId, role: 'tool', parts: [] });
    const ghost = { ...message, id: 'no-such-message' };
    expect(() => db.messages.update(ghost)).toThrow('message no-such-message not found');
    expect(() => db.messages.finish(ghost)).toThrow('message no-such-message not found');
  });
});

describe('a batch inside a batch is a savepoint', () => {
  it('when the inner batch throws, only its writes are undone; the outer one commits the rest', () => {
    let caught: unknown;
    const kept = db.messages.batch(() => {
      const first = db.messages.create({ sessionId, role: 'tool', parts: [{ type: 'text', text: 'kept' }] });
      try {
        db.messages.batch(() => {
          db.messages.create({ sessionId, role: 'assistant', parts: [] });
          db.sessions.addUsage(sessionId, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, 0.5, 2);
          throw new Error('the next step failed');
        });
      } catch (err) {
        caught = err;
      }
      return first;
    });
    expect((caught as Error).message).toBe('the next step failed');
    expect(other.messages.list(sessionId).map((m) => [m.id, m.role])).toEqual([[kept.id, 'tool']]);
    expect(other.sessions.get(sessionId)).toMatchObject({ costUsd: 0, messageCount: 1 });
    expect(db.connection.inTransaction).toBe(false);
  });
});
