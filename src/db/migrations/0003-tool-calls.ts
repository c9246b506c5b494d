/**
 * The tool-call log: one row per tool call of every source, written as the call finishes.
 * Not tied to `sessions` by a foreign key: deleting a session keeps its calls in the statistics, which
 * are about the tools, not the conversation.
 */
export const sql = `
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  tool_call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  source TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'validation', 'permission', 'timeout', 'canceled')),
  coerced INTEGER NOT NULL CHECK (coerced IN (0, 1)),
  input_chars INTEGER NOT NULL CHECK (input_chars >= 0),
  output_chars INTEGER NOT NULL CHECK (output_chars >= 0),
  truncated INTEGER NOT NULL CHECK (truncated IN (0, 1))
) STRICT;

-- \`opencode stats --days N\` reads both indexes alone, never the table: the first holds every column the
-- per-tool figures need, in tool order (a grouped scan without a sort); the second each tool's durations in
-- order, for its percentiles
CREATE INDEX tool_calls_by_tool ON tool_calls (tool, started_at, outcome, coerced, truncated, input_chars, output_chars, source);
CREATE INDEX tool_calls_durations ON tool_calls (tool, duration_ms, started_at, outcome);
`;
