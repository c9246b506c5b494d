/**
 * The daily roll-up of the tool-call log (migration 0006): `stats` adds up whole UTC days from the
 * roll-up and reads the period's partial first day from the calls themselves. The figures must equal
 * those of adding up every call of the period, wherever the period starts in a day; calls logged before
 * the migration are rolled up by it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  migrate,
  migrations,
  openDatabase,
  TOOL_CALL_OUTCOMES,
  type ToolCallRow,
  type ToolStats,
} from '../../src/db/index.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-days-'));
  dirs.push(dir);
  return dir;
}

/** 600 calls over 5 days: 4 tools, every outcome, sources that change over time, hours spread across days. */
function calls(): ToolCallRow[] {
  return Array.from({ length: 600 }, (_, i) => ({
    sessionId: `s${i % 3}`,
    messageId: `m${i}`,
    toolCallId: `c${i}`,
    tool: `t${i % 4}`,
    source: i < 300 ? 'project' : 'user',
    startedAt: T0 + ((i * 7_919_000) % (5 * DAY)),
    durationMs: (i * 37) % 500,
    outcome: TOOL_CALL_OUTCOMES[i % 7 === 0 ? i % 6 : 0]!,
    coerced: i % 5 === 0,
    inputChars: i,
    outputChars: 1000 - i,
    truncated: i % 11 === 0,
  }));
}

/** The figures by adding up every call of the period in JavaScript (percentiles left to the log). */
function expected(rows: readonly ToolCallRow[], since: number): Partial<ToolStats>[] {
  const byTool = new Map<string, ToolCallRow[]>();
  for (const row of rows.filter((r) => r.startedAt >= since))
    byTool.set(row.tool, [...(byTool.get(row.tool) ?? []), row]);
  return [...byTool.entries()]
    .map(([tool, list]) => {
      const latest = list.reduce((a, b) => (b.startedAt >= a.startedAt ? b : a));
      const outcomes = Object.fromEntries(
        TOOL_CALL_OUTCOMES.map((o) => [o, list.filter((r) => r.outcome === o).length]),
      );
      return {
        tool,
        source: latest.source,
        calls: list.length,
        outcomes,
        coerced: list.filter((r) => r.coerced).length,
        truncated: list.filter((r) => r.truncated).length,
        lastUsedAt: latest.startedAt,
        inputChars: list.reduce((n, r) => n + r.inputChars, 0),
        outputChars: list.reduce((n, r) => n + r.outputChars, 0),
      } as Partial<ToolStats>;
    })
    .sort((a, b) => b.calls! - a.calls! || (a.tool! < b.tool! ? -1 : 1));
}

const strip = (stats: ToolStats[]) => stats.map(({ p50Ms: _p50, p95Ms: _p95, errorRate: _rate, ...rest }) => rest);

describe('tool-call roll-up', () => {
  const rows = calls();
  // period starts: on a day boundary, inside a day, before every call, after every call
  const starts = [T0, T0 + DAY, T0 + 2 * DAY + 3_600_000, T0 + 4 * DAY + 1, T0 - 10 * DAY, T0 + 9 * DAY];

  it('gives the same figures as adding up every call, wherever the period starts', () => {
    const db = openDatabase(join(tempDir(), '.opencode'));
    try {
      for (const row of rows) db.toolCalls.record(row);
      for (const since of starts)
        expect(strip(db.toolCalls.stats(since)), `since day +${(since - T0) / DAY}`).toEqual(expected(rows, since));
    } finally {
      db.close();
    }
  });

  it('rolls up the calls logged before the migration, and keeps counting after it', () => {
    const file = join(tempDir(), 'opencode.db');
    const connection = new BetterSqlite3(file);
    migrate(
      connection,
      file,
      migrations.filter((m) => m.version <= 3),
    );
    const insert = connection.prepare(
      `INSERT INTO tool_calls (session_id, message_id, tool_call_id, tool, source, started_at, duration_ms, outcome, coerced, input_chars, output_chars, truncated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const old = rows.slice(0, 400);
    for (const r of old) {
      insert.run(
        r.sessionId,
        r.messageId,
        r.toolCallId,
        r.tool,
        r.source,
        r.startedAt,
        r.durationMs,
        r.outcome,
        +r.coerced,
        r.inputChars,
        r.outputChars,
        +r.truncated,
      );
    }
    connection.close();

    const db = openDatabase(join(file, '..'));
    try {
      expect(db.connection.prepare('SELECT sum(calls) AS n FROM tool_call_days').get()).toEqual({ n: 400 });
      for (const since of starts) expect(strip(db.toolCalls.stats(since))).toEqual(expected(old, since));
      for (const row of rows.slice(400)) db.toolCalls.record(row);
      for (const since of starts) expect(strip(db.toolCalls.stats(since))).toEqual(expected(rows, since));
    } finally {
      db.close();
    }
  });
});
