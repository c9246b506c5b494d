/**
 * The database's file name and lock wait, apart from `database.ts` so that a reader that opens only
 * the tool-call log (`tool-call-log-reader.ts`) does not load every store's module with them.
 */

/** The database file's name inside the data directory. */
export const DATABASE_FILE_NAME = 'opencode.db';

/** How long a connection waits for another's write lock before failing with SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5000;
