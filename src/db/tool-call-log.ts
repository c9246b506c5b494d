/**
 * The tool-call log: every tool call, of every source, as a row of `tool_calls`, and the
 * per-tool figures `opencode stats` prints. One prepared insert per call (a trigger adds it to the
 * daily roll-up), so the agent loop pays one small write per tool call; the figures add up the roll-up's
 * rows (one per tool and day) plus the period's partial first day, and walk an index of the calls that
 * ran twice per tool for the percentiles, without sorting: fast on 100,000 rows (bench: `--only stats`).
 */
import type BetterSqlite3 from 'better-sqlite3';

/** How a call ended. The same list as the table's CHECK constraint (migration 0003). */
export const TOOL_CALL_OUTCOMES = ['ok', 'error', 'validation', 'permission', 'timeout', 'canceled'] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

/** One finished call, as written. Sizes are in characters (UTF-16 code units, JavaScript's `length`). */
export interface ToolCallRow {
  sessionId: string;
  /** the assistant message that holds the call */
  messageId: string;
  toolCallId: string;
  tool: string;
  /** `builtin`, `mcp`, `user`, `project`, `runtime`, or `unknown` for a name no tool has */
  source: string;
  /** unix ms */
  startedAt: number;
  durationMs: number;
  outcome: ToolCallOutcome;
  coerced: boolean;
  inputChars: number;
  outputChars: number;
  truncated: boolean;
}

/** The figures of one tool over a period. */
export interface ToolStats {
  tool: string;
  /** the source of its most recent call */
  source: string;
  calls: number;
  /** calls per outcome */
  outcomes: Record<ToolCallOutcome, number>;
  /** (error + timeout) / calls, 0…1: the tool's own failures; validation, denials and cancellations are counted apart */
  errorRate: number;
  /** calls whose arguments were coerced to the schema */
  coerced: number;
  /** calls whose output was cut to the limit */
  truncated: number;
  /**
   * Duration percentiles in ms (nearest rank: the smallest duration with at least p % of calls at or
   * below it) over the calls that ran to an end (ok, error, timeout); null when none did.
   */
  p50Ms: number | null;
  p95Ms: number | null;
  /** unix ms of the most recent call */
  lastUsedAt: number;
  inputChars: number;
  outputChars: number;
}

/** A UTC day in ms: the roll-up's unit (migration 0006). */
const DAY_MS = 86_400_000;

/** What the roll-up and the partial-day query give per tool (and per day). */
type ToolTotals = Record<ToolCallOutcome, number> & {
  tool: string;
  source: string;
  lastUsedAt: number;
  calls: number;
  coerced: number;
  truncated: number;
  inputChars: number;
  outputChars: number;
};

/** Adds up rows of the same tool; the source is the one of the latest call. */
function sumByTool(rows: readonly ToolTotals[]): ToolTotals[] {
  const byTool = new Map<string, ToolTotals>();
  const SUMMED = ['calls', 'coerced', 'truncated', 'inputChars', 'outputChars', ...TOOL_CALL_OUTCOMES] as const;
  for (const row of rows) {
    const total = byTool.get(row.tool);
    if (!total) {
      byTool.set(row.tool, { ...row });
      continue;
    }
    for (const key of SUMMED) total[key] += row[key];
    if (row.lastUsedAt >= total.lastUsedAt) {
      total.lastUsedAt = row.lastUsedAt;
      total.source = row.source;
    }
  }
  return [...byTool.values()];
}

/**
 * The calls whose duration says how long the tool takes (not rejected or stopped before or while
 * running): word for word the WHERE of the partial index `tool_calls_ran_durations` (migration 0007),
 * which SQLite uses only when the query says the same.
 */
const RAN = `outcome IN ('ok', 'error', 'timeout')`;

export class ToolCallLog {
  private readonly insert: BetterSqlite3.Statement;
  private readonly byToolDays: BetterSqlite3.Statement;
  private readonly byToolPartial: BetterSqlite3.Statement;
  private readonly nthShortest: { inPeriod: BetterSqlite3.Statement; all: BetterSqlite3.Statement };
  private readonly nthLongest: { inPeriod: BetterSqlite3.Statement; all: BetterSqlite3.Statement };
  private readonly firstStart: BetterSqlite3.Statement;

  constructor(private readonly db: BetterSqlite3.Database) {
    this.insert = db.prepare(
      `INSERT INTO tool_calls (session_id, message_id, tool_call_id, tool, source, started_at, duration_ms, outcome,
         coerced, input_chars, output_chars, truncated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // whole days from the roll-up (migration 0006), kept by a trigger on every insert, added up per tool
    // in SQL (one row per tool, not per tool and day, reaches JavaScript); `source` is the bare column
    // of the row that gave max(last_used_at): the latest day's, whose latest call's it is
    this.byToolDays = db.prepare(
      `SELECT tool, source, max(last_used_at) AS lastUsedAt, sum(calls) AS calls,
         ${TOOL_CALL_OUTCOMES.map((o) => `sum(${o}) AS ${o}`).join(', ')},
         sum(coerced) AS coerced, sum(truncated) AS truncated,
         sum(input_chars) AS inputChars, sum(output_chars) AS outputChars
       FROM tool_call_days WHERE day >= @firstDay GROUP BY tool`,
    );
    // the partial first day from the calls themselves: a range seek of at most a day. SQLite takes the
    // bare column `source` from the row that gave max(started_at): the latest call's source
    this.byToolPartial = db.prepare(
      `SELECT tool, source, max(started_at) AS lastUsedAt, count(*) AS calls,
         ${TOOL_CALL_OUTCOMES.map((o) => `sum(outcome = '${o}') AS ${o}`).join(', ')},
         sum(coerced) AS coerced, sum(truncated) AS truncated,
         sum(input_chars) AS inputChars, sum(output_chars) AS outputChars
       FROM tool_calls INDEXED BY tool_calls_started WHERE started_at >= @since AND started_at < @until GROUP BY tool`,
    );
    // the k-th shortest run of a tool in the period, walking its durations in the partial index of the
    // calls that ran (migration 0007: no sort, no table reads, no outcome to compare per step); from the
    // long end, the k-th shortest of n is the (n - k + 1)-th longest, so p95 steps over 5% of the
    // entries instead of 95%. When no call at all is older than the period, the walks leave out the
    // period's test: a third less work a step
    const walk = (period: string, order: string) =>
      db
        .prepare(
          `SELECT duration_ms FROM tool_calls INDEXED BY tool_calls_ran_durations
           WHERE tool = @tool ${period} AND ${RAN}
           ORDER BY duration_ms ${order} LIMIT 1 OFFSET @offset`,
        )
        .pluck();
    this.nthShortest = { inPeriod: walk('AND started_at >= @since', 'ASC'), all: walk('', 'ASC') };
    this.nthLongest = { inPeriod: walk('AND started_at >= @since', 'DESC'), all: walk('', 'DESC') };
    // the oldest call: through tool_calls_started, one step
    this.firstStart = db.prepare('SELECT min(started_at) FROM tool_calls').pluck();
  }

  /** Writes one finished call. @throws `SqliteError` (a full disk, a locked database past the busy timeout) */
  record(call: ToolCallRow): void {
    this.insert.run(
      call.sessionId,
      call.messageId,
      call.toolCallId,
      call.tool,
      call.source,
      Math.round(call.startedAt),
      Math.max(0, Math.round(call.durationMs)),
      call.outcome,
      call.coerced ? 1 : 0,
      call.inputChars,
      call.outputChars,
      call.truncated ? 1 : 0,
    );
  }

  /**
   * Per-tool figures of the calls started at or after `sinceMs` (unix ms), most called first (ties by name).
   */
  stats(sinceMs: number): ToolStats[] {
    const since = Math.floor(sinceMs);
    const firstDay = Math.ceil(since / DAY_MS);
    const rows = sumByTool([
      ...(this.byToolPartial.all({ since, until: firstDay * DAY_MS }) as ToolTotals[]),
      ...(this.byToolDays.all({ firstDay }) as ToolTotals[]),
    ]);
    const everyCall = ((this.firstStart.get() as number | null) ?? since) >= since;
    const [shortest, longest] = everyCall
      ? [this.nthShortest.all, this.nthLongest.all]
      : [this.nthShortest.inPeriod, this.nthLongest.inPeriod];
    // nearest rank: the ceil(p × n / 100)-th shortest of the n calls that ran
    const percentile = (tool: string, ran: number, p: number): number | null => {
      if (ran === 0) return null;
      const rank = Math.ceil((p * ran) / 100);
      return (
        rank - 1 <= ran - rank
          ? shortest.get({ tool, since, offset: rank - 1 })
          : longest.get({ tool, since, offset: ran - rank })
      ) as number;
    };
    return rows
      .map((r) => {
        const outcomes = Object.fromEntries(TOOL_CALL_OUTCOMES.map((o) => [o, r[o]])) as Record<
          ToolCallOutcome,
          number
        >;
        const ran = outcomes.ok + outcomes.error + outcomes.timeout;
        return {
          tool: r.tool,
          source: r.source,
          calls: r.calls,
          outcomes,
          errorRate: (outcomes.error + outcomes.timeout) / r.calls,
          coerced: r.coerced,
          truncated: r.truncated,
          p50Ms: percentile(r.tool, ran, 50),
          p95Ms: percentile(r.tool, ran, 95),
          lastUsedAt: r.lastUsedAt,
          inputChars: r.inputChars,
          outputChars: r.outputChars,
        };
      })
      .sort((a, b) => b.calls - a.calls || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  }
}
