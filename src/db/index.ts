/**
 * Storage: the project's SQLite database and its stores for sessions, messages and file history.
 * Depends on nothing of ours but the shared leaf types (`message.ts`, `tools/file-history.ts`).
 */
export {
  BUSY_TIMEOUT_MS,
  DATABASE_FILE_NAME,
  migrate,
  openDatabase,
  type Database,
  type OpenDatabaseOptions,
} from './database.js';
export { NotFoundError, SchemaTooNewError } from './errors.js';
export { FileStore, type FileChange, type FileVersion } from './file-store.js';
export { MessageStore } from './message-store.js';
export { migrations, type Migration } from './migrations/index.js';
export { SessionStore, type Session } from './session-store.js';
export {
  ToolCallLog,
  TOOL_CALL_OUTCOMES,
  type ToolCallOutcome,
  type ToolCallRow,
  type ToolStats,
} from './tool-call-log.js';
