/**
 * Loads the custom tools of a project into the registry: the declarative tool files
 * and the plugins of the user (`$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`) and of the project
 * (`<project>/.opencode`), plus the plugin packages named in `.opencode.json`; installs the plugins'
 * hooks; turns off the tools `"tools": { "<name>": false }` names; and reports, one line each, what
 * failed to load, what the model would have to guess, and every override.
 *
 * Nothing here throws for a bad file or plugin: each problem is a line and the rest still load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join, relative, sep } from 'node:path';
import type { AgentEvents } from '../agent/events.js';
import type { Config } from '../config/schema.js';
import type { EventBus } from '../events/bus.js';
import { subscribeEventHooks, toolCallHooks } from '../plugin/hooks.js';
import { loadPlugins, pluginFiles, type LoadedPlugin, type PluginSpec } from '../plugin/load.js';
import { checkPluginTool, createPluginTool } from '../plugin/tool.js';
import { overrideWarnings, type ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { ParsedToolFile } from './declarative-spec.js';
import { openToolFileCache } from './tool-file-cache.js';
import { userCacheSalt } from '../config/cache-file.js';
import type { Sandbox } from '../sandbox/types.js';

/** Extensions of declarative tool files. */
export const TOOL_FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];

/** One custom tool that loaded. */
export interface CustomToolInfo {
  name: string;
  source: 'user' | 'project';
  /** `file` for a declarative file, `plugin` for a plugin's tool */
  kind: 'file' | 'plugin';
  /** the file or plugin, relative to the project when inside it, `~/…` under the home directory */
  origin: string;
}

/** A plugin's hooks, as `opencode tools` and the sidebar list them. */
export interface PluginHooksInfo {
  /** the plugin, named as in messages (`.opencode/plugins/audit.ts`, `plugin package …`) */
  origin: string;
  source: 'user' | 'project';
  /** e.g. `['tool.execute.before', 'event']` */
  hooks: string[];
}

/** What loading gave. */
export interface CustomToolsReport {
  tools: CustomToolInfo[];
  /** one line per file, plugin or tool that did not load, e.g. `.opencode/tools/status.yaml: command: missing …` */
  failed: string[];
  /** one line per thing that loaded but deserves a look, e.g. `.opencode/tools/status.yaml: parameters.service.type: missing` */
  warnings: string[];
  /** `project tool grep (.opencode/tools/grep.yaml) overrides the built-in grep`, at load time */
  overrides: string[];
  plugins: LoadedPlugin[];
  /** the plugins that declare hooks, with the hooks' names (a plugin with hooks only has no tool to list) */
  hooks: PluginHooksInfo[];
  /** time spent, in ms */
  elapsedMs: number;
}

export interface LoadCustomToolsOptions {
  /** the project directory (absolute) */
  projectDir: string;
  config: Pick<Config, 'tools' | 'plugins'> & Record<string, unknown>;
  registry: ToolRegistry;
  /** for the plugins' `event` hooks and log lines; without it they get no events */
  bus?: EventBus<AgentEvents>;
  /** HOME and XDG_CONFIG_HOME come from here (default `process.env`) */
  env?: Record<string, string | undefined>;
  /** the data directory, where what checking each tool file gave is remembered (`tool-file-cache.ts`); none: not remembered */
  cacheDir?: string;
  /**
   * Where the plugins' log lines and hook failures go (default: the bus's `warning`). A plugin's own
   * line comes with `plugin`, its name, and reads `[<plugin>] <message>` (`[<plugin>] error: …` at level error).
   */
  onLog?: (level: 'info' | 'warn' | 'error', message: string, plugin?: string) => void;
  /**
   * Register each tool as a stand-in that only names it ({@link listedTool}) and install no hooks: for
   * reports that list the offered tools (`opencode stats`) without paying for building them. The
   * plugins' functions still run (only they know their tools).
   */
  listOnly?: boolean;
  /** leave out `<project>/.opencode/tools` and `plugins`: the project is not trusted (`src/app/project-code.ts`) */
  skipProjectFiles?: boolean;
  /** the project's OS sandbox, where declarative tools' programs run; none: they run as they are */
  sandbox?: Sandbox;
}

/** A stand-in for a tool that is listed, never run (`listOnly`). */
export function listedTool(name: string): Tool {
  return {
    name,
    description: '',
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
    run: async () => ({ output: `${name} was loaded for a listing only and cannot run`, isError: true }),
  };
}

/** The user's opencode folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function userConfigDir(env: Record<string, string | undefined>): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode');
}

/** Loads everything and registers it. Never throws. */
export async function loadCustomTools(options: LoadCustomToolsOptions): Promise<CustomToolsReport> {
  const started = performance.now();
  const { projectDir, registry } = options;
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  const label = (path: string) => displayPath(path, projectDir, home);
  const report: CustomToolsReport = {
    tools: [],
    failed: [],
    warnings: [],
    overrides: [],
    plugins: [],
    hooks: [],
    elapsedMs: 0,
  };
  const log = (level: 'info' | 'warn' | 'error', message: string, plugin?: string) => {
    if (options.onLog) options.onLog(level, message, plugin);
    else if (level !== 'info') options.bus?.emit('warning', { message });
  };
  const roots: { source: 'user' | 'project'; dir: string }[] = [
    { source: 'user', dir: userConfigDir(env) },
    ...(options.skipProjectFiles ? [] : [{ source: 'project' as const, dir: join(projectDir, '.opencode') }]),
  ];
  // the first definition of a name within one source is kept; a second is a mistake worth a line
  const seen = new Map<string, string>();
  const claim = (source: string, name: string, origin: string): boolean => {
    const key = `${source}\0${name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      report.failed.push(`${origin}: tool ${name} is already defined by ${first}; this one is ignored`);
      return false;
    }
    seen.set(key, origin);
    return true;
  };

  // the caches live in the project's data folder, which a repository can ship: keyed with the user's salt
  const salt = userCacheSalt(env);
  const cacheDir = salt === undefined ? undefined : options.cacheDir;
  const cache = openToolFileCache(cacheDir, salt);
  // the declarative tool's runner (and the encoding detection in it) loads only when a tool will run
  const createDeclarativeTool = options.listOnly
    ? undefined
    : (await import('./declarative-tool.js')).createDeclarativeTool;
  // the checker (and the YAML parser in it) loads only when a file is new or changed
  let parseToolFile: ((text: string, file: string, ext: string) => ParsedToolFile) | undefined;
  for (const { source, dir } of roots) {
    for (const file of toolFiles(join(dir, 'tools'))) {
      const origin = label(file);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        report.failed.push(`${origin}: cannot read: ${(err as Error).message}`);
        continue;
      }
      let parsed = cache.get(file, text);
      if (!parsed) {
        parseToolFile ??= (await import('./declarative-spec.js')).parseToolFile;
        parsed = parseToolFile(text, file, extname(file).slice(1).toLowerCase());
        cache.set(file, text, parsed);
      }
      report.failed.push(...parsed.errors.map((e) => `${origin}: ${e}`));
      report.warnings.push(...parsed.warnings.map((w) => `${origin}: ${w}`));
      for (const spec of parsed.tools) {
        if (!claim(source, spec.name, origin)) continue;
        const tool = createDeclarativeTool
          ? createDeclarativeTool(spec, {
              projectDir,
              env,
              passEnv: passEnvOf(options.config),
              sandbox: options.sandbox,
            })
          : listedTool(spec.name);
        registry.register(tool, source, origin);
        report.tools.push({ name: spec.name, source, kind: 'file', origin });
      }
    }
  }

  cache.save();

  const specs: PluginSpec[] = [];
  for (const { source, dir } of roots)
    for (const file of pluginFiles(join(dir, 'plugins'))) specs.push({ source, id: file, label: label(file) });
  for (const name of options.config.plugins ?? [])
    specs.push({ source: 'project', id: name, label: `plugin package ${name}` });
  const loaded = await loadPlugins(
    specs,
    { directory: projectDir, worktree: findWorktree(projectDir), config: options.config },
    // a plugin's own lines carry its name, as a log's lines carry their source
    (spec) => ({
      info: (message) => log('info', `[${spec.label}] ${message}`, spec.label),
      warn: (message) => log('warn', `[${spec.label}] ${message}`, spec.label),
      error: (message) => log('error', `[${spec.label}] error: ${message}`, spec.label),
    }),
    { dataDir: cacheDir, salt },
  );
  report.failed.push(...loaded.problems);
  report.plugins = loaded.plugins;
  for (const plugin of loaded.plugins) {
    const hooks = Object.entries(plugin.result.hooks ?? {})
      .filter(([, fn]) => typeof fn === 'function')
      .map(([name]) => name);
    if (hooks.length > 0) report.hooks.push({ origin: plugin.spec.label, source: plugin.spec.source, hooks });
  }
  for (const plugin of loaded.plugins) {
    for (const [name, def] of Object.entries(plugin.result.tools ?? {})) {
      const problems = checkPluginTool(name, def);
      if (problems.length > 0) {
        report.failed.push(...problems.map((p) => `${plugin.spec.label}: ${p}`));
        continue;
      }
      if (!claim(plugin.spec.source, name, plugin.spec.label)) continue;
      registry.register(
        options.listOnly ? listedTool(name) : createPluginTool(name, def),
        plugin.spec.source,
        plugin.spec.label,
      );
      report.tools.push({ name, source: plugin.spec.source, kind: 'plugin', origin: plugin.spec.label });
    }
  }
  const warn = (message: string) => log('warn', message);
  if (!options.listOnly) {
    registry.hooks = toolCallHooks(loaded.plugins, warn);
    if (options.bus) subscribeEventHooks(loaded.plugins, options.bus, warn);
  }

  registry.disable(
    Object.entries(options.config.tools ?? {})
      .filter(([, on]) => on === false)
      .map(([name]) => name),
  );
  report.overrides = overrideWarnings(registry);
  report.elapsedMs = performance.now() - started;
  return report;
}

/** The declarative tool files of a folder, sorted (none for a missing folder). */
export function toolFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && TOOL_FILE_EXTENSIONS.includes(extname(e.name).toLowerCase()))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** `path` relative to the project when inside it, `~/…` under the home directory, else absolute. */
export function displayPath(path: string, projectDir: string, home: string): string {
  const inProject = relative(projectDir, path);
  if (inProject && !inProject.startsWith('..') && !inProject.startsWith(sep)) return inProject;
  const inHome = relative(home, path);
  if (inHome && !inHome.startsWith('..') && !inHome.startsWith(sep)) return `~/${inHome}`;
  return path;
}

/** The nearest folder holding `.git` from `dir` up, else `dir`. */
function findWorktree(dir: string): string {
  let current = dir;
  for (;;) {
    try {
      readdirSync(join(current, '.git'));
      return current;
    } catch (err) {
      // a worktree's or submodule's .git is a file
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return current;
    }
    const parent = join(current, '..');
    if (parent === current) return dir;
    current = parent;
  }
}

/** `shell.passEnv` of the config, if any: the credential variables the person lets through to programs. */
function passEnvOf(config: Record<string, unknown>): string[] | undefined {
  const shell = config.shell as { passEnv?: unknown } | undefined;
  return Array.isArray(shell?.passEnv) ? (shell.passEnv as string[]) : undefined;
}
