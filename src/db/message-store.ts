/**
 * Messages of a session (reference §6, fixed): ordered by `seq`, a per-session counter allocated in the
 * insert itself, never by time (the original ordered by second-resolution `created_at`, so messages of one
 * second came back in arbitrary order).
 *
 * While a reply streams, the agent updates its message many times a second; `updateStreaming` writes at
 * most once per interval (default 100 ms) per message with the latest parts, and `finish` always writes at
 * once. A failed deferred write is kept and thrown by the next call about that message (or by `flush()`),
 * so the run fails rather than losing data silently. The store publishes no events; the agent does.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { finishPart, type Message, type MessagePart, type Role } from '../message.js';
import { NotFoundError } from './errors.js';

interface MessageRow {
  id: string;
  session_id: string;
  seq: number;
  role: Role;
  parts: string;
  model: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

function toMessage(row: MessageRow): Message {
  const message: Message = {
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    parts: JSON.parse(row.parts) as MessagePart[],
    seq: row.seq,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.model !== null) message.model = row.model;
  if (row.finished_at !== null) message.finishedAt = row.finished_at;
  return message;
}

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
  /** performance.now() of each message's last write, for throttling */
  private readonly lastWriteAt = new Map<string, number>();
  private readonly deferredErrors = new Map<string, unknown>();
  private readonly insert: BetterSqlite3.Statement<[InsertParams], MessageRow>;
  private readonly touchSession: BetterSqlite3.Statement<[number, string]>;
  private readonly write: BetterSqlite3.Statement<[string, string | null, number, number | null, string], MessageRow>;

  constructor(
    private readonly db: BetterSqlite3.Database,
    options: { streamingIntervalMs?: number } = {},
  ) {
    this.intervalMs = options.streamingIntervalMs ?? 100;
    // seq is computed inside the INSERT, which holds the write lock, so two writers can never take the same one.
    this.insert = db.prepare(
      `INSERT INTO messages (id, session_id, seq, role, parts, model, created_at, updated_at, finished_at)
       VALUES (@id, @sessionId, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = @sessionId),
               @role, @parts, @model, @now, @now, @finishedAt)
       RETURNING *`,
    );
    this.touchSession = db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?');
    this.write = db.prepare(
      'UPDATE messages SET parts = ?, model = ?, updated_at = ?, finished_at = ? WHERE id = ? RETURNING *',
    );
  }

  /**
   * Appends a message to a session, allocating the next `seq`. `finishedAt` is set when `parts` hold a
   * finish part (its time). Also bumps the session's `updated_at`.
   * @throws `SqliteError` (SQLITE_CONSTRAINT_FOREIGNKEY) when the session does not exist
   */
  create(input: { sessionId: string; role: Role; parts: MessagePart[]; model?: string; id?: string }): Message {
    const now = Date.now();
    const row = this.db
      .transaction(() => {
        const inserted = this.insert.get({
          id: input.id ?? randomUUID(),
          sessionId: input.sessionId,
          role: input.role,
          parts: JSON.stringify(input.parts),
          model: input.model ?? null,
          now,
          finishedAt: finishedAtOf({ parts: input.parts }) ?? null,
        });
        this.touchSession.run(now, input.sessionId);
        return inserted;
      })
      .immediate();
    return toMessage(row!);
  }

  /** The message, or `undefined`. Pending streaming state is not included until it is flushed. */
  get(id: string): Message | undefined {
    const row = this.db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?').get(id);
    return row && toMessage(row);
  }

  /** All messages of a session in `seq` order. */
  list(sessionId: string): Message[] {
    return this.db
      .prepare<[string], MessageRow>('SELECT * FROM messages WHERE session_id = ? ORDER BY seq')
      .all(sessionId)
      .map(toMessage);
  }

  /**
   * Writes `message` (parts, model, finishedAt) now, replacing any pending streaming state for it.
   * Returns the stored message (new `updatedAt`).
   * @throws {NotFoundError}; a deferred streaming-write error for this message
   */
  update(message: Message): Message {
    this.takeDeferredError(message.id);
    this.cancelPending(message.id);
    return this.writeNow(message, finishedAtOf(message));
  }

  /**
   * Records a streaming state of `message`. Writes at once when the message was not written in the last
   * interval; otherwise keeps it, and a timer writes the latest kept state when the interval has passed.
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
      this.writeNow(message, finishedAtOf(message));
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
    const stored = this.writeNow(message, finishedAtOf(message) ?? Date.now());
    this.lastWriteAt.delete(message.id);
    return stored;
  }

  /**
   * Deletes a message (the session's `messageCount` follows). Drops pending streaming state.
   * @throws {NotFoundError}
   */
  delete(id: string): void {
    this.cancelPending(id);
    this.lastWriteAt.delete(id);
    this.deferredErrors.delete(id);
    const result = this.db.prepare('DELETE FROM messages WHERE id = ?').run(id);
    if (result.changes === 0) throw new NotFoundError('message', id);
  }

  private writeNow(message: Message, finishedAt: number | undefined): Message {
    const row = this.write.get(JSON.stringify(message.parts), message.model ?? null, Date.now(), finishedAt ?? null, message.id);
    this.lastWriteAt.set(message.id, performance.now());
    if (!row) throw new NotFoundError('message', message.id);
    return toMessage(row);
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
    this.writeNow(queued.message, finishedAtOf(queued.message));
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
