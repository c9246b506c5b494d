/**
 * The file changes of each turn, for undo and redo: one row per (turn, path) holding the
 * exact bytes and mode the path had before the turn's first write and after its last one. A turn is the
 * person's message that started it (`turn_id`, a user message; `turn_seq` its place in the session).
 * Bytes, not text: the `files` table keeps decoded text for the sidebar, which cannot give back a
 * Latin-1 file with CRLF endings and a BOM byte for byte.
 *
 * - `before_bytes` NULL: the path did not exist before the turn (the turn created it);
 *   `after_bytes` NULL: the turn removed it. `before_link` set: the path was a symbolic link to that
 *   text (patch deleted or moved the link itself).
 * - `state`: `done` (the change is on disk, as far as we know), `undone` (undo put the before state
 *   back), `skipped` (undo left the file alone because it had changed since the turn), `dropped` (was
 *   undone, then a later turn changed files: redo no longer applies).
 *
 * Not a foreign key to `messages`: the person's message can be deleted with nothing lost here that the
 * session's cascade does not already remove.
 */
export const sql = `
CREATE TABLE turn_changes (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  turn_seq INTEGER NOT NULL CHECK (turn_seq > 0),
  path TEXT NOT NULL,
  before_bytes BLOB,
  before_mode INTEGER,
  before_link TEXT,
  after_bytes BLOB,
  after_mode INTEGER,
  state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('done', 'undone', 'skipped', 'dropped')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (turn_id, path)
) STRICT;

CREATE INDEX turn_changes_session ON turn_changes (session_id, turn_seq);
`;
