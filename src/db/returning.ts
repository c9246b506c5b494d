/**
 * The row a write's `RETURNING` clause gives back, with the write's commit checked. Outside a
 * transaction such a statement commits when it is reset, after its row was read, and better-sqlite3's
 * `Statement.get()` ignores what the reset returns (`JS_get` in its statement.cpp), so a commit that
 * failed (a full disk, an I/O error writing the WAL) handed back a row that SQLite had rolled back: a
 * message, session or file version reported stored and lost without a word. `Statement.all()` reads the
 * reset's result and throws it.
 */
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Runs the write `statement` (one with `RETURNING`) with `params` and returns its first returned row,
 * or undefined when it returned none (an `UPDATE … WHERE` that matched nothing).
 * @throws `SqliteError`: the write's own error, or its commit's (SQLITE_FULL, SQLITE_IOERR_WRITE, …)
 */
export function returnedRow<P extends unknown[], R>(
  statement: BetterSqlite3.Statement<P, R>,
  ...params: P
): R | undefined {
  return statement.all(...params)[0];
}
