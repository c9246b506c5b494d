/**
 * Reads a project's session database the way a person's sqlite3 would: `<dir>/.opencode/opencode.db`
 * opened read-only for one query, for tests that check what a `bin/opencode` run stored.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The rows `sql` (with `args` bound) gives in the project `dir`'s database. */
export function queryProjectDb<T>(dir: string, sql: string, ...args: unknown[]): T[] {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
