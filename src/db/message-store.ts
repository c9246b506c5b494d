/**
 * Messages of a session (the original's table, fixed): ordered by `seq`, a per-session counter allocated in the
 * insert itself, never by time (the original ordered by second-resolution `created_at`, so messages of one
 * second came back in arbitrary order).
 *
 * While a reply streams, the agent updates its message many times a second; `updateStreaming` writes at
 * most once per interval (default 100 ms) per message with the latest parts — the first interval
 * counted from the message's creation when this store created it — and `finish` always writes at once.
 * A failed deferred write is kept and thrown by the next call about that message (or by `flush()`), so
 * the run fails rather than losing data silently. The store publishes no events; the agent does.
 *
 * Writes stay proportional to what arrived: a streaming write of a message past
 * {@link STREAMING_REWRITE_MAX_CHARS} stores only what was appended since the last write, as rows of
 * `message_chunks` (see migration 0002), and `finish` writes the whole message once and drops its rows.
 * Readers (`get`, `list`) apply the rows, so they see the same message either way. Every stored part is
 * bounded by {@link MAX_STORED_PART_CHARS} (part-cap.ts) when the message is created, updated or
 * finished, and when read; the WAL is checkpointed (TRUNCATE) after a large finish.
 *
 * Statements a write costs (asserted in test/db/message-store-statements.test.ts): a rewrite
 * of a message this store created and never gave chunk rows is one `UPDATE`, with no transaction of its
 * own (one statement is atomic; inside a batch it needs no savepoint); a message that may have rows (it
 * streamed past {@link STREAMING_REWRITE_MAX_CHARS}, or came from another process or an earlier run:
 * interrupted-turn repair, a resumed session) is a `DELETE` of its rows and the `UPDATE`, in one
 * transaction (a savepoint inside a batch), so a failure never drops the rows without the rewrite. A
 * create is one `INSERT` (its trigger counts the message and moves the session's `updated_at`).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { finishPart, type Message, type MessagePart, type Role } from '../message.js';
import { NotFoundError } from './errors.js';
import { capParts, MAX_STORED_PART_CHARS } from './part-cap.js';
import { chunksBetween, sizeOf, snapshotOf, type ChunkRow, type PartSnapshot } from './message-chunks.js';
import { StoredMessage, toMessage, type MessageRow } from './message-row.js';
import { returnedRow } from './returning.js';

export { MAX_STORED_PART_CHARS };

/**
 * Size (characters of text plus JSON of the other fields) up to which a streaming write rewrites the whole
 * message: small messages stay one row, as before; past it, only the appended text is written.
 */
export const STREAMING_REWRITE_MAX_CHARS = 64 * 1024;

/** Characters written since the last checkpoint after which `finish` checkpoints the WAL (TRUNCATE). */
export const CHECKPOINT_AFTER_CHARS = 16 * 1024 * 1024;

/** When a message counts as finished: its own `finishedAt`, else the time of its finish part. */
function finishedAtOf(message: Pick<Message, 'parts' | 'finishedAt'>): number | undefined {
  return message.finishedAt ?? finishPart(message)?.time;
}

interface InsertParams {
  id: string;
  sessionId: string;
  role: Role;
  parts: string;
  model: string | null;
  now: number;
  finishedAt: number | null;
}

/** A streaming state waiting for its turn to be written. */
interface Pending {
  message: Message;
  timer: NodeJS.Timeout;
}

/** Reads and writes the `messages` table. Every write is synchronous and throws when it fails. */
export class MessageStore {
  private readonly intervalMs: number;
  private readonly pending = new Map<string, Pending>();
  /** performance.now() of each message's last write (or of its creation by this store), for throttling */
  private readonly lastWriteAt = new Map<string, number>();
  /**
   * Messages this store created unfinished and has given no chunk rows since: their rewrite needs no
   * `DELETE` of rows. An id leaves at the first chunk row, at `finish`, at `delete`, and all leave when
   * a batch fails (a rollback could bring back rows); it never comes back, so a message that may have
   * rows is never in it.
   */
  private readonly chunkless = new Set<string>();
  private readonly deferredErrors = new Map<string, unknown>();
  /** what this store last wrote of each message it is streaming, for append-only streaming writes */
  private readonly written = new Map<string, { parts: PartSnapshot[]; chunkSeq: number }>();
  private readonly checkpointAfterChars: number;
  private charsSinceCheckpoint = 0;
  /** returns the new row's seq (nothing else is read back: the caller has the rest) */
  private readonly insert: BetterSqlite3.Statement<[InsertParams], number>;
  private readonly write: BetterSqlite3.Statement<[string, string | null, number, number | null, string]>;
  private readonly insertChunk: BetterSqlite3.Statement<[string, number, number, string, string]>;
  private readonly deleteChunks: BetterSqlite3.Statement<[string]>;
  private readonly chunksOfMessage: BetterSqlite3.Statement<[string], ChunkRow>;
  private readonly chunksOfSession: BetterSqlite3.Statement<[string], ChunkRow>;
  private readonly selectMessage: BetterSqlite3.Statement<[string], MessageRow>;
  private readonly selectSession: BetterSqlite3.Statement<[string], MessageRow>;
  // transaction functions built once: better-sqlite3's `transaction()` costs more than the writes of a small message
  /** returns whether the row exists (was updated) */
  private readonly rewriteTx: BetterSqlite3.Transaction<
    (json: string, model: string | null, now: number, finishedAt: number | null, id: string) => boolean
  >;
  private readonly chunksTx: BetterSqlite3.Transaction<
    (id: string, firstSeq: number, rows: readonly { partIndex: number; kind: string; body: string }[]) => void
  >;
  private readonly getTx: BetterSqlite3.Transaction<(id: string) => Message | undefined>;
  private readonly listTx: BetterSqlite3.Transaction<(sessionId: string) => Message[]>;
  private readonly batchTx: BetterSqlite3.Transaction<(fn: () => unknown) => unknown>;

  /**
   * @param options.streamingIntervalMs minimum time between two streaming writes of one message (default 100)
   * @param options.checkpointAfterChars characters written after which `finish` checkpoints the WAL
   *   (default {@link CHECKPOINT_AFTER_CHARS})
   */
  constructor(
    private readonly db: BetterSqlite3.Database,
    options: { streamingIntervalMs?: number; checkpointAfterChars?: number } = {},
  ) {
    this.intervalMs = options.streamingIntervalMs ?? 100;
    this.checkpointAfterChars = options.checkpointAfterChars ?? CHECKPOINT_AFTER_CHARS;
    this.insertChunk = db.prepare(
      'INSERT INTO message_chunks (message_id, seq, part_index, kind, body) VALUES (?, ?, ?, ?, ?)',
    );
    this.deleteChunks = db.prepare('DELETE FROM message_chunks WHERE message_id = ?');
    this.chunksOfMessage = db.prepare(
      'SELECT message_id, part_index, kind, body FROM message_chunks WHERE message_id = ? ORDER BY seq',
    );
    this.chunksOfSession = db.prepare(
      `SELECT c.message_id, c.part_index, c.kind, c.body FROM message_chunks c JOIN messages m ON m.id = c.message_id
       WHERE m.session_id = ? ORDER BY c.message_id, c.seq`,
    );
    // seq is computed inside the INSERT, which holds the write lock, so two writers can never take the same
    // one; the insert trigger counts the message into its session and moves the session's updated_at
    // (migration 0009), so a create is this one statement, atomic by itself. Run through returnedRow():
    // outside a batch it commits as it is reset, and a commit that fails must throw (returning.ts).
    this.insert = db
      .prepare<[InsertParams], number>(
        `INSERT INTO messages (id, session_id, seq, role, parts, model, created_at, updated_at, finished_at)
       VALUES (@id, @sessionId, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = @sessionId),
               @role, @parts, @model, @now, @now, @finishedAt)
       RETURNING seq`,
      )
      .pluck();
    this.write = db.prepare('UPDATE messages SET parts = ?, model = ?, updated_at = ?, finished_at = ? WHERE id = ?');
    this.selectMessage = db.prepare('SELECT * FROM messages WHERE id = ?');
    this.selectSession = db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY seq');
    this.rewriteTx = db.transaction(
      (json: string, model: string | null, now: number, finishedAt: number | null, id: string) => {
        this.deleteChunks.run(id);
        return this.write.run(json, model, now, finishedAt, id).changes > 0;
      },
    );
    this.chunksTx = db.transaction(
      (id: string, firstSeq: number, rows: readonly { partIndex: number; kind: string; body: string }[]) => {
        let seq = firstSeq;
        for (const row of rows) this.insertChunk.run(id, ++seq, row.partIndex, row.kind, row.body);
      },
    );
    // one read transaction: a writer in another process cannot finish the message between the two reads
    this.getTx = db.transaction((id: string) => {
      const row = this.selectMessage.get(id);
      return row && toMessage(row, this.chunksOfMessage.all(id));
    });
    this.listTx = db.transaction((sessionId: string) => {
      const rows = this.selectSession.all(sessionId);
      const chunks = new Map<string, ChunkRow[]>();
      for (const chunk of this.chunksOfSession.all(sessionId)) {
        const list = chunks.get(chunk.message_id);
        if (list) list.push(chunk);
        else chunks.set(chunk.message_id, [chunk]);
      }
      return rows.map((row) => toMessage(row, chunks.get(row.id)));
    });
    this.batchTx = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Appends a message to a session, allocating the next `seq`. `finishedAt` is set when `parts` hold a
   * finish part (its time). Also bumps the session's `updated_at` (to the creation time, never back).
   * @throws `SqliteError` (SQLITE_CONSTRAINT_FOREIGNKEY) when the session does not exist
   */
  create(input: { sessionId: string; role: Role; parts: MessagePart[]; model?: string; id?: string }): Message {
    const now = Date.now();
    const id = input.id ?? randomUUID();
    const json = JSON.stringify(capParts(input.parts));
    const finishedAt = finishedAtOf({ parts: input.parts });
    const seq = returnedRow(this.insert, {
      id,
      sessionId: input.sessionId,
      role: input.role,
      parts: json,
      model: input.model ?? null,
      now,
      finishedAt: finishedAt ?? null,
    })!;
    if (finishedAt === undefined) {
      this.chunkless.add(id);
      // the creation counts as the first write for the streaming interval (see updateStreaming)
      this.lastWriteAt.set(id, performance.now());
    }
    return new StoredMessage(
      {
        id,
        sessionId: input.sessionId,
        role: input.role,
        seq,
        createdAt: now,
        updatedAt: now,
        model: input.model,
        finishedAt,
      },
      json,
    );
  }

  /** The message, or `undefined`. Pending streaming state is not included until it is flushed. */
  get(id: string): Message | undefined {
    return this.getTx.deferred(id);
  }

  /** All messages of a session in `seq` order. */
  list(sessionId: string): Message[] {
    return this.listTx.deferred(sessionId);
  }

  /**
   * Runs `fn` in one SQLite transaction on this store's connection (`BEGIN IMMEDIATE … COMMIT`): the
   * writes every store on the connection makes inside it (messages, sessions, the tool-call log) are
   * committed together, with one WAL commit instead of one each — the agent groups the writes it makes
   * at one moment this way (~100–250 µs of CPU a commit here). A call inside another joins it
   * (as a savepoint: its writes commit with the outer call's).
   * When `fn` throws, everything it wrote is rolled back and the error is rethrown — inside another
   * batch, only what `fn` wrote, and the outer call decides about the rest; what this store remembers of
   * streamed messages is dropped then, so their next write is a whole one (with the `DELETE` of chunk
   * rows).
   *
   * A write of this store that fails inside `fn` leaves nothing of itself behind even when `fn` catches
   * its error and goes on: a one-statement write (`create`, with its trigger; a rewrite of a chunkless
   * message, `addUsage`, a tool-call record) is rolled back by SQLite as a statement, and a rewrite that
   * drops chunk rows runs in a savepoint.
   */
  batch<T>(fn: () => T): T {
    let result: T;
    try {
      // better-sqlite3 makes a nested transaction function a SAVEPOINT … RELEASE
      result = (this.db.inTransaction ? this.batchTx(fn) : this.batchTx.immediate(fn)) as T;
    } catch (err) {
      this.written.clear();
      this.chunkless.clear();
      throw err;
    }
    // inside another batch the checkpoint waits for the outer commit
    if (this.charsSinceCheckpoint >= this.checkpointAfterChars && !this.db.inTransaction) this.checkpoint();
    return result;
  }

  /**
   * Writes `message` (parts, model, finishedAt) now, replacing any pending streaming state for it.
   * Returns the stored message (new `updatedAt`).
   * @throws {NotFoundError}; a deferred streaming-write error for this message
   */
  update(message: Message): Message {
    this.takeDeferredError(message.id);
    this.cancelPending(message.id);
    return this.writeNow(message, finishedAtOf(message), true);
  }

  /**
   * Records a streaming state of `message`. Writes at once when the message was not written in the last
   * interval; otherwise keeps it, and a timer writes the latest kept state when the interval has passed.
   *
   * The interval of a message this store created runs from its creation (which wrote its first state),
   * so a reply that finishes within one interval of its creation is written once, by `finish`, and a
   * longer one first when the interval has passed. What this keeps: at most one interval of streamed
   * output is unwritten at any moment — from the creation to the first streaming write, as between two
   * streaming writes — so a process killed mid-stream loses at most the last interval's output, and
   * another process reading the message (`opencode sessions`, acp, the interrupted-turn repair) sees the
   * created message until then, as it would see the state of the last write. The TUI and `-p` show the
   * stream from the agent's events, not from the database.
   * @throws a write error of this call, or a deferred one from an earlier timer write of this message
   */
  updateStreaming(message: Message): void {
    this.takeDeferredError(message.id);
    const queued = this.pending.get(message.id);
    if (queued) {
      queued.message = message;
      return;
    }
    const sinceLastMs = performance.now() - (this.lastWriteAt.get(message.id) ?? -Infinity);
    if (sinceLastMs >= this.intervalMs) {
      this.writeStreaming(message);
      return;
    }
    const timer = this.schedule(message.id, this.intervalMs - sinceLastMs);
    this.pending.set(message.id, { message, timer });
  }

  /**
   * Writes pending streaming state now: of one message, or of all when `id` is omitted.
   * @throws the first write error, or a deferred error from an earlier timer write
   */
  flush(id?: string): void {
    if (id !== undefined) {
      this.takeDeferredError(id);
      this.flushOne(id);
      return;
    }
    let firstError: unknown;
    for (const pendingId of [...this.pending.keys()]) {
      try {
        this.flushOne(pendingId);
      } catch (err) {
        firstError ??= err;
      }
    }
    for (const err of this.deferredErrors.values()) firstError ??= err;
    this.deferredErrors.clear();
    if (firstError !== undefined) throw firstError;
  }

  /**
   * Writes the final state of `message` now, setting `finishedAt` (the message's own, else its finish
   * part's time, else now), and drops pending streaming state. Readable by other connections on return.
   * @throws {NotFoundError}; a deferred streaming-write error for this message (the finish is then not
   *   written: fail the run, and finish again to record the error)
   */
  finish(message: Message): Message {
    this.takeDeferredError(message.id);
    this.cancelPending(message.id);
    const stored = this.writeNow(message, finishedAtOf(message) ?? Date.now(), true);
    this.lastWriteAt.delete(message.id);
    this.written.delete(message.id);
    this.chunkless.delete(message.id);
    // inside a batch the checkpoint waits for its commit (batch() runs it)
    if (this.charsSinceCheckpoint >= this.checkpointAfterChars && !this.db.inTransaction) this.checkpoint();
    return stored;
  }

  /**
   * Deletes a message (the session's `messageCount` follows). Drops pending streaming state.
   * @throws {NotFoundError}
   */
  delete(id: string): void {
    this.cancelPending(id);
    this.lastWriteAt.delete(id);
    this.written.delete(id);
    this.chunkless.delete(id);
    this.deferredErrors.delete(id);
    const result = this.db.prepare('DELETE FROM messages WHERE id = ?').run(id);
    if (result.changes === 0) throw new NotFoundError('message', id);
  }

  /**
   * Rewrites the whole message and drops its chunk rows (when it may have some: see {@link chunkless}).
   * `cap`: bound its parts first (a final write); a streaming rewrite keeps them whole, since later
   * appends continue the text as it arrived.
   */
  private writeNow(message: Message, finishedAt: number | undefined, cap = false, snapshots?: PartSnapshot[]): Message {
    const parts = cap ? capParts(message.parts) : message.parts;
    const json = JSON.stringify(parts);
    const now = Date.now();
    const model = message.model ?? null;
    const found = this.chunkless.has(message.id)
      ? this.write.run(json, model, now, finishedAt ?? null, message.id).changes > 0
      : this.rewriteTx.immediate(json, model, now, finishedAt ?? null, message.id);
    this.lastWriteAt.set(message.id, performance.now());
    if (!found) throw new NotFoundError('message', message.id);
    this.charsSinceCheckpoint += json.length;
    // only a message being streamed keeps a snapshot (it holds the parts' text)
    if (cap) this.written.delete(message.id);
    else this.written.set(message.id, { parts: snapshots ?? parts.map(snapshotOf), chunkSeq: 0 });
    // id, session, role, seq and creation time are never rewritten: the caller's are the row's
    const { id, sessionId, role, seq, createdAt } = message;
    return new StoredMessage(
      { id, sessionId, role, seq, createdAt, updatedAt: now, model: message.model, finishedAt },
      json,
    );
  }

  /**
   * A streaming write: a small message (or the first streaming write of one) is rewritten whole;
   * past {@link STREAMING_REWRITE_MAX_CHARS}, only the rows from {@link chunksBetween} are inserted. The
   * message row itself is left alone then (SQLite rewrites a whole row, overflow pages included, on any
   * update), so its `updated_at` moves on the next whole write.
   */
  private writeStreaming(message: Message): void {
    const before = this.written.get(message.id);
    const after = message.parts.map(snapshotOf);
    const rows =
      before && sizeOf(after) > STREAMING_REWRITE_MAX_CHARS
        ? chunksBetween(before.parts, after, message.parts)
        : undefined;
    if (!rows) {
      this.writeNow(message, finishedAtOf(message), false, after);
      return;
    }
    if (rows.length) {
      // before the rows are written: a message that may have rows is never chunkless again
      this.chunkless.delete(message.id);
      this.chunksTx.immediate(message.id, before!.chunkSeq, rows);
      before!.chunkSeq += rows.length;
      for (const row of rows) this.charsSinceCheckpoint += row.body.length;
    }
    before!.parts = after;
    this.lastWriteAt.set(message.id, performance.now());
  }

  /**
   * Copies the WAL into the database and truncates it to zero bytes, so a large reply does not leave a
   * WAL of its size behind. Waits (busy_timeout) for readers in other processes; a checkpoint that
   * cannot complete is left to SQLite's automatic one and never fails the write that triggered it.
   */
  private checkpoint(): void {
    this.charsSinceCheckpoint = 0;
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // SQLITE_BUSY or the like: the data is safe in the WAL; the next checkpoint will copy it
    }
  }

  /**
   * Arms the timer that writes the pending state of `id`. A Node timer can fire a little early (libuv
   * measures from its cached loop time, which lags after synchronous work), so the callback re-checks the
   * interval and re-arms for the rest rather than write too soon.
   */
  private schedule(id: string, delayMs: number): NodeJS.Timeout {
    return setTimeout(() => {
      const queued = this.pending.get(id);
      if (!queued) return;
      const remainingMs = this.intervalMs - (performance.now() - (this.lastWriteAt.get(id) ?? -Infinity));
      if (remainingMs > 0) {
        queued.timer = this.schedule(id, remainingMs);
        return;
      }
      try {
        this.flushOne(id);
      } catch (err) {
        this.deferredErrors.set(id, err);
      }
    }, Math.ceil(delayMs));
  }

  private flushOne(id: string): void {
    const queued = this.pending.get(id);
    if (!queued) return;
    this.cancelPending(id);
    this.writeStreaming(queued.message);
  }

  private cancelPending(id: string): void {
    const queued = this.pending.get(id);
    if (!queued) return;
    clearTimeout(queued.timer);
    this.pending.delete(id);
  }

  private takeDeferredError(id: string): void {
    if (!this.deferredErrors.has(id)) return;
    const err = this.deferredErrors.get(id);
    this.deferredErrors.delete(id);
    throw err;
  }
}
