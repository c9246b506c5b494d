/**
 * A second connection to a database that records every statement it runs (better-sqlite3's `verbose`
 * option: the SQL of each statement as executed, the SAVEPOINT/RELEASE of nested transactions included,
 * trigger bodies not), with the stores built on it, for tests that count what a write costs.
 */
import BetterSqlite3 from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from '../../src/db/constants.js';
import { MessageStore } from '../../src/db/message-store.js';
import { nativeBinding } from '../../src/db/native-binding.js';
import { SessionStore } from '../../src/db/session-store.js';
import { ToolCallLog } from '../../src/db/tool-call-log.js';

/** The statement kinds the trace is reduced to: each statement's verb and table. */
const KIND =
  /^(BEGIN IMMEDIATE|BEGIN|COMMIT|ROLLBACK TO|ROLLBACK|SAVEPOINT|RELEASE|INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+|SELECT)/;

export interface Traced {
  connection: BetterSqlite3.Database;
  messages: MessageStore;
  sessions: SessionStore;
  toolCalls: ToolCallLog;
  /** the statements run since the last call, as `"UPDATE messages"`, `"SAVEPOINT"`… */
  take(): string[];
  close(): void;
}

/** Opens `file` (already created and migrated by `openDatabase`) with a statement trace. */
export function traced(file: string, options: { streamingIntervalMs?: number } = {}): Traced {
  let log: string[] = [];
  const connection = new BetterSqlite3(file, {
    timeout: BUSY_TIMEOUT_MS,
    ...nativeBinding(),
    verbose: (sql: unknown) => log.push(KIND.exec(String(sql).trim())?.[1] ?? String(sql)),
  });
  connection.pragma('foreign_keys = ON');
  const messages = new MessageStore(connection, options);
  return {
    connection,
    messages,
    sessions: new SessionStore(connection),
    toolCalls: new ToolCallLog(connection),
    take() {
      const taken = log;
      log = [];
      return taken;
    },
    close() {
      try {
        messages.flush();
      } finally {
        connection.close();
      }
    },
  };
}
