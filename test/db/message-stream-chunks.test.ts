/**
 * Streaming writes proportional to what arrived: a message past 64 KB is stored as
 * appended chunks while it streams, read back whole by any connection, and written once at finish.
 */
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, MessagePart } from '../../src/message.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { MAX_STORED_PART_CHARS, STREAMING_REWRITE_MAX_CHARS } from '../../src/db/message-store.js';
import { cutMiddle } from '../../src/db/part-cap.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
let reader: Database;
let sessionId: string;

beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  // interval 0: every updateStreaming writes, so each step's stored state can be checked
  db = openDatabase(dataDir, { streamingIntervalMs: 0 });
  reader = openDatabase(dataDir);
  sessionId = db.sessions.create({ title: 'huge' }).id;
  // every write of a message row, with the size of what was written
  db.connection.exec(`
    CREATE TABLE write_log (what TEXT, chars INTEGER);
    CREATE TRIGGER log_message_write AFTER UPDATE ON messages BEGIN INSERT INTO write_log VALUES ('row', length(NEW.parts)); END;
    CREATE TRIGGER log_chunk_write AFTER INSERT ON message_chunks BEGIN INSERT INTO write_log VALUES (NEW.kind, length(NEW.body)); END;
  `);
});
afterEach(() => {
  reader.close();
  db.close();
  cleanup();
});

/** SQLite's length() counts code points, not UTF-16 units */
const codePoints = (s: string) => [...s].length;
const log = () =>
  db.connection.prepare<[], { what: string; chars: number }>('SELECT what, chars FROM write_log ORDER BY rowid').all();
const clearLog = () => db.connection.exec('DELETE FROM write_log');
const chunkRows = (id: string) =>
  (db.connection.prepare('SELECT count(*) AS n FROM message_chunks WHERE message_id = ?').get(id) as { n: number }).n;

/** 64 KiB of text, different for each `i`, with a CJK character and an emoji in it. */
const piece = (i: number) =>
  `${`${String(i).padStart(5, '0')} 漢字 🙂 ${'lorem ipsum '.repeat(5461)}`.slice(0, 65535)}\n`;

describe('a streamed message past 64 KB', () => {
  it('is written as the appended text only, read back identical by another connection at every step, and written whole once at finish', () => {
    let message = db.messages.create({ sessionId, role: 'assistant', parts: [], model: 'anthropic/claude-haiku-4-5' });
    const reasoning: MessagePart = { type: 'reasoning', thinking: 'Let me think. '.repeat(10), signature: 'sig' };
    // small so far: the whole message is rewritten, as before
    db.messages.updateStreaming({ ...message, parts: [reasoning] });
    let text = '';
    let input = '';
    for (let i = 0; i < 24; i++) {
      text += piece(i);
      const parts: MessagePart[] = [reasoning, { type: 'text', text }];
      if (i >= 20) {
        input += `{"i":${i}}`;
        parts.push({ type: 'tool_call', id: 'call_1', name: 'view', input, finished: false });
      }
      message = { ...message, parts };
      db.messages.updateStreaming(message);
      expect(reader.messages.get(message.id)!.parts).toEqual(parts);
      expect(reader.messages.list(sessionId).at(-1)!.parts).toEqual(parts);
    }
    // the call's input finished: a flag, not an append
    const finishedParts: MessagePart[] = [
      ...message.parts.slice(0, 2),
      { type: 'tool_call', id: 'call_1', name: 'view', input, finished: true },
    ];
    db.messages.updateStreaming({ ...message, parts: finishedParts });
    expect(reader.messages.get(message.id)!.parts).toEqual(finishedParts);

    const writes = log();
    expect(writes.filter((w) => w.what === 'row').map((w) => w.chars)).toEqual([
      codePoints(JSON.stringify([reasoning])),
    ]);
    // past 64 KiB: a new part is written as its JSON, then each part grows by what was appended
    expect(writes.filter((w) => w.what === 'part').map((w) => w.chars)).toEqual([
      codePoints(JSON.stringify({ type: 'text', text: piece(0) })),
      codePoints(JSON.stringify({ type: 'tool_call', id: 'call_1', name: 'view', input: '{"i":20}', finished: false })),
      codePoints(JSON.stringify(finishedParts[2])),
    ]);
    expect(writes.filter((w) => w.what === 'append').map((w) => w.chars)).toEqual([
      ...Array.from({ length: 20 }, () => 65535), // text 1..20 (the call is new at 20): 65,536 UTF-16 units, one emoji
      ...[21, 22, 23].flatMap(() => [65535, 8]), // text and the call's input, each by what was appended
    ]);
    const streamedChars = writes.reduce((sum, w) => sum + w.chars, 0);
    expect(streamedChars).toBeLessThan(codePoints(text) + 4096);

    clearLog();
    const done: Message = {
      ...message,
      parts: [...finishedParts, { type: 'finish', reason: 'tool_use', time: 1700000000000 }],
    };
    const stored = db.messages.finish(done);
    expect(stored.parts).toEqual(done.parts);
    expect(log()).toEqual([{ what: 'row', chars: codePoints(JSON.stringify(done.parts)) }]);
    expect(chunkRows(message.id)).toBe(0);
    expect(reader.messages.get(message.id)!.parts).toEqual(done.parts);
    expect(reader.messages.get(message.id)!.finishedAt).toBe(1700000000000);
  });

  it('is rewritten whole when the parts stop being an append (a retry starts the reply afresh)', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    const long = piece(1) + piece(2);
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: long }] });
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: long + piece(3) }] });
    expect(chunkRows(message.id)).toBe(1); // the first streaming write is whole, then an append
    clearLog();
    const afresh: MessagePart[] = [{ type: 'text', text: 'Starting again' }];
    db.messages.updateStreaming({ ...message, parts: afresh });
    expect(log()).toEqual([{ what: 'row', chars: JSON.stringify(afresh).length }]);
    expect(chunkRows(message.id)).toBe(0);
    expect(reader.messages.get(message.id)!.parts).toEqual(afresh);
  });

  it('replaces text that changed in place with the whole part, not an append', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    const long = piece(1) + piece(2);
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: long }] });
    const changed = `X${long.slice(1)}more`; // longer, but not an append
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: changed }] });
    expect(reader.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: changed }]);
  });

  it('survives the writer going away mid-stream: a later connection reads what was written', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    let text = '';
    for (let i = 0; i < 4; i++) {
      text += piece(i);
      db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text }] });
    }
    db.close();
    db = openDatabase(dataDir);
    expect(db.messages.get(message.id)!.parts).toEqual([{ type: 'text', text }]);
    // finishing it later (the repair of an interrupted turn does) consolidates the chunks
    db.messages.finish({
      ...message,
      parts: [
        { type: 'text', text },
        { type: 'finish', reason: 'canceled', time: 5 },
      ],
    });
    expect(chunkRows(message.id)).toBe(0);
    expect(db.messages.get(message.id)!.parts[0]).toEqual({ type: 'text', text });
  });

  it('has its chunks deleted with the message', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: piece(1) + piece(2) }] });
    db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text: piece(1) + piece(2) + piece(3) }] });
    expect(chunkRows(message.id)).toBe(1);
    db.messages.delete(message.id);
    expect(chunkRows(message.id)).toBe(0);
  });

  it('starts chunking just past the rewrite threshold', () => {
    expect(STREAMING_REWRITE_MAX_CHARS).toBe(65536);
  });
});

describe('a streamed part past the 4 MiB cap', () => {
  it('is stored and read as its head and tail around a note of what was cut', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    let text = '';
    for (let i = 0; i < 80; i++) {
      text += piece(i); // 5 MiB in all
      db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text }] });
    }
    expect(text.length).toBe(80 * 65536);
    const expected = cutMiddle(text);
    // read mid-stream: the cut already applies to what readers see
    expect(reader.messages.get(message.id)!.parts).toEqual([{ type: 'text', text: expected }]);

    const stored = db.messages.finish({
      ...message,
      parts: [
        { type: 'text', text },
        { type: 'finish', reason: 'end_turn', time: 9 },
      ],
    });
    const storedText = (stored.parts[0] as { text: string }).text;
    expect(storedText).toBe(expected);
    expect(storedText.slice(0, MAX_STORED_PART_CHARS / 2)).toBe(text.slice(0, MAX_STORED_PART_CHARS / 2));
    expect(storedText.endsWith(text.slice(-MAX_STORED_PART_CHARS / 2))).toBe(true);
    // 5 MiB - 4 MiB = 1,048,576 characters cut; each 64 KiB piece ends with one newline: 16 of them fall in the cut
    expect(storedText.slice(MAX_STORED_PART_CHARS / 2, storedText.length - MAX_STORED_PART_CHARS / 2)).toBe(
      '\n\n[… 1,048,576 characters (17 lines) cut here when this was stored: it had 5,242,880 characters; ' +
        'the first 2,097,152 and the last 2,097,152 are kept …]\n\n',
    );
    expect(reader.messages.list(sessionId).at(-1)!.parts[0]).toEqual({ type: 'text', text: expected });
  });
});

describe('the WAL', () => {
  it('is checkpointed and truncated after a large message finishes', () => {
    const message = db.messages.create({ sessionId, role: 'assistant', parts: [] });
    let text = '';
    for (let i = 0; i < 272; i++) {
      text += piece(i); // 17 MiB: past the 16 MiB after which finish checkpoints
      db.messages.updateStreaming({ ...message, parts: [{ type: 'text', text }] });
    }
    const wal = `${db.path}-wal`;
    expect(statSync(wal).size).toBeGreaterThan(3 * 1024 * 1024); // SQLite's own checkpoints leave it at ~1000 pages
    db.messages.finish({
      ...message,
      parts: [
        { type: 'text', text },
        { type: 'finish', reason: 'end_turn', time: 9 },
      ],
    });
    expect(statSync(wal).size).toBe(0);
    expect((reader.messages.get(message.id)!.parts[0] as { text: string }).text).toBe(cutMiddle(text));
  });

  it('is limited to 32 MiB when a checkpoint resets it', () => {
    expect(db.connection.pragma('journal_size_limit', { simple: true })).toBe(32 * 1024 * 1024);
  });
});
