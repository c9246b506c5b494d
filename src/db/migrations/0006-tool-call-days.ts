/**
 * A daily roll-up of the tool-call log, so `opencode stats` adds up at most one row per tool and day
 * instead of every call (≤ 300 ms on 100,000 calls). A trigger keeps it in step with
 * every insert into `tool_calls`, whoever makes it; this migration fills it from the calls already
 * logged. Days are UTC days: `day` = floor(started_at / 86,400,000).
 *
 * The first, partial day of a period is read from `tool_calls` itself, found through the new index
 * `tool_calls_started` (a range seek: at most a day of calls).
 */
const DAY_MS = 86_400_000;
const OUTCOMES = ['ok', 'error', 'validation', 'permission', 'timeout', 'canceled'] as const;

export const sql = `
CREATE TABLE tool_call_days (
  tool TEXT NOT NULL,
  day INTEGER NOT NULL,
  source TEXT NOT NULL,
  last_used_at INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  ${OUTCOMES.map((o) => `${o} INTEGER NOT NULL`).join(',\n  ')},
  coerced INTEGER NOT NULL,
  truncated INTEGER NOT NULL,
  input_chars INTEGER NOT NULL,
  output_chars INTEGER NOT NULL,
  PRIMARY KEY (tool, day)
) STRICT, WITHOUT ROWID;

CREATE INDEX tool_calls_started ON tool_calls (started_at);
-- the grouped scan it served is replaced by the roll-up: one index less to update per call
DROP INDEX tool_calls_by_tool;

INSERT INTO tool_call_days
SELECT tool, started_at / ${DAY_MS} AS day, source, max(started_at), count(*),
  ${OUTCOMES.map((o) => `sum(outcome = '${o}')`).join(', ')},
  sum(coerced), sum(truncated), sum(input_chars), sum(output_chars)
FROM tool_calls GROUP BY tool, day;

-- source follows the latest call of the day (the bare column of max() above does the same for the fill)
CREATE TRIGGER tool_call_days_insert AFTER INSERT ON tool_calls BEGIN
  INSERT INTO tool_call_days VALUES (
    new.tool, new.started_at / ${DAY_MS}, new.source, new.started_at, 1,
    ${OUTCOMES.map((o) => `new.outcome = '${o}'`).join(', ')},
    new.coerced, new.truncated, new.input_chars, new.output_chars)
  ON CONFLICT (tool, day) DO UPDATE SET
    source = CASE WHEN excluded.last_used_at >= last_used_at THEN excluded.source ELSE source END,
    last_used_at = max(last_used_at, excluded.last_used_at),
    calls = calls + 1,
    ${OUTCOMES.map((o) => `${o} = ${o} + excluded.${o}`).join(',\n    ')},
    coerced = coerced + excluded.coerced,
    truncated = truncated + excluded.truncated,
    input_chars = input_chars + excluded.input_chars,
    output_chars = output_chars + excluded.output_chars;
END;
`;
