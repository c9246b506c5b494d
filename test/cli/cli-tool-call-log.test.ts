/**
 * Through `bin/opencode -p` with the fake provider: the model's `"limit": "5"` reaches view as 5 and
 * works, and every call of a scripted run is a row of the tool-call log with the right outcome
 * (ok, error, validation, permission, timeout, canceled), source, coercion and sizes.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ToolResultPart } from '../../src/message.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-calllog-'));
  writeFileSync(join(dir, 'a.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  return dir;
}

const env = (f: FakeProvider) => cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

interface LogRow {
  id: number;
  session_id: string;
  message_id: string;
  tool_call_id: string;
  tool: string;
  source: string;
  started_at: number;
  duration_ms: number;
  outcome: string;
  coerced: number;
  input_chars: number;
  output_chars: number;
  truncated: number;
}

/** The log rows in call order, and the stored tool results by call id. */
function readLog(dir: string): {
  rows: LogRow[];
  results: Map<string, ToolResultPart>;
  sessionId: string;
  assistantIds: string[];
} {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  const rows = db.prepare('SELECT * FROM tool_calls ORDER BY tool_call_id').all() as LogRow[];
  const messages = db.prepare('SELECT id, session_id, role, parts FROM messages ORDER BY seq').all() as {
    id: string;
    session_id: string;
    role: Message['role'];
    parts: string;
  }[];
  db.close();
  const results = new Map<string, ToolResultPart>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const p of JSON.parse(m.parts) as ToolResultPart[]) if (p.type === 'tool_result') results.set(p.toolCallId, p);
  }
  return {
    rows,
    results,
    sessionId: messages[0]!.session_id,
    assistantIds: messages.filter((m) => m.role === 'assistant').map((m) => m.id),
  };
}

describe('tool calls through bin/opencode -p', () => {
  it('coerces "limit": "5" for view, which reads 5 lines; a bash timeout is logged as timeout', async () => {
    const viewInput = { file_path: 'a.txt', limit: '5' };
    const bashInput = { command: 'sleep 5', timeout: '300' };
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'view', input: viewInput },
          { name: 'bash', input: bashInput },
        ],
      },
      { text: 'Read it.' },
    ]);
    const dir = project();
    const run = await runCli(['-p', 'read a.txt'], { cwd: dir, env: env(fake) });
    expect(run.stderr).toBe('');
    expect(run).toMatchObject({ code: 0, stdout: 'Read it.\n' });

    // what the model got back for view: lines 1 to 5, not 6
    const { rows, results, sessionId, assistantIds } = readLog(dir);
    const view = results.get('toolu_0_0')!;
    expect(view.isError).toBe(false);
    expect(view.content).toContain('line 5');
    expect(view.content).not.toContain('line 6');
    const bash = results.get('toolu_0_1')!;
    expect(bash.content).toContain('Command timed out after 300 ms and was killed');

    expect(rows.map(({ duration_ms: _d, ...r }) => r)).toEqual([
      {
        id: expect.any(Number),
        session_id: sessionId,
        message_id: assistantIds[0],
        tool_call_id: 'toolu_0_0',
        tool: 'view',
        source: 'builtin',
        started_at: expect.any(Number),
        outcome: 'ok',
        coerced: 1,
        input_chars: JSON.stringify(viewInput).length,
        output_chars: view.content.length,
        truncated: 0,
      },
      {
        id: expect.any(Number),
        session_id: sessionId,
        message_id: assistantIds[0],
        tool_call_id: 'toolu_0_1',
        tool: 'bash',
        source: 'builtin',
        started_at: expect.any(Number),
        outcome: 'timeout',
        coerced: 1,
        input_chars: JSON.stringify(bashInput).length,
        output_chars: bash.content.length,
        truncated: 0,
      },
    ]);
    // the timeout is the bash call's own duration: at least the 300 ms it was given
    expect(rows[1]!.duration_ms).toBeGreaterThanOrEqual(300);
  });

  it('logs a scripted batch exactly: error, validation, unknown tool, refused by --no-auto-approve, ok', async () => {
    const calls = [
      { name: 'view', input: { file_path: 'missing.txt' } },
      { name: 'view', input: { file_path: 'a.txt', limit: 'five' } },
      { name: 'nope', input: {} },
      { name: 'write', input: { file_path: 'b.txt', content: 'x' } },
      { name: 'ls', input: {} },
    ];
    fake = await startFakeProvider([{ toolCalls: calls }, { text: 'done' }]);
    const dir = project();
    const run = await runCli(['-p', 'go', '--no-auto-approve'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'done\n' });

    const { rows, results, sessionId, assistantIds } = readLog(dir);
    expect(results.get('toolu_0_1')!.content).toBe('Invalid input for view: limit must be an integer; you sent "five"');
    expect(results.get('toolu_0_3')!.content).toMatch(/^Permission denied: opencode -p was run with --no-auto-approve/);
    const expected: [string, string, string][] = [
      ['view', 'builtin', 'error'],
      ['view', 'builtin', 'validation'],
      ['nope', 'unknown', 'error'],
      ['write', 'builtin', 'permission'],
      ['ls', 'builtin', 'ok'],
    ];
    expect(rows.map(({ duration_ms: _d, id: _i, started_at: _s, ...r }) => r)).toEqual(
      expected.map(([tool, source, outcome], i) => ({
        session_id: sessionId,
        message_id: assistantIds[0],
        tool_call_id: `toolu_0_${i}`,
        tool,
        source,
        outcome,
        coerced: 0,
        input_chars: JSON.stringify(calls[i]!.input).length,
        output_chars: results.get(`toolu_0_${i}`)!.content.length,
        truncated: 0,
      })),
    );
  });

  it('logs the call interrupted by ctrl+c and the one it kept from running as canceled', async () => {
    const calls = [
      { name: 'bash', input: { command: 'touch started && sleep 30' } },
      { name: 'view', input: { file_path: 'a.txt' } },
    ];
    fake = await startFakeProvider([{ toolCalls: calls }]);
    const dir = project();
    let pid = 0;
    const running = runCli(['-p', 'go'], { cwd: dir, env: env(fake), onSpawn: (p) => (pid = p) });
    await waitFor(() => existsSync(join(dir, 'started')));
    process.kill(pid, 'SIGINT');
    const run = await running;
    expect(run.code).toBe(130);

    const { rows, results } = readLog(dir);
    expect(rows.map((r) => [r.tool_call_id, r.tool, r.outcome, r.output_chars])).toEqual([
      ['toolu_0_0', 'bash', 'canceled', results.get('toolu_0_0')!.content.length],
      ['toolu_0_1', 'view', 'canceled', results.get('toolu_0_1')!.content.length],
    ]);
    // the view never ran
    expect(rows[1]!.duration_ms).toBe(0);
  });
});

/** Polls `done` every 20 ms until it holds (the test's own timeout bounds it). */
async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}
