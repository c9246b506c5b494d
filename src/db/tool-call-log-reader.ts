/**
 * Opens the tool-call log for a report (`opencode stats`) with only what reading needs: the SQLite
 * connection and the {@link ToolCallLog}, not the session, message and file stores nor their modules.
 *
 * What {@link openDatabase} does and a reader skips, and why that gives the same answer:
 * - creating the data folder and its `.gitignore`: a report creates nothing (no file: no calls);
 * - `journal_mode = WAL`: stored in the file by whoever created it, and SQLite reads a WAL file either way;
 * - `synchronous`, `journal_size_limit`, `foreign_keys`: they govern writes;
 * - migrations when `user_version` is already the newest. When it is not (an older file, or a newer one
 *   this build cannot read) the full {@link openDatabase} runs instead: it migrates, or throws
 *   {@link SchemaTooNewError} as every command does.
 * The busy timeout is the same ({@link BUSY_TIMEOUT_MS}): a writer's lock is waited for, not an error.
 *
 * The native addon is loaded from where better-sqlite3's build puts it, `build/Release/better_sqlite3.node`,
 * instead of through the `bindings` package's search of a dozen folders (~5 ms of `opencode stats`);
 * when it is not there (another build layout) the search runs as before.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, DATABASE_FILE_NAME } from './constants.js';
import { migrations } from './migrations/index.js';
import { nativeBinding } from './native-binding.js';
import { asStorageError } from './storage-errors.js';
import { ToolCallLog } from './tool-call-log.js';

/** An open tool-call log; close it when done. */
export interface ToolCallLogReader {
  readonly toolCalls: ToolCallLog;
  close(): void;
}

/**
 * Opens `<dataDir>/opencode.db` for reading the tool-call log.
 * @returns undefined when there is no database file (nothing was ever logged)
 * @throws what {@link openDatabase} throws: {@link SchemaTooNewError}, a {@link StorageError}, `SqliteError`
 */
export async function openToolCallLog(dataDir: string): Promise<ToolCallLogReader | undefined> {
  const file = path.resolve(dataDir, DATABASE_FILE_NAME);
  if (!existsSync(file)) return undefined;
  let connection: BetterSqlite3.Database;
  try {
    connection = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true, ...nativeBinding() });
  } catch (err) {
    throw asStorageError(err, dataDir, 'data');
  }
  let current: boolean;
  try {
    current = connection.pragma('user_version', { simple: true }) === migrations[migrations.length - 1]!.version;
  } catch (err) {
    connection.close();
    throw asStorageError(err, dataDir, 'data');
  }
  if (!current) {
    connection.close();
    const { openDatabase } = await import('./database.js');
    const db = openDatabase(dataDir);
    return { toolCalls: db.toolCalls, close: () => db.close() };
  }
  return { toolCalls: new ToolCallLog(connection), close: () => connection.close() };
}
