/**
 * Sessions: a conversation with its running token and cost totals (the original's table, with its faults fixed).
 *
 * Unlike the original, which overwrote `prompt_tokens`/`completion_tokens` with the last call's counts
 * (and counted cache reads as completion), the token columns here are sums over every provider call, and
 * the last call's context size is kept apart in `contextTokens` for the status bar and auto-compaction.
 */
import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { Usage } from '../message.js';
import { NotFoundError } from './errors.js';
import { returnedRow } from './returning.js';

/** One session as stored. Token counts are sums over all provider calls of the session. */
export interface Session {
  id: string;
  /** set for sub-agent (task) sessions; deleting the parent deletes them */
  parentSessionId?: string;
  title: string;
  messageCount: number;
  /** sum of input tokens not read from or written to the cache */
  promptTokens: number;
  /** sum of output tokens */
  completionTokens: number;
  /** sum of input tokens read from the prompt cache */
  cacheReadTokens: number;
  /** sum of input tokens written to the prompt cache */
  cacheWriteTokens: number;
  /** the last call's input + output: the current context size */
  contextTokens: number;
  /** sum of the calls' costs, in US dollars */
  costUsd: number;
  /** the assistant message holding the latest summary; history before it is not sent again */
  summaryMessageId?: string;
  /** unix ms */
  createdAt: number;
  /** unix ms */
  updatedAt: number;
  /** unix ms the TUI last opened or created it (migration 0004); unset for sessions never used there */
  tuiUsedAt?: number;
}

interface SessionRow {
  id: string;
  parent_session_id: string | null;
  title: string;
  message_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  context_tokens: number;
  cost: number;
  summary_message_id: string | null;
  created_at: number;
  updated_at: number;
  tui_used_at: number | null;
}

function toSession(row: SessionRow): Session {
  const session: Session = {
    id: row.id,
    title: row.title,
    messageCount: row.message_count,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    contextTokens: row.context_tokens,
    costUsd: row.cost,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.parent_session_id !== null) session.parentSessionId = row.parent_session_id;
  if (row.summary_message_id !== null) session.summaryMessageId = row.summary_message_id;
  if (row.tui_used_at !== null) session.tuiUsedAt = row.tui_used_at;
  return session;
}

/** Reads and writes the `sessions` table. Every method is synchronous and throws on a failed write. */
export class SessionStore {
  /** the statements the agent runs at every step, prepared once (a prepare costs about what the query does) */
  private readonly statements = new Map<string, BetterSqlite3.Statement<unknown[], SessionRow>>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  private prepared(sql: string): BetterSqlite3.Statement<unknown[], SessionRow> {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare<unknown[], SessionRow>(sql)));
    return statement;
  }

  /**
   * Creates a session. `id` defaults to a random UUID; sub-agent sessions pass the tool-call id.
   * @throws `SqliteError` (SQLITE_CONSTRAINT_PRIMARYKEY) when `id` is taken, or
   *   (SQLITE_CONSTRAINT_FOREIGNKEY) when `parentSessionId` does not exist
   */
  create(input: { title: string; parentSessionId?: string; id?: string }): Session {
    const now = Date.now();
    const row = returnedRow(
      this.db.prepare<[string, string | null, string, number, number], SessionRow>(
        `INSERT INTO sessions (id, parent_session_id, title, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?) RETURNING *`,
      ),
      input.id ?? randomUUID(),
      input.parentSessionId ?? null,
      input.title,
      now,
      now,
    );
    return toSession(row!);
  }

  /** The session, or `undefined` when there is none with this id. */
  get(id: string): Session | undefined {
    const row = this.prepared('SELECT * FROM sessions WHERE id = ?').get(id);
    return row && toSession(row);
  }

  /** Top-level sessions (no parent), newest first. */
  list(): Session[] {
    return this.db
      .prepare<[], SessionRow>(
        'SELECT * FROM sessions WHERE parent_session_id IS NULL ORDER BY created_at DESC, rowid DESC',
      )
      .all()
      .map(toSession);
  }

  /** The sub-sessions of `parentId`, oldest first (the order the sub-agents ran). */
  listChildren(parentId: string): Session[] {
    return this.db
      .prepare<[string], SessionRow>('SELECT * FROM sessions WHERE parent_session_id = ? ORDER BY created_at, rowid')
      .all(parentId)
      .map(toSession);
  }

  /** Every session, sub-agent sessions included, most recently updated first. */
  listAll(): Session[] {
    return this.db
      .prepare<[], SessionRow>('SELECT * FROM sessions ORDER BY updated_at DESC, rowid DESC')
      .all()
      .map(toSession);
  }

  /** The most recently updated top-level session (`--continue`), or `undefined` when there is none. */
  latest(): Session | undefined {
    const row = this.db
      .prepare<[], SessionRow>(
        'SELECT * FROM sessions WHERE parent_session_id IS NULL ORDER BY updated_at DESC, rowid DESC LIMIT 1',
      )
      .get();
    return row && toSession(row);
  }

  /** The top-level session the TUI last opened or created (it reopens there), or `undefined`. */
  lastUsedInTui(): Session | undefined {
    const row = this.db
      .prepare<[], SessionRow>(
        'SELECT * FROM sessions WHERE parent_session_id IS NULL AND tui_used_at IS NOT NULL ORDER BY tui_used_at DESC, rowid DESC LIMIT 1',
      )
      .get();
    return row && toSession(row);
  }

  /**
   * Records that the TUI opened or created the session now (see {@link lastUsedInTui}). Leaves
   * `updatedAt` alone: opening a session does not change it. @throws {NotFoundError}
   */
  markUsedInTui(id: string, atMs: number = Date.now()): void {
    const result = this.db.prepare('UPDATE sessions SET tui_used_at = ? WHERE id = ?').run(atMs, id);
    if (result.changes === 0) throw new NotFoundError('session', id);
  }

  /**
   * Sessions whose id starts with `prefix` (sub-agent sessions included), at most `limit`, by id. For
   * ids typed by a person, who may give a unique prefix as with git.
   */
  findByIdPrefix(prefix: string, limit = 10): Session[] {
    return this.db
      .prepare<[number, string, number], SessionRow>(
        'SELECT * FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT ?',
      )
      .all(prefix.length, prefix, limit)
      .map(toSession);
  }

  /**
   * Inserts `session` exactly as given (every field, timestamps and totals included), for an import.
   * `messageCount` is not written: the messages-table triggers count the messages inserted afterwards.
   * @throws `SqliteError` (SQLITE_CONSTRAINT_PRIMARYKEY) when the id is taken, (…_FOREIGNKEY) when the
   *   parent or summary message does not exist
   */
  restore(session: Omit<Session, 'messageCount'>): Session {
    const row = returnedRow(
      this.db.prepare<unknown[], SessionRow>(
        `INSERT INTO sessions (id, parent_session_id, title, prompt_tokens, completion_tokens, cache_read_tokens,
           cache_write_tokens, context_tokens, cost, summary_message_id, created_at, updated_at, tui_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ),
      session.id,
      session.parentSessionId ?? null,
      session.title,
      session.promptTokens,
      session.completionTokens,
      session.cacheReadTokens,
      session.cacheWriteTokens,
      session.contextTokens,
      session.costUsd,
      session.summaryMessageId ?? null,
      session.createdAt,
      session.updatedAt,
      session.tuiUsedAt ?? null,
    );
    return toSession(row!);
  }

  /** Renames a session. @throws {NotFoundError} */
  updateTitle(id: string, title: string): Session {
    return this.update(id, 'title = ?', [title]);
  }

  /**
   * Records one provider call: adds `usage` to the token totals and `costUsd` (US dollars) to the cost,
   * and sets `contextTokens` (the call's input + output as the caller counts it) — set, not added; when
   * omitted (a sub-agent's usage rolled up into its parent) the context size is left as it is.
   * @throws {NotFoundError}; `SqliteError` (SQLITE_CONSTRAINT_CHECK) for negative counts
   */
  addUsage(id: string, usage: Usage, costUsd: number, contextTokens?: number): Session {
    return this.update(
      id,
      `prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?,
       cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
       cost = cost + ?, context_tokens = COALESCE(?, context_tokens)`,
      [usage.input, usage.output, usage.cacheRead, usage.cacheWrite, costUsd, contextTokens ?? null],
    );
  }

  /**
   * Marks `messageId` as the session's summary (after compaction), or clears it with `null`.
   * @throws {NotFoundError}; `SqliteError` (SQLITE_CONSTRAINT_FOREIGNKEY) when the message does not exist
   */
  setSummaryMessage(id: string, messageId: string | null): Session {
    return this.update(id, 'summary_message_id = ?', [messageId]);
  }

  /**
   * Deletes a session with its messages, file history and sub-sessions (foreign-key cascade).
   * @throws {NotFoundError}
   */
  delete(id: string): void {
    const result = this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
    if (result.changes === 0) throw new NotFoundError('session', id);
  }

  private update(id: string, assignments: string, values: unknown[]): Session {
    // `assignments` is one of a few constant strings of this class, so the cache stays that small; the
    // session's time never goes back (a clock set back), as with a message's insert (migration 0009)
    const row = returnedRow(
      this.prepared(`UPDATE sessions SET ${assignments}, updated_at = MAX(updated_at, ?) WHERE id = ? RETURNING *`),
      ...values,
      Date.now(),
      id,
    );
    if (!row) throw new NotFoundError('session', id);
    return toSession(row);
  }
}
