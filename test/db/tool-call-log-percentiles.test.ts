/**
 * The p50 / p95 of `opencode stats` walk the durations index from whichever end is nearer (p95 from
 * the long end): the figures must be exactly the nearest-rank percentiles of the calls that ran, for
 * every count of calls, with ties, and with calls outside the period or that did not run mixed in (and
 * without calls outside the period, when the walks skip the test of each call's start).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';

let db: Database;
beforeEach(() => {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'opencode-percentiles-')), '.opencode'));
});
afterEach(() => db.close());

/** Nearest rank: the ceil(p × n / 100)-th shortest. */
function nearestRank(durations: number[], p: number): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
}

describe('ToolCallLog percentiles', () => {
  // with a call older than the period the walks test each call's start; without one they need not (and do not)
  it.each([
    ['with calls before the period', true],
    ['when every call is in the period', false],
  ])('equal the nearest-rank p50 and p95 for 1 to 60 calls with ties, %s', (_name, withOlder) => {
    const since = 1_000_000;
    const tools = Array.from({ length: 60 }, (_, i) => i + 1);
    const expected: Record<string, [number, number]> = {};
    let id = 0;
    db.connection.transaction(() => {
      for (const n of tools) {
        const tool = `tool_${n}`;
        // durations with repeats (i * 7 mod 13), so that ties straddle the ranks
        const durations = Array.from({ length: n }, (_, i) => (i * 7) % 13);
        expected[tool] = [nearestRank(durations, 50), nearestRank(durations, 95)];
        const base = {
          sessionId: 's',
          messageId: 'm',
          tool,
          source: 'project',
          coerced: false,
          inputChars: 1,
          outputChars: 1,
          truncated: false,
        };
        for (const d of durations)
          db.toolCalls.record({
            ...base,
            toolCallId: `c${id++}`,
            startedAt: since + d,
            durationMs: d,
            outcome: d % 2 ? 'error' : 'ok',
          });
        // not counted: before the period, or did not run (validation, permission)
        if (withOlder)
          db.toolCalls.record({
            ...base,
            toolCallId: `c${id++}`,
            startedAt: since - 1,
            durationMs: 10_000,
            outcome: 'ok',
          });
        db.toolCalls.record({
          ...base,
          toolCallId: `c${id++}`,
          startedAt: since,
          durationMs: 20_000,
          outcome: 'validation',
        });
        db.toolCalls.record({
          ...base,
          toolCallId: `c${id++}`,
          startedAt: since,
          durationMs: 0,
          outcome: 'permission',
        });
      }
    })();
    const got = Object.fromEntries(db.toolCalls.stats(since).map((s) => [s.tool, [s.p50Ms, s.p95Ms]]));
    expect(got).toEqual(expected);
  });
});
