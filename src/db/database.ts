/**
 * Opens the project's SQLite database `<dataDir>/opencode.db` (where the original keeps it) and builds the stores.
 * Several processes may open the same file at once (two terminals on one project): WAL lets readers and
 * one writer proceed together, `busy_timeout` makes a writer wait for the lock instead of failing, and
 * migrations run under `BEGIN IMMEDIATE` with the version re-read after the lock is held.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, DATABASE_FILE_NAME } from './constants.js';
import { prepareDataDir } from './data-dir.js';
import { SchemaTooNewError } from './errors.js';
import { FileStore } from './file-store.js';
import { MessageStore } from './message-store.js';
import { nativeBinding } from './native-binding.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import { SessionStore } from './session-store.js';
import { asStorageError } from './storage-errors.js';
import { ToolCallLog } from './tool-call-log.js';

// shared with the tool-call log's reader (tool-call-log-reader.ts)
export { BUSY_TIMEOUT_MS, DATABASE_FILE_NAME };

/**
 * Size the WAL is cut back to when a checkpoint resets it, in bytes (`PRAGMA journal_size_limit`).
 * Without it the WAL keeps the size of the largest burst of writes (7 GB after one reply).
 */
export const WAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;

/** Knobs for {@link openDatabase}; the defaults are what the app uses. */
export interface OpenDatabaseOptions {
  /** Where file-history storage failures go (they never fail a tool's write). Default: one line on stderr. */
  onFileHistoryError?: (err: unknown) => void;
  /** Minimum time between two streaming writes of one message, in ms. Default 100. */
  streamingIntervalMs?: number;
}

/** An open database and its stores. Close it when done; closing flushes pending streaming writes. */
export interface Database {
  /** absolute path of the SQLite file */
  readonly path: string;
  readonly sessions: SessionStore;
  readonly messages: MessageStore;
  readonly files: FileStore;
  /** the tool-call log */
  readonly toolCalls: ToolCallLog;
  /** the raw connection, for tests and maintenance; the stores are the API */
  readonly connection: BetterSqlite3.Database;
  /**
   * Flushes pending streaming writes, then closes the connection (even if the flush failed).
   * @throws the flush's error, after closing
   */
  close(): void;
}

/**
 * Opens (creating if needed) `<dataDir>/opencode.db`, creating `dataDir` with mode 0700, sets the pragmas
 * (WAL, busy_timeout 5000 ms, foreign_keys ON, synchronous NORMAL, journal_size_limit 32 MiB) and applies
 * pending migrations.
 * @throws {SchemaTooNewError} when the file's schema is newer than this build's migrations
 * @throws {StorageError} when the disk is read-only, full or not writable (the message says what to do)
 * @throws `SqliteError` when the file cannot be opened, is not a database, or stays locked past the timeout
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Database {
  // 0700, and a .gitignore that keeps the database out of the project's git history
  prepareDataDir(dataDir);
  const file = path.resolve(dataDir, DATABASE_FILE_NAME);

  let connection: BetterSqlite3.Database;
  try {
    connection = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS, ...nativeBinding() });
  } catch (err) {
    throw asStorageError(err, dataDir, 'data');
  }
  try {
    connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    enableWal(connection);
    connection.pragma('synchronous = NORMAL');
    connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    connection.pragma('foreign_keys = ON');
    migrate(connection, file);
  } catch (err) {
    connection.close();
    // a read-only or full disk says so, instead of "disk I/O error"
    throw asStorageError(err, dataDir, 'data');
  }

  const messages = new MessageStore(connection, { streamingIntervalMs: options.streamingIntervalMs });
  return {
    path: file,
    connection,
    sessions: new SessionStore(connection),
    messages,
    files: new FileStore(connection, options.onFileHistoryError),
    toolCalls: new ToolCallLog(connection),
    close() {
      try {
        messages.flush();
      } finally {
        connection.close();
      }
    },
  };
}

/**
 * `PRAGMA journal_mode = WAL`, tried again while another connection holds the lock it needs, up to
 * {@link BUSY_TIMEOUT_MS}. When several processes open a new database file at once (two `opencode -p`
 * started together in a new project), SQLite answers this pragma SQLITE_BUSY at once, without calling the
 * busy handler: about one first open in five failed with "database is locked" in three processes
 * (test/db/concurrent-first-open.test.ts).
 * @throws the pragma's error when it is not SQLITE_BUSY, or is still SQLITE_BUSY at the deadline
 */
function enableWal(connection: BetterSqlite3.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      connection.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      // a synchronous pause (opening is synchronous), 2–10 ms so that the processes do not retry in step
      Atomics.wait(PAUSE, 0, 0, 2 + Math.random() * 8);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Applies the migrations newer than `PRAGMA user_version`, in order, in one `BEGIN IMMEDIATE` transaction,
 * and returns the resulting version. Idempotent; safe when several connections call it at once (the
 * version is re-read once the write lock is held, so each migration runs once).
 * @throws {SchemaTooNewError} when the database is newer than the newest migration
 */
export function migrate(
  connection: BetterSqlite3.Database,
  file: string = connection.name,
  migrations: readonly Migration[] = allMigrations,
): number {
  const known = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const version = (): number => connection.pragma('user_version', { simple: true }) as number;
  const before = version();
  if (before > known) throw new SchemaTooNewError(file, before, known);
  if (before === known) return before;

  connection
    .transaction(() => {
      const current = version();
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        connection.exec(migration.sql);
        connection.pragma(`user_version = ${migration.version}`);
      }
    })
    .immediate();
  return version();
}
