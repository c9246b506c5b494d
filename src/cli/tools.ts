/**
 * `opencode tools [--json]`: every tool the model would be offered in this project, with its source,
 * the file or plugin it comes from, and what it overrides or is shadowed by; then the
 * custom tools that failed to load and the warnings. Connects to the configured MCP servers (bounded
 * as `-p` is) so their tools are listed too.
 */
import { resolve } from 'node:path';
import { resolveDataDir } from '../config/load.js';
import type { CustomToolsReport } from '../custom/load.js';
import { describeEntry, describeShadowed, SOURCE_LABEL, type ToolEntry, type ToolRegistry } from '../tools/registry.js';
import { alignColumns } from './columns.js';
import { decideTrustForCommand } from './command-trust.js';
import { loadConfigForCommand } from './load-config.js';
import { PROMPT_MCP_WAIT_MS } from '../app/mcp-wait.js';

/** One registration of a tool, as listed. */
export interface ToolListing {
  name: string;
  /** `builtin`, `mcp`, `user`, `project` or `runtime` */
  source: string;
  /** the file, plugin or server it comes from, when known */
  origin?: string;
  /** offered to the model (the winner of its name, not turned off) */
  offered: boolean;
  /** `"tools": { name: false }` turned it off */
  disabled: boolean;
  /** the lower registrations it hides, e.g. `the built-in grep` */
  overrides: string[];
  /** the registration that hides it */
  shadowedBy?: string;
}

/** Every registration of every name, sorted by name then precedence (the offered one first). */
export function listTools(registry: ToolRegistry): ToolListing[] {
  const rows: ToolListing[] = [];
  for (const name of registry.names()) {
    const entries = registry.all(name);
    const disabled = registry.isDisabled(name);
    entries.forEach((entry: ToolEntry, index) => {
      const row: ToolListing = {
        name,
        source: entry.source,
        ...(entry.origin ? { origin: entry.origin } : {}),
        offered: index === 0 && !disabled,
        disabled,
        overrides: index === 0 ? entries.slice(1).map((e) => describeShadowed(e, name)) : [],
      };
      if (index > 0) row.shadowedBy = describeEntry(entries[0]!, name);
      rows.push(row);
    });
  }
  return rows;
}

/**
 * The text listing, columns aligned, e.g.
 * ```
 * NAME    SOURCE    FROM                       NOTE
 * grep    project   .opencode/tools/grep.yaml  overrides the built-in grep
 * grep    built-in                             shadowed by project tool grep (.opencode/tools/grep.yaml)
 * ```
 * then `Plugin hooks:` (each plugin with hooks, `.opencode/plugins/audit.ts  hooks: tool.execute.after`:
 * a plugin with hooks only has no row above), `Failed to load:` and `Warnings:` when there are any.
 */
export function formatToolList(
  rows: readonly ToolListing[],
  report: Pick<CustomToolsReport, 'failed' | 'warnings'> & Partial<Pick<CustomToolsReport, 'hooks'>>,
): string {
  const table = [['NAME', 'SOURCE', 'FROM', 'NOTE']];
  for (const row of rows) {
    const notes: string[] = [];
    if (row.disabled) notes.push('off ("tools" in .opencode.json)');
    if (row.overrides.length) notes.push(`overrides ${row.overrides.join(', ')}`);
    if (row.shadowedBy) notes.push(`shadowed by ${row.shadowedBy}`);
    table.push([
      row.name,
      SOURCE_LABEL[row.source as keyof typeof SOURCE_LABEL] ?? row.source,
      row.origin ?? '',
      notes.join('; '),
    ]);
  }
  const lines = alignColumns(table);
  const hooks = report.hooks ?? [];
  if (hooks.length) {
    const width = Math.max(...hooks.map((h) => h.origin.length));
    lines.push('', 'Plugin hooks:', ...hooks.map((h) => `  ${h.origin.padEnd(width)}  hooks: ${h.hooks.join(', ')}`));
  }
  if (report.failed.length) lines.push('', 'Failed to load:', ...report.failed.map((l) => `  ${l}`));
  if (report.warnings.length) lines.push('', 'Warnings:', ...report.warnings.map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

/** Runs the command; returns the exit code (0, or 2 for a config error). */
export async function runToolsList(opts: { cwd?: string; json?: boolean; trust?: boolean }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  // listing loads plugins and starts MCP servers: an untrusted project's own are skipped, as in a session
  const trust = await decideTrustForCommand(loaded, cwd, opts.trust);
  const { config } = trust;
  const { builtinTools } = await import('../tools/index.js');
  const { loadCustomTools } = await import('../custom/load.js');
  const registry = builtinTools();
  let mcp: import('../mcp/service.js').McpService | undefined;
  let sandbox: import('../sandbox/types.js').Sandbox | undefined;
  if (Object.keys(config.mcpServers).length > 0) {
    const [{ McpService }, { projectSandbox }] = await Promise.all([
      import('../mcp/service.js'),
      import('../sandbox/process.js'),
    ]);
    // stdio servers run in the sandbox, as in a session
    sandbox = projectSandbox(config.sandbox, cwd);
    mcp = new McpService({ servers: config.mcpServers, cwd, registry, sandbox });
    mcp.start();
  }
  const [report] = await Promise.all([
    loadCustomTools({
      projectDir: cwd,
      config,
      registry,
      cacheDir: resolveDataDir(config, cwd),
      skipProjectFiles: !trust.trusted,
    }),
    mcp?.waitForStartup(PROMPT_MCP_WAIT_MS),
  ]);
  await mcp?.close();
  await sandbox?.close();
  const rows = listTools(registry);
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ tools: rows, hooks: report.hooks, failed: report.failed, warnings: report.warnings }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(formatToolList(rows, report));
  }
  return 0;
}
