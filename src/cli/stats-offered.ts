/**
 * The tools `opencode stats` counts as offered: the registry the model would get in a project — the
 * built-ins and the custom tools (files and plugins), minus those turned off in `.opencode.json`,
 * plus the MCP servers' tools with `--mcp`.
 *
 * Without custom tool files, plugins or `--mcp`, that is the built-ins' names from a table, minus those
 * turned off: nothing to load. Otherwise the custom tools are loaded as stand-ins that only name
 * them (`listOnly`: a declarative file seen before is not even parsed again, `tool-file-cache.ts`),
 * so precedence, duplicates and failures are exactly the registry's.
 */
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { ToolRegistry } from '../tools/registry.js';

/**
 * The built-in tools' names, as `tools/index.ts` registers them, sorted: a table, so that listing what
 * is offered does not import every tool's module (the agent tool alone brings the providers' SDKs).
 * A test keeps it equal to `builtinTools()`.
 */
export const BUILTIN_TOOL_NAMES = [
  'agent',
  'bash',
  'edit',
  'fetch',
  'glob',
  'grep',
  'ls',
  'patch',
  'sourcegraph',
  'view',
  'write',
] as const;

/** Extensions of declarative tool files, as `custom/load.ts` takes them (a test keeps them equal; its module is not loaded to know them). */
export const CUSTOM_TOOL_FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];
/** Extensions of plugin files, as `plugin/load.ts` takes them (a test keeps them equal). */
export const PLUGIN_FILE_EXTENSIONS = ['.js', '.mjs', '.ts'];

/** One offered tool. */
export interface OfferedTool {
  name: string;
  /** `builtin`, `mcp`, `user`, `project` */
  source: string;
  /** the file or plugin it comes from, when known */
  origin?: string;
}

/** What {@link offeredTools} needs. */
export interface OfferedToolsOptions {
  /** the project directory (absolute) */
  cwd: string;
  env: Record<string, string | undefined>;
  dataDir: string;
  tools: Record<string, boolean>;
  plugins: string[];
  mcpServerNames: string[];
  /** the validated config: required when plugins run or `mcp` is set */
  full?: Config;
  /** connect to the MCP servers (`--mcp`) */
  mcp: boolean;
  /** leave out the project's plugin and tool files: it is not trusted (`src/app/project-code.ts`) */
  skipProjectFiles?: boolean;
}

/** The offered tools, sorted by name, and the custom tool files and plugins that failed to load (one line each). */
export interface OfferedTools {
  offered: OfferedTool[];
  failed: string[];
}

/** Whether plugins will run in `cwd`: plugin files in the user's or the project's folder, or packages named in the config. */
export function hasPlugins(options: Pick<OfferedToolsOptions, 'cwd' | 'env' | 'plugins'>): boolean {
  return (
    options.plugins.length > 0 ||
    customDirs(options).some((dir) => hasFile(join(dir, 'plugins'), PLUGIN_FILE_EXTENSIONS))
  );
}

/** Lists the offered tools. */
export async function offeredTools(options: OfferedToolsOptions): Promise<OfferedTools> {
  const withMcp = options.mcp && options.mcpServerNames.length > 0;
  const custom =
    hasPlugins(options) || customDirs(options).some((dir) => hasFile(join(dir, 'tools'), CUSTOM_TOOL_FILE_EXTENSIONS));
  if (!custom && !withMcp) {
    const offered = BUILTIN_TOOL_NAMES.filter((name) => options.tools[name] !== false).map((name) => ({
      name,
      source: 'builtin',
    }));
    return { offered, failed: [] };
  }
  return listedRegistry(options, withMcp);
}

/**
 * The registry built without the TUI or a provider: stand-ins that only name the built-ins and the
 * custom tools (`listOnly`), plus the MCP servers' tools with `withMcp`; listed before the servers are
 * closed (closing unregisters their tools: listing after it lost every MCP tool).
 */
async function listedRegistry(options: OfferedToolsOptions, withMcp: boolean): Promise<OfferedTools> {
  const [{ ToolRegistry }, { listedTool, loadCustomTools }] = await Promise.all([
    import('../tools/registry.js'),
    import('../custom/load.js'),
  ]);
  const registry = new ToolRegistry();
  for (const name of BUILTIN_TOOL_NAMES) registry.register(listedTool(name), 'builtin');
  // a plugin gets the validated config; declarative files need only `tools` and `plugins`
  const config = options.full ?? { tools: options.tools, plugins: options.plugins };
  // a plugin's log lines are for `opencode tools` and the TUI; the report stays what was asked for
  const loadCustom = () =>
    loadCustomTools({
      projectDir: options.cwd,
      config,
      registry,
      env: options.env,
      cacheDir: options.dataDir,
      listOnly: true,
      skipProjectFiles: options.skipProjectFiles,
      onLog: () => {},
    });
  if (!withMcp) {
    const report = await loadCustom();
    return { offered: registryTools(registry), failed: report.failed };
  }
  if (!options.full) throw new Error('offeredTools: --mcp needs the validated config (options.full)');
  const [{ McpService }, { PROMPT_MCP_WAIT_MS }, { projectSandbox }] = await Promise.all([
    import('../mcp/service.js'),
    import('../app/mcp-wait.js'),
    import('../sandbox/process.js'),
  ]);
  // stdio servers run in the sandbox, as in a session
  const sandbox = projectSandbox(options.full.sandbox, options.cwd);
  const mcp = new McpService({ servers: options.full.mcpServers, cwd: options.cwd, registry, sandbox });
  mcp.start();
  try {
    const [report] = await Promise.all([loadCustom(), mcp.waitForStartup(PROMPT_MCP_WAIT_MS)]);
    return { offered: registryTools(registry), failed: report.failed };
  } finally {
    await mcp.close();
    await sandbox.close();
  }
}

/** The winners of their names, not turned off, by name. */
function registryTools(registry: ToolRegistry): OfferedTool[] {
  return registry.list().map((tool) => {
    const entry = registry.entry(tool.name);
    return { name: tool.name, source: entry?.source ?? 'unknown', ...(entry?.origin ? { origin: entry.origin } : {}) };
  });
}

/** The user's and the project's opencode folders (`custom/load.ts`'s roots). */
function customDirs(options: Pick<OfferedToolsOptions, 'cwd' | 'env'>): string[] {
  const { env } = options;
  return [
    join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode'),
    join(options.cwd, '.opencode'),
  ];
}

/**
 * Whether `dir` holds an entry ending in one of `extensions`, in any case (a missing folder holds none):
 * a superset of what the loaders take, so a miss is certain and a hit only means "load and see".
 */
function hasFile(dir: string, extensions: readonly string[]): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => extensions.some((ext) => name.toLowerCase().endsWith(ext)));
}
