/**
 * Finding the sessions a killed process left mid-turn, so that the app can repair them
 * at start-up, before anyone opens them: a message never finished, or a last assistant message whose
 * tool calls got no results (the process died while a tool ran).
 */
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Ids of sessions changed at or after `sinceMs` (unix ms; a crashed process's start) that hold an
 * unfinished message, or whose last message is an assistant message with tool calls
 * (`"type":"tool_call"` in its stored parts). Reads only the rows of those sessions (the sessions
 * table, then the `(session_id, seq)` index): a start-up check must not read a large database whole.
 */
export function sessionsWithInterruptedTurns(connection: BetterSqlite3.Database, sinceMs = 0): string[] {
  const recent = connection
    .prepare<[number], { id: string }>('SELECT id FROM sessions WHERE updated_at >= ?')
    .all(sinceMs);
  const unfinished = connection.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM messages WHERE session_id = ? AND finished_at IS NULL',
  );
  const lastOpenCall = connection.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM (SELECT role, parts FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT 1)
     WHERE role = 'assistant' AND parts LIKE '%"type":"tool_call"%'`,
  );
  return recent.map((r) => r.id).filter((id) => unfinished.get(id)!.n > 0 || lastOpenCall.get(id)!.n > 0);
}
