/**
 * `opencode stats [--days N] [--json] [--mcp]`: what the tool-call log (issue 11 §5) says about this
 * project's tools over the last N days: per tool its calls, error rate, validation failures, coerced
 * calls, p50 / p95 duration, truncations and last use; then the tools offered but not called, for the
 * periodic review in which a team retires tools nobody calls.
 *
 * Offered = the registry the model would get here: the built-ins and the custom tools (files and
 * plugins), minus those turned off in `.opencode.json`. MCP servers are not started unless `--mcp` is
 * given (starting them spawns programs and can take seconds); without it, an MCP tool appears only
 * once it has been called.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import chalk from 'chalk';
import type { ToolStats } from '../db/tool-call-log.js';
import type { ToolRegistry } from '../tools/registry.js';
import { loadConfigForCommand } from './load-config.js';

/** The period when `--days` is not given. */
export const DEFAULT_STATS_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A tool offered to the model that was not called in the period. */
export interface UnusedTool {
  name: string;
  source: string;
  /** the file or plugin it comes from, when known */
  origin?: string;
}

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
  /** the time to count back from, unix ms (tests); default now */
  nowMs?: number;
}

/** Runs the command; returns the exit code (0, or 2 for a config error). */
export async function runStats(opts: StatsOptions): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { config } = loaded;
  const days = opts.days ?? DEFAULT_STATS_DAYS;
  const sinceMs = (opts.nowMs ?? Date.now()) - days * DAY_MS;

  const { resolveDataDir } = await import('../config/load.js');
  const { DATABASE_FILE_NAME, openDatabase } = await import('../db/index.js');
  const dataDir = resolveDataDir(config, cwd);
  let tools: ToolStats[] = [];
  // no database yet: nothing was called, and a report should not create one
  if (existsSync(join(dataDir, DATABASE_FILE_NAME))) {
    const db = openDatabase(dataDir);
    try {
      tools = db.toolCalls.stats(sinceMs);
    } finally {
      db.close();
    }
  }

  const { registry, failed } = await offeredRegistry(cwd, config, opts.mcp === true);
  const mcpNotStarted = opts.mcp !== true && Object.keys(config.mcpServers).length > 0;
  const report: StatsReport = { days, sinceMs, tools, notCalled: notCalled(registry, tools), mcpNotStarted, failedToLoad: failed };
  if (opts.json) process.stdout.write(`${JSON.stringify(statsJson(report), null, 2)}\n`);
  else process.stdout.write(formatStats(report, { color: chalk.level > 0 && process.stdout.isTTY === true }));
  return 0;
}

/**
 * The built-in tools' names, as `tools/index.ts` registers them: a table, so that listing what is
 * offered does not import every tool's module (the agent tool alone brings the providers' SDKs).
 * A test keeps it equal to `builtinTools()`.
 */
export const BUILTIN_TOOL_NAMES = ['agent', 'bash', 'edit', 'fetch', 'glob', 'grep', 'ls', 'patch', 'sourcegraph', 'view', 'write'] as const;

/**
 * The registry the model would be offered in `cwd`, built without the TUI or a provider: stand-ins
 * that only name the built-ins and the custom tools (`listOnly`), plus the MCP servers' tools with `--mcp`.
 */
async function offeredRegistry(
  cwd: string,
  config: import('../config/schema.js').Config,
  withMcp: boolean,
): Promise<{ registry: ToolRegistry; failed: string[] }> {
  const { ToolRegistry } = await import('../tools/registry.js');
  const { listedTool, loadCustomTools } = await import('../custom/load.js');
  const { resolveDataDir } = await import('../config/load.js');
  const registry = new ToolRegistry();
  for (const name of BUILTIN_TOOL_NAMES) registry.register(listedTool(name), 'builtin');
  // a plugin's log lines are for `opencode tools` and the TUI; the report stays what was asked for
  const loadCustom = () => loadCustomTools({ projectDir: cwd, config, registry, cacheDir: resolveDataDir(config, cwd), listOnly: true, onLog: () => {} });
  if (withMcp && Object.keys(config.mcpServers).length > 0) {
    const { McpService } = await import('../mcp/service.js');
    const { PROMPT_MCP_WAIT_MS } = await import('./mcp.js');
    const mcp = new McpService({ servers: config.mcpServers, cwd, registry });
    mcp.start();
    const [report] = await Promise.all([loadCustom(), mcp.waitForStartup(PROMPT_MCP_WAIT_MS)]);
    await mcp.close();
    return { registry, failed: report.failed };
  }
  const report = await loadCustom();
  return { registry, failed: report.failed };
}

/** The offered tools (winners of their names, not turned off) with no call in `stats`, by name. */
export function notCalled(registry: ToolRegistry, stats: readonly ToolStats[]): UnusedTool[] {
  const called = new Set(stats.map((s) => s.tool));
  return registry
    .list()
    .filter((tool) => !called.has(tool.name))
    .map((tool) => {
      const entry = registry.entry(tool.name);
      return { name: tool.name, source: entry?.source ?? 'unknown', ...(entry?.origin ? { origin: entry.origin } : {}) };
    });
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
 * `color` makes the headings bold (only when stdout is a terminal).
 */
export function formatStats(report: StatsReport, options: { color: boolean }): string {
  const bold = (text: string) => (options.color ? chalk.bold(text) : text);
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
    const header = ['TOOL', 'SOURCE', 'CALLS', 'ERRORS', 'VALIDATION', 'COERCED', 'P50 MS', 'P95 MS', 'TRUNCATED', 'LAST USED'];
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
    lines.push('', `${n} custom tool file${n === 1 ? '' : 's'} or plugin${n === 1 ? '' : 's'} failed to load, so ${n === 1 ? 'is' : 'are'} not offered (opencode tools says why).`);
  }
  if (report.mcpNotStarted) lines.push('', 'MCP servers were not started: their tools show only once called (--mcp connects to them).');
  return `${lines.join('\n')}\n`;
}

function alignColumns(rows: readonly string[][], leftAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) =>
    r
      .map((cell, col) => (leftAligned.has(col) ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** `YYYY-MM-DD HH:MM` in the local time zone. */
function localTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
