/**
 * `opencode stats` as a person or a script sees it: exact figures from seeded rows of the real
 * database, as text (a pipe: no colour) and as JSON, the period, the tools offered but not called
 * (built-ins and a project's declarative tools), and a bad `--days`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type ToolCallRow } from '../../src/db/index.js';
import { cleanEnv, runCli } from '../support/cli.js';

const DAY = 24 * 60 * 60 * 1000;
// whole minutes, so the printed "last used" is exact
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const utcMinute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function seededProject(): { dir: string; times: Record<string, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-'));
  mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
  for (const name of ['status', 'query_metrics']) {
    writeFileSync(
      join(dir, '.opencode', 'tools', `${name}.yaml`),
      `name: ${name}\ndescription: The ${name} of a service.\nparameters:\n  type: object\n  properties: {}\ncommand: [echo, ok]\nreadOnly: true\n`,
    );
  }
  const times = { viewLast: NOW - 1 * DAY, statusLast: NOW - 2 * DAY - 30 * 60_000, grep: NOW - 9 * DAY };
  const db = openDatabase(join(dir, '.opencode'));
  let n = 0;
  const row = (fields: Partial<ToolCallRow>): ToolCallRow => ({
    sessionId: 's1',
    messageId: 'm1',
    toolCallId: `c${++n}`,
    tool: 'view',
    source: 'builtin',
    startedAt: NOW - 3 * DAY,
    durationMs: 10,
    outcome: 'ok',
    coerced: false,
    inputChars: 30,
    outputChars: 200,
    truncated: false,
    ...fields,
  });
  for (const r of [
    row({ durationMs: 10 }),
    row({ durationMs: 20 }),
    row({ durationMs: 30, outcome: 'error', coerced: true }),
    row({ durationMs: 0, outcome: 'validation', startedAt: times.viewLast }),
    row({ tool: 'status', source: 'project', durationMs: 500, truncated: true, outputChars: 30_000 }),
    row({ tool: 'status', source: 'project', durationMs: 60_000, outcome: 'timeout', startedAt: times.statusLast }),
    row({ tool: 'grep', durationMs: 40, startedAt: times.grep }),
  ]) {
    db.toolCalls.record(r);
  }
  db.close();
  return { dir, times };
}

const env = () => cleanEnv({ TZ: 'UTC' });

describe('opencode stats', () => {
  it('prints per-tool figures and the tools offered but not called in the period', async () => {
    const { dir, times } = seededProject();
    const run = await runCli(['stats', '--days', '7'], { cwd: dir, env: env() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^Tool calls in the last 7 days \(since \d{4}-\d\d-\d\d \d\d:\d\d\): 6 calls of 2 tools$/);
    expect(lines.slice(1).join('\n')).toBe(
      [
        '',
        'TOOL    SOURCE    CALLS  ERRORS  VALIDATION  COERCED  P50 MS  P95 MS  TRUNCATED  LAST USED',
        `view    built-in      4   25.0%           1        1      20      30          0  ${utcMinute(times.viewLast)}`,
        `status  project       2   50.0%           0        0     500   60000          1  ${utcMinute(times.statusLast)}`,
        '',
        'Offered but not called in the last 7 days (11):',
        '  agent          built-in',
        '  bash           built-in',
        '  edit           built-in',
        '  fetch          built-in',
        '  glob           built-in',
        '  grep           built-in',
        '  ls             built-in',
        '  patch          built-in',
        '  query_metrics  project   .opencode/tools/query_metrics.yaml',
        '  sourcegraph    built-in',
        '  write          built-in',
        '',
      ].join('\n'),
    );
  });

  it('counts 30 days by default', async () => {
    const { dir } = seededProject();
    const run = await runCli(['stats'], { cwd: dir, env: env() });
    expect(run.stdout.split('\n')[0]).toMatch(/: 7 calls of 3 tools$/);
    expect(run.stdout).toContain('\ngrep    built-in      1    0.0%           0        0      40      40          0  ');
  });

  it('gives the same figures as JSON', async () => {
    const { dir, times } = seededProject();
    const run = await runCli(['stats', '--days', '7', '--json'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.days).toBe(7);
    expect(Date.parse(report.since)).toBeGreaterThanOrEqual(NOW - 7 * DAY);
    expect(report.tools).toEqual([
      {
        tool: 'view',
        source: 'builtin',
        calls: 4,
        errorRate: 0.25,
        validationFailures: 1,
        outcomes: { ok: 2, error: 1, validation: 1, permission: 0, timeout: 0, canceled: 0 },
        coerced: 1,
        truncated: 0,
        p50Ms: 20,
        p95Ms: 30,
        lastUsed: new Date(times.viewLast).toISOString(),
        inputChars: 120,
        outputChars: 800,
      },
      {
        tool: 'status',
        source: 'project',
        calls: 2,
        errorRate: 0.5,
        validationFailures: 0,
        outcomes: { ok: 1, error: 0, validation: 0, permission: 0, timeout: 1, canceled: 0 },
        coerced: 0,
        truncated: 1,
        p50Ms: 500,
        p95Ms: 60000,
        lastUsed: new Date(times.statusLast).toISOString(),
        inputChars: 60,
        outputChars: 30200,
      },
    ]);
    expect(report.notCalled).toContainEqual({
      name: 'query_metrics',
      source: 'project',
      origin: '.opencode/tools/query_metrics.yaml',
    });
    expect(report.notCalled.map((t: { name: string }) => t.name)).toEqual([
      'agent',
      'bash',
      'edit',
      'fetch',
      'glob',
      'grep',
      'ls',
      'patch',
      'query_metrics',
      'sourcegraph',
      'write',
    ]);
    expect(report.mcpNotStarted).toBe(false);
  });

  it('reports a project without a database without creating one; a tool turned off is not offered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-'));
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ tools: { sourcegraph: false, fetch: false } }));
    const run = await runCli(['stats', '--days', '1'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^No tool calls in the last 1 day \(since .+\)\.\n\nOffered but not called in the last 1 day \(9\):\n  agent  built-in\n/,
    );
    expect(run.stdout).not.toContain('sourcegraph');
    expect(run.stdout).not.toContain('fetch');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, '.opencode', 'opencode.db'))).toBe(false);
  });

  it('says how many custom tools failed to load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-'));
    mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'tools', 'broken.yaml'), 'name: broken\ndescription: no command\n');
    const run = await runCli(['stats'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(
      run.stdout.endsWith(
        '\n\n1 custom tool file or plugin failed to load, so is not offered (opencode tools says why).\n',
      ),
    ).toBe(true);
    const json = await runCli(['stats', '--json'], { cwd: dir, env: env() });
    expect(JSON.parse(json.stdout).failedToLoad).toEqual([expect.stringMatching(/^\.opencode\/tools\/broken\.yaml: /)]);
  });

  it('says when configured MCP servers were not started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-'));
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ mcpServers: { files: { command: 'never-started' } } }));
    const run = await runCli(['stats'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(
      run.stdout.endsWith(
        '\n\nMCP servers were not started: their tools show only once called (--mcp connects to them).\n',
      ),
    ).toBe(true);
  });

  it('refuses a --days that is not a whole number of days', async () => {
    const run = await runCli(['stats', '--days', 'week'], {
      cwd: mkdtempSync(join(tmpdir(), 'opencode-stats-')),
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(
      "error: option '--days <n>' argument 'week' is invalid. expected a whole number of days from 1 to 36500, e.g. --days 7",
    );
  });
});
