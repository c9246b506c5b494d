/**
 * The first schema (the original's, fixed): timestamps in unix milliseconds set by the stores (the original's
 * triggers wrote seconds), messages ordered by a per-session `seq`, token totals that are sums over calls
 * with the last call's context size kept apart, and sub-sessions deleted with their parent.
 * Both of the original's migrations (initial, summary_message_id) are folded in.
 */
export const sql = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  parent_session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
  prompt_tokens INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
  completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
  cache_read_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_read_tokens >= 0),
  cache_write_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0),
  context_tokens INTEGER NOT NULL DEFAULT 0 CHECK (context_tokens >= 0),
  cost REAL NOT NULL DEFAULT 0 CHECK (cost >= 0),
  summary_message_id TEXT REFERENCES messages (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_parent_session_id ON sessions (parent_session_id);
CREATE INDEX sessions_created_at ON sessions (created_at);

CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq > 0),
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
  parts TEXT NOT NULL DEFAULT '[]',
  model TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  UNIQUE (session_id, seq)
) STRICT;

-- message_count follows inserts and deletes whoever makes them (the original's triggers, kept).
CREATE TRIGGER messages_count_insert AFTER INSERT ON messages
BEGIN
  UPDATE sessions SET message_count = message_count + 1 WHERE id = NEW.session_id;
END;

CREATE TRIGGER messages_count_delete AFTER DELETE ON messages
BEGIN
  UPDATE sessions SET message_count = message_count - 1 WHERE id = OLD.session_id;
END;

CREATE TABLE files (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  content TEXT NOT NULL,
  version TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (path, session_id, version)
) STRICT;

CREATE INDEX files_session_id ON files (session_id);
CREATE INDEX files_path ON files (path);
`;
