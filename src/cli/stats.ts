/**
 * `opencode stats [--days N] [--json] [--mcp]`: what the tool-call log says about this
 * project's tools over the last N days: per tool its calls, error rate, validation failures, coerced
 * calls, p50 / p95 duration, truncations and last use; then the tools offered but not called, for the
 * periodic review in which a team retires tools nobody calls.
 *
 * Offered = the registry the model would get here: the built-ins and the custom tools (files and
 * plugins), minus those turned off in `.opencode.json`. MCP servers are not started unless `--mcp` is
 * given (starting them spawns programs and can take seconds); without it, an MCP tool appears only
 * once it has been called.
 */
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import { openToolCallLog } from '../db/tool-call-log-reader.js';
import type { ToolStats } from '../db/tool-call-log.js';
import { localTime } from '../session-io/conversation.js';
import { startupMark } from '../startup-trace.js';
import { alignColumns } from './columns.js';
import { decideTrustForCommand } from './command-trust.js';
import { loadStatsConfig } from './stats-config.js';
import { hasPlugins, offeredTools, type OfferedTool } from './stats-offered.js';

export { BUILTIN_TOOL_NAMES } from './stats-offered.js';

/** The period when `--days` is not given. */
export const DEFAULT_STATS_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A tool offered to the model that was not called in the period. */
export type UnusedTool = OfferedTool;

/** Everything `opencode stats` prints. */
export interface StatsReport {
  days: number;
  /** unix ms: calls started at or after this are counted */
  sinceMs: number;
  tools: ToolStats[];
  notCalled: UnusedTool[];
  /** MCP servers are configured but were not started (no `--mcp`): their unused tools are not in `notCalled` */
  mcpNotStarted: boolean;
  /** custom tool files and plugins that failed to load (so are not offered), one line each as `opencode tools` says them */
  failedToLoad: string[];
}

/** Options of {@link runStats}. */
export interface StatsOptions {
  cwd?: string;
  days?: number;
  json?: boolean;
  mcp?: boolean;
  /** `--trust`: the project's own plugins and MCP servers run even when it is not trusted */
  trust?: boolean;
  /** the time to count back from, unix ms (tests); default now */
  nowMs?: number;
}

/**
 * Runs the command; returns the exit code (0; 1 when the database cannot be read; 2 for a config
 * error). Loads only what the report needs (≤ 300 ms on 100,000 calls): a few keys of the config without its schema when that
 * says the same (`stats-config.ts`), the tool-call log without the other stores
 * (`db/tool-call-log-reader.ts`), and the custom tools only when there are some (`stats-offered.ts`).
 */
export async function runStats(opts: StatsOptions): Promise<number> {
  // OPENCODE_STARTUP_TRACE=<file> writes these marks (startup-trace.ts): where the command's time goes
  startupMark('stats: start');
  const cwd = resolve(opts.cwd ?? process.cwd());
  const env = process.env;
  const mcp = opts.mcp === true;
  const config = await loadStatsConfig({
    cwd,
    env,
    // plugins and MCP servers get the validated config
    needsFull: (light) => (mcp && light.mcpServerNames.length > 0) || hasPlugins({ cwd, env, plugins: light.plugins }),
  });
  if (typeof config === 'number') return config;
  startupMark('stats: config read');
  // listing runs the plugins' functions and, with --mcp, starts the servers: an untrusted project's own are
  // skipped, as in a session (without plugins or --mcp nothing runs, and the config stays the light one)
  let skipProjectFiles = false;
  const runsCode = (mcp && config.mcpServerNames.length > 0) || hasPlugins({ cwd, env, plugins: config.plugins });
  if (runsCode && config.full && config.sources) {
    const trust = await decideTrustForCommand({ config: config.full, sources: config.sources }, cwd, opts.trust, env);
    if (!trust.trusted) {
      skipProjectFiles = true;
      // without --mcp no server starts, and the report still says the configured ones were not started
      Object.assign(config, {
        full: trust.config,
        plugins: trust.config.plugins,
        ...(mcp ? { mcpServerNames: Object.keys(trust.config.mcpServers) } : {}),
      });
    }
  }
  const days = opts.days ?? DEFAULT_STATS_DAYS;
  const sinceMs = (opts.nowMs ?? Date.now()) - days * DAY_MS;

  const tools = await readToolStats(config.dataDir, sinceMs);
  if (typeof tools === 'number') return tools;
  startupMark('stats: figures queried');

  const { offered, failed } = await offeredTools({ ...config, cwd, env, mcp, skipProjectFiles });
  startupMark('stats: offered tools listed');
  const mcpNotStarted = !mcp && config.mcpServerNames.length > 0;
  const report: StatsReport = {
    days,
    sinceMs,
    tools,
    notCalled: notCalled(offered, tools),
    mcpNotStarted,
    failedToLoad: failed,
  };
  writeStdout(
    opts.json ? `${JSON.stringify(statsJson(report), null, 2)}\n` : formatStats(report, { bold: await terminalBold() }),
  );
  startupMark('stats: printed');
  return 0;
}

/**
 * The log's figures since `sinceMs`, or exit code 1 after one line on stderr when the database cannot
 * be read (a newer opencode's schema, a file that is not a database, a full or read-only disk): the
 * line `-p` and the TUI give for the same file, not a stack trace.
 */
async function readToolStats(dataDir: string, sinceMs: number): Promise<ToolStats[] | number> {
  try {
    // no database yet: nothing was called, and a report should not create one
    const log = await openToolCallLog(dataDir);
    startupMark('stats: database open');
    if (!log) return [];
    try {
      return log.toolCalls.stats(sinceMs);
    } finally {
      log.close();
    }
  } catch (err) {
    process.stderr.write(`opencode: cannot open the session database: ${(err as Error).message}\n`);
    return 1;
  }
}

/** The offered tools with no call in `stats`, in the order given (by name). */
export function notCalled(offered: readonly OfferedTool[], stats: readonly ToolStats[]): UnusedTool[] {
  const called = new Set(stats.map((s) => s.tool));
  return offered.filter((tool) => !called.has(tool.name));
}

/** chalk's bold when stdout is a terminal that shows colour; chalk is loaded only then (a pipe gets plain text). */
async function terminalBold(): Promise<((text: string) => string) | undefined> {
  if (!isatty(1)) return undefined;
  const { default: chalk } = await import('chalk');
  return chalk.level > 0 ? chalk.bold : undefined;
}

/**
 * Writes the report to stdout (fd 1) at once: `process.stdout` on a pipe would first build a socket
 * stream (Node's `net` module, a few ms of a command that takes a couple of hundred). A non-blocking
 * stdout that is full (EAGAIN) gets the rest through `process.stdout`, which waits; a reader that is
 * gone (EPIPE, e.g. `| head -1`) ends the writing quietly.
 */
function writeStdout(text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') process.stdout.write(bytes.subarray(offset));
    else if (code !== 'EPIPE') throw err;
  }
}

/** The `--json` shape: the report with times as ISO 8601 (UTC) beside the unix ms. */
export function statsJson(report: StatsReport): Record<string, unknown> {
  return {
    days: report.days,
    since: new Date(report.sinceMs).toISOString(),
    tools: report.tools.map((t) => ({
      tool: t.tool,
      source: t.source,
      calls: t.calls,
      errorRate: t.errorRate,
      validationFailures: t.outcomes.validation,
      outcomes: t.outcomes,
      coerced: t.coerced,
      truncated: t.truncated,
      p50Ms: t.p50Ms,
      p95Ms: t.p95Ms,
      lastUsed: new Date(t.lastUsedAt).toISOString(),
      inputChars: t.inputChars,
      outputChars: t.outputChars,
    })),
    notCalled: report.notCalled,
    mcpNotStarted: report.mcpNotStarted,
    failedToLoad: report.failedToLoad,
  };
}

const SOURCE_NAMES: Record<string, string> = { builtin: 'built-in', mcp: 'MCP' };

/**
 * The text report, columns aligned, times local, e.g.
 * ```
 * Tool calls in the last 30 days (since 2026-11-01 09:30): 12 calls of 2 tools
 *
 * TOOL  SOURCE    CALLS  ERRORS  VALIDATION  COERCED  P50 MS  P95 MS  TRUNCATED  LAST USED
 * view  built-in     10   10.0%           1        2       4      12          0  2026-12-01 09:12
 * grep  built-in      2    0.0%           0        0      30      31          1  2026-11-28 17:40
 *
 * Offered but not called in the last 30 days (1):
 *   fetch  built-in
 * ```
 * `bold` styles the headings (none: plain text).
 */
export function formatStats(report: StatsReport, options: { bold?: (text: string) => string } = {}): string {
  const bold = options.bold ?? ((text: string) => text);
  const period = `the last ${report.days} day${report.days === 1 ? '' : 's'}`;
  const lines: string[] = [];
  const calls = report.tools.reduce((sum, t) => sum + t.calls, 0);
  if (report.tools.length === 0) {
    lines.push(`No tool calls in ${period} (since ${localTime(report.sinceMs)}).`);
  } else {
    lines.push(
      `Tool calls in ${period} (since ${localTime(report.sinceMs)}): ${calls} call${calls === 1 ? '' : 's'} of ` +
        `${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}`,
      '',
    );
    const header = [
      'TOOL',
      'SOURCE',
      'CALLS',
      'ERRORS',
      'VALIDATION',
      'COERCED',
      'P50 MS',
      'P95 MS',
      'TRUNCATED',
      'LAST USED',
    ];
    const rows = report.tools.map((t) => [
      t.tool,
      SOURCE_NAMES[t.source] ?? t.source,
      String(t.calls),
      `${(t.errorRate * 100).toFixed(1)}%`,
      String(t.outcomes.validation),
      String(t.coerced),
      t.p50Ms === null ? '-' : String(t.p50Ms),
      t.p95Ms === null ? '-' : String(t.p95Ms),
      String(t.truncated),
      localTime(t.lastUsedAt),
    ]);
    // text columns left-aligned, figures right-aligned
    const leftAligned = new Set([0, 1, 9]);
    const table = alignColumns([header, ...rows], leftAligned);
    lines.push(bold(table[0]!), ...table.slice(1));
  }
  lines.push('');
  if (report.notCalled.length === 0) {
    lines.push(`Every offered tool was called in ${period}.`);
  } else {
    lines.push(bold(`Offered but not called in ${period} (${report.notCalled.length}):`));
    const rows = report.notCalled.map((t) => [t.name, SOURCE_NAMES[t.source] ?? t.source, t.origin ?? '']);
    lines.push(...alignColumns(rows, new Set([0, 1, 2])).map((line) => `  ${line}`));
  }
  if (report.failedToLoad.length) {
    const n = report.failedToLoad.length;
    lines.push(
      '',
      `${n} custom tool file${n === 1 ? '' : 's'} or plugin${n === 1 ? '' : 's'} failed to load, so ${n === 1 ? 'is' : 'are'} not offered (opencode tools says why).`,
    );
  }
  if (report.mcpNotStarted)
    lines.push('', 'MCP servers were not started: their tools show only once called (--mcp connects to them).');
  return `${lines.join('\n')}\n`;
}
