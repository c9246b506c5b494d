import { statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SchemaTooNewError, migrate, migrations, openDatabase, type Migration } from '../../src/db/index.js';
import { startWriter, tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
beforeEach(() => ({ dataDir, cleanup } = tempDataDir()));
afterEach(() => cleanup());

const tables = (db: BetterSqlite3.Database): string[] =>
  db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);

describe('opening the database', () => {
  it('creates <dataDir>/opencode.db in a 0700 directory with the pragmas set', () => {
    const db = openDatabase(dataDir);
    expect(db.path).toBe(path.join(dataDir, 'opencode.db'));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(db.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.connection.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.connection.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.connection.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.connection.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(tables(db.connection)).toEqual([
      'files',
      'files_path',
      'files_session_id',
      'message_chunks',
      'messages',
      'messages_count_delete',
      'messages_count_insert',
      'sessions',
      'sessions_created_at',
      'sessions_parent_session_id',
      'sessions_tui_used_at',
      'tool_call_days',
      'tool_call_days_insert',
      'tool_calls',
      'tool_calls_ran_durations',
      'tool_calls_started',
      'turn_changes',
      'turn_changes_session',
    ]);
    db.close();
  });

  it('applies migrations once: reopening and re-running change nothing', () => {
    const first = openDatabase(dataDir);
    const session = first.sessions.create({ title: 'kept' });
    first.close();
    const second = openDatabase(dataDir);
    expect(migrate(second.connection)).toBe(migrations.length);
    expect(migrate(second.connection)).toBe(migrations.length);
    expect(second.sessions.list().map((s) => s.id)).toEqual([session.id]);
    second.close();
  });

  it('applies only the newer migrations, in order, tracked by user_version', () => {
    openDatabase(dataDir).close();
    const connection = new BetterSqlite3(path.join(dataDir, 'opencode.db'));
    const next: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY);' },
      {
        version: migrations.length + 2,
        name: 'notes-text',
        sql: "ALTER TABLE notes ADD COLUMN text TEXT NOT NULL DEFAULT '';",
      },
    ];
    expect(migrate(connection, 'x', next)).toBe(migrations.length + 2);
    expect(migrate(connection, 'x', next)).toBe(migrations.length + 2);
    expect(connection.prepare("SELECT group_concat(name) AS c FROM pragma_table_info('notes')").get()).toEqual({
      c: 'id,text',
    });
    connection.close();
  });

  it('rolls back a failing migration entirely', () => {
    const connection = new BetterSqlite3(path.join(dataDir, '..', 'bad.db'));
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'broken', sql: 'CREATE TABLE t (a); NOT SQL;' },
    ];
    expect(() => migrate(connection, 'x', broken)).toThrow(/syntax error/);
    expect(connection.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(connection)).toEqual([]);
    connection.close();
  });

  it('refuses a database from a newer opencode', () => {
    openDatabase(dataDir).close();
    const connection = new BetterSqlite3(path.join(dataDir, 'opencode.db'));
    connection.pragma('user_version = 99');
    connection.close();
    expect(() => openDatabase(dataDir)).toThrow(SchemaTooNewError);
    expect(() => openDatabase(dataDir)).toThrow(
      `${path.join(dataDir, 'opencode.db')}: schema version 99 is newer than this opencode knows (${migrations.length}); upgrade opencode`,
    );
  });

  it('lets two connections in one process open the same fresh directory', () => {
    const a = openDatabase(dataDir);
    const b = openDatabase(dataDir);
    const session = a.sessions.create({ title: 'shared' });
    expect(b.sessions.get(session.id)?.title).toBe('shared');
    a.close();
    b.close();
  });

  it('lets four processes open and migrate the same fresh directory at once', async () => {
    const writers = Array.from({ length: 4 }, () => startWriter(dataDir, 'new', 25));
    await Promise.all(writers.map((w) => w.ready));
    writers.forEach((w) => w.go());
    const results = await Promise.all(writers.map((w) => w.done));
    const db = openDatabase(dataDir);
    expect(db.sessions.list()).toHaveLength(4);
    for (const { sessionId, seqs } of results) {
      expect(seqs).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(db.sessions.get(sessionId)?.messageCount).toBe(25);
    }
    db.close();
  }, 30_000);
});
