/**
 * Which session the TUI reopens: the one a person last used in the TUI, not the newest
 * session of any kind. Before this, the TUI reopened the most recently updated session, so a later
 * `opencode -p` run (or one killed mid-turn) took its place. `tui_used_at` (unix ms) is set when the
 * TUI opens or creates a session; sessions never used there keep NULL.
 *
 * Existing sessions: the top-level ones that are not `-p` runs (whose titles start with
 * "Non-interactive: ", the only sessions titled so) count as used in the TUI when they were last
 * updated, so an upgrade reopens what the person last worked on.
 */
export const sql = `
ALTER TABLE sessions ADD COLUMN tui_used_at INTEGER;

UPDATE sessions SET tui_used_at = updated_at
WHERE parent_session_id IS NULL AND title NOT LIKE 'Non-interactive: %';

CREATE INDEX sessions_tui_used_at ON sessions (tui_used_at);
`;
