/**
 * A message's insert also moves its session's `updated_at`. The store's `create` made that a
 * second statement, so each create ran in a transaction of its own (a savepoint inside a batch): four
 * statements for one row, two creates in every step of the agent loop. The insert trigger, which counts
 * the message already, now sets the time too, so a create is one statement and atomic by itself.
 * `MAX`: a session's time never goes back, so an import (session-restore.ts), which writes messages
 * with their own times after their session, leaves the session's time as it was exported.
 */
export const sql = `
DROP TRIGGER messages_count_insert;
CREATE TRIGGER messages_count_insert AFTER INSERT ON messages
BEGIN
  UPDATE sessions SET message_count = message_count + 1, updated_at = MAX(updated_at, NEW.created_at)
  WHERE id = NEW.session_id;
END;
`;
