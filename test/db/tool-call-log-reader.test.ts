/**
 * Opening the tool-call log for a report (`opencode stats`) without the other stores: the same
 * figures as the full database gives; no file means no calls and nothing created; a file of an older
 * schema is migrated first (0007 swaps the durations index for the partial one), one of a newer schema
 * is refused as every command refuses it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations, openDatabase, SchemaTooNewError, type ToolCallRow } from '../../src/db/index.js';
import { openToolCallLog } from '../../src/db/tool-call-log-reader.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
beforeEach(() => ({ dataDir, cleanup } = tempDataDir()));
afterEach(() => cleanup());

const SINCE = 1_000_000;

/** 5 calls of two tools; `view`'s that ran took 10, 20 and 30 ms, p50 20, p95 30. */
function calls(): ToolCallRow[] {
  const base = {
    sessionId: 's',
    messageId: 'm',
    source: 'builtin',
    coerced: false,
    inputChars: 10,
    outputChars: 100,
    truncated: false,
  } as const;
  return [
    { ...base, toolCallId: 'a', tool: 'view', startedAt: SINCE + 1, durationMs: 30, outcome: 'ok' },
    { ...base, toolCallId: 'b', tool: 'view', startedAt: SINCE + 2, durationMs: 10, outcome: 'error' },
    { ...base, toolCallId: 'c', tool: 'view', startedAt: SINCE + 3, durationMs: 20, outcome: 'timeout' },
    { ...base, toolCallId: 'd', tool: 'view', startedAt: SINCE + 4, durationMs: 99_000, outcome: 'permission' },
    { ...base, toolCallId: 'e', tool: 'grep', startedAt: SINCE + 5, durationMs: 7, outcome: 'validation' },
  ];
}

const indexes = (file: string): string[] => {
  const connection = new BetterSqlite3(file, { readonly: true });
  const names = connection
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tool_calls' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  connection.close();
  return names;
};

describe('openToolCallLog', () => {
  it('gives no log, and creates nothing, where there is no database', async () => {
    expect(await openToolCallLog(dataDir)).toBeUndefined();
    expect(existsSync(dataDir)).toBe(false);
  });

  it('gives the figures of the full database', async () => {
    const db = openDatabase(dataDir);
    for (const call of calls()) db.toolCalls.record(call);
    const expected = db.toolCalls.stats(SINCE);
    db.close();
    const log = (await openToolCallLog(dataDir))!;
    const got = log.toolCalls.stats(SINCE);
    log.close();
    expect(got).toEqual(expected);
    expect(got.map((s) => [s.tool, s.calls, s.p50Ms, s.p95Ms])).toEqual([
      ['view', 4, 20, 30],
      ['grep', 1, null, null],
    ]);
  });

  it('migrates a database of the schema before 0007, then reads it through the partial index', async () => {
    const db = openDatabase(dataDir);
    db.close();
    // a file as the build before migration 0007 left it
    const file = path.join(dataDir, 'opencode.db');
    const old = new BetterSqlite3(file);
    old.exec(
      'DROP INDEX tool_calls_ran_durations; CREATE INDEX tool_calls_durations ON tool_calls (tool, duration_ms, started_at, outcome);',
    );
    // and without the columns of 0008
    for (const column of ['path_bytes', 'before_kind', 'after_kind', 'blob_repo'])
      old.exec(`ALTER TABLE turn_changes DROP COLUMN ${column}`);
    old.pragma('user_version = 6');
    const insert = old.prepare(
      `INSERT INTO tool_calls (session_id, message_id, tool_call_id, tool, source, started_at, duration_ms, outcome, coerced, input_chars, output_chars, truncated)
       VALUES (@sessionId, @messageId, @toolCallId, @tool, @source, @startedAt, @durationMs, @outcome, 0, @inputChars, @outputChars, 0)`,
    );
    for (const call of calls()) insert.run(call);
    old.close();
    expect(indexes(file)).toEqual(['tool_calls_durations', 'tool_calls_started']);

    const log = (await openToolCallLog(dataDir))!;
    expect(log.toolCalls.stats(SINCE).map((s) => [s.tool, s.calls, s.p50Ms, s.p95Ms])).toEqual([
      ['view', 4, 20, 30],
      ['grep', 1, null, null],
    ]);
    log.close();
    expect(indexes(file)).toEqual(['tool_calls_ran_durations', 'tool_calls_started']);
    const check = new BetterSqlite3(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(migrations[migrations.length - 1]!.version);
    check.close();
  });

  it('refuses a database of a newer schema, as opening it for anything does', async () => {
    openDatabase(dataDir).close();
    const connection = new BetterSqlite3(path.join(dataDir, 'opencode.db'));
    connection.pragma(`user_version = ${migrations.length + 1}`);
    connection.close();
    await expect(openToolCallLog(dataDir)).rejects.toThrow(SchemaTooNewError);
    expect(() => openDatabase(dataDir)).toThrow(SchemaTooNewError);
  });
});
