/**
 * Finding the sessions a killed process left mid-turn (issue #10 §4), so that the app can repair them
 * at start-up, before anyone opens them: a message never finished, or a last assistant message whose
 * tool calls got no results (the process died while a tool ran).
 */
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Ids of sessions holding an unfinished message, or whose last message is an assistant message with
 * tool calls (`"type":"tool_call"` in its stored parts). Uses the `(session_id, seq)` index; reads only.
 */
export function sessionsWithInterruptedTurns(connection: BetterSqlite3.Database): string[] {
  const rows = connection
    .prepare<[], { session_id: string }>(
      `SELECT DISTINCT session_id FROM messages WHERE finished_at IS NULL
       UNION
       SELECT m.session_id FROM messages m
       JOIN (SELECT session_id, MAX(seq) AS seq FROM messages GROUP BY session_id) last
         ON last.session_id = m.session_id AND last.seq = m.seq
       WHERE m.role = 'assistant' AND m.parts LIKE '%"type":"tool_call"%'`,
    )
    .all();
  return rows.map((r) => r.session_id);
}
