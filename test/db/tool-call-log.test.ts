/**
 * The tool-call log in a real SQLite file: rows written as given, and the per-tool figures
 * `opencode stats` prints (counts, error rate, nearest-rank percentiles, the latest source, the period).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type ToolCallRow } from '../../src/db/index.js';

let db: Database;
beforeEach(() => {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'opencode-calls-')), '.opencode'));
});
afterEach(() => db.close());

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
let seq = 0;
function call(fields: Partial<ToolCallRow>): ToolCallRow {
  seq++;
  return {
    sessionId: 's1',
    messageId: 'm1',
    toolCallId: `c${seq}`,
    tool: 'view',
    source: 'builtin',
    startedAt: T0,
    durationMs: 10,
    outcome: 'ok',
    coerced: false,
    inputChars: 20,
    outputChars: 100,
    truncated: false,
    ...fields,
  };
}

describe('ToolCallLog', () => {
  it('writes one row per call with every field', () => {
    db.toolCalls.record(
      call({ toolCallId: 'toolu_1', outcome: 'validation', coerced: true, truncated: true, durationMs: 3.6 }),
    );
    expect(db.connection.prepare('SELECT * FROM tool_calls').all()).toEqual([
      {
        id: 1,
        session_id: 's1',
        message_id: 'm1',
        tool_call_id: 'toolu_1',
        tool: 'view',
        source: 'builtin',
        started_at: T0,
        duration_ms: 4,
        outcome: 'validation',
        coerced: 1,
        input_chars: 20,
        output_chars: 100,
        truncated: 1,
      },
    ]);
  });

  it('refuses an outcome outside the list', () => {
    expect(() => db.toolCalls.record(call({ outcome: 'maybe' as never }))).toThrow(/CHECK constraint failed/);
  });

  it('gives per-tool figures: outcomes, error rate, coerced, truncated, last use and the latest source', () => {
    // view: 20 calls that ran, durations 1..20 ms, plus one validation failure and one denial (0 ms each)
    for (let i = 1; i <= 20; i++) {
      db.toolCalls.record(
        call({
          durationMs: i,
          startedAt: T0 + i * 1000,
          outcome: i <= 2 ? 'error' : i === 3 ? 'timeout' : 'ok',
          truncated: i === 20,
        }),
      );
    }
    db.toolCalls.record(call({ durationMs: 0, startedAt: T0 + 30_000, outcome: 'validation', coerced: true }));
    db.toolCalls.record(call({ durationMs: 0, startedAt: T0 + 31_000, outcome: 'permission', coerced: true }));
    // status: project file first, then a runtime registration of the same name (the latest wins the source)
    db.toolCalls.record(
      call({ tool: 'status', source: 'project', durationMs: 700, startedAt: T0 + 1000, inputChars: 5, outputChars: 7 }),
    );
    db.toolCalls.record(
      call({ tool: 'status', source: 'runtime', durationMs: 300, startedAt: T0 + 2000, inputChars: 5, outputChars: 9 }),
    );
    // a call that never ran gives no duration
    db.toolCalls.record(call({ tool: 'ls', durationMs: 0, startedAt: T0, outcome: 'canceled' }));

    const stats = db.toolCalls.stats(T0);
    expect(stats).toEqual([
      {
        tool: 'view',
        source: 'builtin',
        calls: 22,
        outcomes: { ok: 17, error: 2, validation: 1, permission: 1, timeout: 1, canceled: 0 },
        errorRate: 3 / 22,
        coerced: 2,
        truncated: 1,
        // nearest rank over the 20 that ran: ceil(0.5 × 20) = 10th, ceil(0.95 × 20) = 19th
        p50Ms: 10,
        p95Ms: 19,
        lastUsedAt: T0 + 31_000,
        inputChars: 22 * 20,
        outputChars: 22 * 100,
      },
      {
        tool: 'status',
        source: 'runtime',
        calls: 2,
        outcomes: { ok: 2, error: 0, validation: 0, permission: 0, timeout: 0, canceled: 0 },
        errorRate: 0,
        coerced: 0,
        truncated: 0,
        p50Ms: 300,
        p95Ms: 700,
        lastUsedAt: T0 + 2000,
        inputChars: 10,
        outputChars: 16,
      },
      {
        tool: 'ls',
        source: 'builtin',
        calls: 1,
        outcomes: { ok: 0, error: 0, validation: 0, permission: 0, timeout: 0, canceled: 1 },
        errorRate: 0,
        coerced: 0,
        truncated: 0,
        p50Ms: null,
        p95Ms: null,
        lastUsedAt: T0,
        inputChars: 20,
        outputChars: 100,
      },
    ]);
  });

  it('a single call is its own p50 and p95', () => {
    db.toolCalls.record(call({ durationMs: 42 }));
    expect(db.toolCalls.stats(0)[0]).toMatchObject({ p50Ms: 42, p95Ms: 42 });
  });

  it('counts only the calls of the period', () => {
    db.toolCalls.record(call({ tool: 'old', startedAt: T0 - 1 }));
    db.toolCalls.record(call({ tool: 'new', startedAt: T0 }));
    expect(db.toolCalls.stats(T0).map((s) => s.tool)).toEqual(['new']);
  });

  it('orders by calls, then by name', () => {
    for (const tool of ['b', 'a', 'c', 'c']) db.toolCalls.record(call({ tool }));
    expect(db.toolCalls.stats(0).map((s) => s.tool)).toEqual(['c', 'a', 'b']);
  });
});
