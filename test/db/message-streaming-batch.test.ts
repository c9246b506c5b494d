import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/message.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
/** another connection: what it creates is, to `db`, a message of an earlier run (a resumed session) */
let earlier: Database;
let sessionId: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (message: Message, value: string): Message => ({ ...message, parts: [{ type: 'text', text: value }] });
/** A message `db` did not create: its first streaming write is not held back by a creation interval. */
const resumed = (): Message => earlier.messages.create({ sessionId, role: 'assistant', parts: [] });

beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
  earlier = openDatabase(dataDir);
  sessionId = db.sessions.create({ title: 'stream' }).id;
  // Count the real writes: every UPDATE of a message row is logged, with SQLite's own clock in ms.
  db.connection.exec(`
    CREATE TABLE write_log (message_id TEXT, parts TEXT, at REAL);
    CREATE TRIGGER log_message_write AFTER UPDATE ON messages
    BEGIN INSERT INTO write_log VALUES (NEW.id, NEW.parts, unixepoch('subsec') * 1000); END;
    CREATE TRIGGER fail_message_write BEFORE UPDATE ON messages WHEN NEW.parts GLOB '*FAIL*'
    BEGIN SELECT RAISE(ABORT, 'disk I/O error (simulated)'); END;
  `);
});
afterEach(() => {
  earlier.close();
  try {
    db.close();
  } catch {
    // a test left a deliberate failure pending
  }
  cleanup();
});

const writes = (id: string) =>
  db.connection
    .prepare<[string], { parts: string; at: number }>(
      'SELECT parts, at FROM write_log WHERE message_id = ? ORDER BY rowid',
    )
    .all(id);

describe('batched streaming updates', () => {
  it('write at most once per 100 ms, the first 100 ms after the creation, and the latest state wins', async () => {
    let message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    const createdAt = message.createdAt;
    const started = performance.now();
    let i = 0;
    while (performance.now() - started < 520) {
      message = text(message, `chunk ${++i}`);
      db.messages.updateStreaming(message);
      await sleep(2);
    }
    await sleep(150); // let the trailing timer write

    const log = writes(message.id);
    expect(i).toBeGreaterThan(20);
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect(log.length).toBeLessThanOrEqual(7);
    for (let k = 1; k < log.length; k++) expect(log[k].at - log[k - 1].at).toBeGreaterThanOrEqual(99);
    // the creation wrote the first state: chunk 1 waited for the interval, and newer chunks replaced it
    expect(log[0].at - createdAt).toBeGreaterThanOrEqual(99);
    expect(log[0].parts).not.toBe('[{"type":"text","text":"chunk 1"}]');
    expect(db.messages.get(message.id)?.parts).toEqual([{ type: 'text', text: `chunk ${i}` }]);
  });

  it('throttles each message on its own', () => {
    const a = resumed();
    const b = resumed();
    db.messages.updateStreaming(text(a, 'a1'));
    db.messages.updateStreaming(text(b, 'b1'));
    db.messages.updateStreaming(text(a, 'a2'));
    expect(writes(a.id).map((w) => w.parts)).toEqual(['[{"type":"text","text":"a1"}]']);
    expect(writes(b.id).map((w) => w.parts)).toEqual(['[{"type":"text","text":"b1"}]']);
    db.messages.flush();
    expect(writes(a.id).map((w) => w.parts)).toEqual([
      '[{"type":"text","text":"a1"}]',
      '[{"type":"text","text":"a2"}]',
    ]);
  });

  it('writes the finished message at once, readable from a second connection, and no stale state after it', async () => {
    const message = resumed();
    db.messages.updateStreaming(text(message, 'partial 1'));
    db.messages.updateStreaming(text(message, 'partial 2')); // pending behind the throttle
    const final: Message = {
      ...message,
      parts: [
        { type: 'text', text: 'done' },
        { type: 'finish', reason: 'end_turn', time: 1700000000000 },
      ],
    };
    const stored = db.messages.finish(final);
    expect(stored.finishedAt).toBe(1700000000000);

    const other = openDatabase(dataDir);
    expect(other.messages.get(message.id)?.parts).toEqual(final.parts);
    expect(other.messages.get(message.id)?.finishedAt).toBe(1700000000000);
    await sleep(150);
    expect(other.messages.get(message.id)?.parts).toEqual(final.parts);
    other.close();
    expect(writes(message.id).map((w) => w.parts)).toEqual([
      '[{"type":"text","text":"partial 1"}]',
      JSON.stringify(final.parts),
    ]);
  });

  it('sets finishedAt to now when the message has no finish part', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    const before = Date.now();
    const stored = db.messages.finish(text(message, 'x'));
    expect(stored.finishedAt).toBeGreaterThanOrEqual(before);
    expect(stored.finishedAt).toBeLessThanOrEqual(Date.now());
  });

  it('writes pending state on close', () => {
    const message = resumed();
    db.messages.updateStreaming(text(message, 'one'));
    db.messages.updateStreaming(text(message, 'two'));
    db.close();
    db = openDatabase(dataDir);
    expect(db.messages.get(message.id)?.parts).toEqual([{ type: 'text', text: 'two' }]);
  });

  it('throws a failed immediate write at once', () => {
    const message = resumed();
    expect(() => db.messages.updateStreaming(text(message, 'FAIL now'))).toThrow('disk I/O error (simulated)');
    expect(() => db.messages.update(text(message, 'FAIL'))).toThrow('disk I/O error (simulated)');
  });

  it('surfaces a failed deferred write on the next call about that message', async () => {
    const message = resumed();
    db.messages.updateStreaming(text(message, 'ok'));
    db.messages.updateStreaming(text(message, 'FAIL later'));
    await sleep(150);
    expect(() => db.messages.updateStreaming(text(message, 'next'))).toThrow('disk I/O error (simulated)');
    // thrown once: the caller records the failure next
    const stored = db.messages.finish({
      ...message,
      parts: [{ type: 'finish', reason: 'error', time: 5, message: 'storage failed' }],
    });
    expect(stored.parts).toEqual([{ type: 'finish', reason: 'error', time: 5, message: 'storage failed' }]);
  });

  it('surfaces a failed deferred write from flush() and from finish()', async () => {
    const a = resumed();
    const b = resumed();
    db.messages.updateStreaming(text(a, 'ok'));
    db.messages.updateStreaming(text(a, 'FAIL a'));
    db.messages.updateStreaming(text(b, 'ok'));
    db.messages.updateStreaming(text(b, 'FAIL b'));
    await sleep(150);
    expect(() => db.messages.finish(text(a, 'final'))).toThrow('disk I/O error (simulated)');
    expect(() => db.messages.flush()).toThrow('disk I/O error (simulated)');
    expect(() => db.messages.flush()).not.toThrow();
  });

  it('counts the first interval from the creation: a reply finished within it is written once, by its finish', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    db.messages.updateStreaming(text(message, 'partial'));
    expect(writes(message.id)).toEqual([]);
    const final: Message = {
      ...message,
      parts: [
        { type: 'text', text: 'done' },
        { type: 'finish', reason: 'end_turn', time: 1700000000000 },
      ],
    };
    db.messages.finish(final);
    expect(writes(message.id).map((w) => w.parts)).toEqual([JSON.stringify(final.parts)]);
  });

  it('writes the state kept in the first interval when it has passed, and a resumed message at once', async () => {
    const created = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    const fromEarlierRun = resumed();
    db.messages.updateStreaming(text(created, 'kept'));
    db.messages.updateStreaming(text(fromEarlierRun, 'now'));
    expect(writes(created.id)).toEqual([]);
    expect(writes(fromEarlierRun.id).map((w) => w.parts)).toEqual(['[{"type":"text","text":"now"}]']);
    await sleep(150);
    expect(writes(created.id).map((w) => w.parts)).toEqual(['[{"type":"text","text":"kept"}]']);
    expect(earlier.messages.get(created.id)?.parts).toEqual([{ type: 'text', text: 'kept' }]);
  });

  it('throws NotFoundError for a message that does not exist', () => {
    const ghost: Message = { id: 'ghost', sessionId, role: 'assistant', parts: [], seq: 1, createdAt: 0, updatedAt: 0 };
    expect(() => db.messages.update(ghost)).toThrow('message ghost not found');
    expect(() => db.messages.finish(ghost)).toThrow('message ghost not found');
  });
});
