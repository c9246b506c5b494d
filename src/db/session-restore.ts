/**
 * Writing a session tree back exactly as it was exported (`opencode sessions import`):
 * sessions with their totals and timestamps, messages with their `seq` and times, file versions. The
 * stores' own `create` methods stamp the current time and allocate `seq`; an import must not.
 */
import type { Database } from './database.js';
import type { FileVersion } from './file-store.js';
import { capParts } from './part-cap.js';
import type { Session } from './session-store.js';
import type { Message } from '../message.js';

/** What {@link restoreSessionRows} writes. Parents come before their sub-sessions in `sessions`. */
export interface SessionRows {
  sessions: Omit<Session, 'messageCount'>[];
  messages: Message[];
  files: FileVersion[];
}

/**
 * Inserts every row in one transaction (all or nothing). Foreign keys are checked at commit, so a
 * session's summary message may come after it.
 * @throws `SqliteError` when an id is taken (SQLITE_CONSTRAINT_PRIMARYKEY / _UNIQUE) or a reference
 *   points at nothing (SQLITE_CONSTRAINT_FOREIGNKEY); nothing is written then
 */
export function restoreSessionRows(db: Database, rows: SessionRows): void {
  const { connection } = db;
  const insertMessage = connection.prepare(
    `INSERT INTO messages (id, session_id, seq, role, parts, model, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setUpdatedAt = connection.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?');
  const insertFile = connection.prepare(
    'INSERT INTO files (id, session_id, path, content, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  connection
    .transaction(() => {
      connection.pragma('defer_foreign_keys = ON');
      for (const session of rows.sessions) db.sessions.restore(session);
      // the insert trigger counts each message into its session's message_count, and moves the session's
      // updated_at up to the message's created_at (migration 0009)
      for (const m of rows.messages) {
        insertMessage.run(
          m.id,
          m.sessionId,
          m.seq,
          m.role,
          JSON.stringify(capParts(m.parts)),
          m.model ?? null,
          m.createdAt,
          m.updatedAt,
          m.finishedAt ?? null,
        );
      }
      // so each session gets its exported time back: a message may be newer than its session (the clock
      // was set back, then the session renamed or its usage added), and the import is exact
      for (const session of rows.sessions) setUpdatedAt.run(session.updatedAt, session.id);
      for (const f of rows.files)
        insertFile.run(f.id, f.sessionId, f.path, f.content, f.version, f.createdAt, f.updatedAt);
    })
    .immediate();
}
