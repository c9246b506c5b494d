/**
 * Workspace trust: what a project would make opencode run by itself — its plugins and tool files
 * under `.opencode/`, and the programs its own `.opencode.json` names — and the configuration without
 * them, used until the person trusts the project. A repository cloned from the internet must not run
 * its code because someone typed `opencode` in it. What the user's own config defines is trusted.
 *
 * The project config's keys are sorted by {@link PROJECT_KEYS}: held back until trust, or used as
 * they are (with the reason each is safe to use before trust).
 */
import { join, relative, sep } from 'node:path';
import type { Config } from '../config/schema.js';
import { globalConfigCandidates } from '../config/light.js';
import { planServers, type LspServerPlan } from '../lsp/servers.js';
import { pluginFiles } from '../plugin/load.js';
import { toolFiles } from '../custom/load.js';
import { isNestedRun, NESTED_RUN_ENV } from '../permission/nested-run.js';
import { isProjectTrusted, trustFilePath } from '../permission/trust-store.js';

/** One thing a project would run, as the trust dialog and `-p`'s line name it. */
export interface ProjectCodeItem {
  kind: 'plugin' | 'tool file' | 'plugin package' | 'MCP server' | 'language server' | 'shell' | 'sandbox setting';
  /** the file relative to the project, the server's or package's name, or the `shell` key */
  name: string;
  /** what would run: a command line, a URL; empty for files (their name says it) */
  detail: string;
}

/**
 * The project config's keys that start or load code, held back until the project is trusted (`hold`),
 * and the others (`use`), each with why. Keys not listed are data: read, never run.
 */
export const PROJECT_KEYS: readonly { key: string; action: 'hold' | 'use'; why: string }[] = [
  {
    key: 'mcpServers',
    action: 'hold',
    why: 'starts a program (stdio) or adds a server\'s tools the model may call; an entry that only sets "disabled": true is used',
  },
  {
    key: 'lsp',
    action: 'hold',
    why: 'starts a program whenever a file of its language is read; "lsp": false and "disabled": true entries are used',
  },
  {
    key: 'shell.path',
    action: 'hold',
    why: 'the program every bash command runs in, read-only ones that never ask included',
  },
  {
    key: 'shell.args',
    action: 'hold',
    why: 'options of that program (e.g. --rcfile runs a file of the project on every command)',
  },
  { key: 'shell.passEnv', action: 'hold', why: 'hands your provider keys to the commands the project runs' },
  { key: 'plugins', action: 'hold', why: "loads packages of the project's node_modules into opencode itself" },
  {
    key: 'sandbox',
    action: 'hold',
    why: 'when it loosens the sandbox ("off", allowWrite, network.allowedDomains): commands that run unasked would run outside it; a stricter setting is used',
  },
  {
    key: 'permission',
    action: 'use',
    why: 'rules; what an allow rule lets run without asking runs in the sandbox, as everything unasked does',
  },
  {
    key: 'providers',
    action: 'use',
    why: "where requests go and with which key; no program runs (a base URL sends your key there: read a cloned project's config)",
  },
  { key: 'contextPaths', action: 'use', why: 'files read into the prompt; nothing runs' },
  { key: 'tools', action: 'use', why: 'only turns tools off' },
  {
    key: 'data, agents, profiles, tui, keybindings, sourcegraph, autoCompact, debug, debugLSP',
    action: 'use',
    why: 'settings of opencode itself; nothing runs',
  },
];

/** What {@link holdProjectCode} found. */
export interface HeldProjectCode {
  /** what the project would run; empty when it defines nothing to run */
  items: ProjectCodeItem[];
  /** the config without the project's code (equal to the input when `items` is empty) */
  config: Config;
  /** the language servers of that config, without those found inside the project (its node_modules/.bin) */
  lspServers: LspServerPlan[];
}

/** The loaded config as {@link ../config/load.ts loadConfig} gives it: the merged config and each file's own value. */
export interface LoadedSources {
  config: Config;
  sources: readonly { file: string; value: Record<string, unknown> }[];
}

/**
 * What the project at `cwd` would run, and the config and language servers without it.
 * `env` supplies HOME, XDG_CONFIG_HOME (which config file is the user's) and PATH (language servers).
 */
export function holdProjectCode(
  loaded: LoadedSources,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): HeldProjectCode {
  const items: ProjectCodeItem[] = [];
  const config: Config = {
    ...loaded.config,
    mcpServers: { ...loaded.config.mcpServers },
    shell: { ...loaded.config.shell },
  };
  if (config.lsp !== false) config.lsp = { ...config.lsp };
  const projectFile = join(cwd, '.opencode.json');
  // the project folder is the home folder: its .opencode.json is the user's own
  const userFiles = new Set(globalConfigCandidates({ env }));
  const project = userFiles.has(projectFile) ? undefined : loaded.sources.find((s) => s.file === projectFile)?.value;
  const user = loaded.sources.find((s) => userFiles.has(s.file))?.value ?? {};

  for (const [name, entry] of Object.entries(objectAt(project, 'mcpServers'))) {
    const server = loaded.config.mcpServers[name];
    // nothing would start: a server only turned off, or one without what it needs
    if (onlyDisables(entry) || server?.disabled) continue;
    const detail =
      server?.type === 'stdio' || server?.type === undefined
        ? commandLine(server?.command, server?.args)
        : (server?.url ?? '');
    items.push({ kind: 'MCP server', name, detail });
    delete config.mcpServers[name];
  }
  const lsp = config.lsp;
  if (lsp !== false) {
    for (const [language, entry] of Object.entries(objectAt(project, 'lsp'))) {
      const server = lsp[language];
      if (onlyDisables(entry) || server?.disabled) continue;
      items.push({ kind: 'language server', name: language, detail: commandLine(server?.command, server?.args) });
      delete lsp[language];
    }
  }
  const projectShell = objectAt(project, 'shell');
  const userShell = objectAt(user, 'shell');
  for (const key of ['path', 'args', 'passEnv'] as const) {
    if (projectShell[key] === undefined) continue;
    const value = projectShell[key];
    items.push({ kind: 'shell', name: `shell.${key}`, detail: Array.isArray(value) ? value.join(' ') : String(value) });
    // the user's own setting, or none
    (config.shell as Record<string, unknown>)[key] = userShell[key];
  }
  if (project?.sandbox !== undefined && loosensSandbox(project.sandbox)) {
    items.push({ kind: 'sandbox setting', name: 'sandbox', detail: JSON.stringify(project.sandbox) });
    // the user's own setting, or the default
    config.sandbox = user.sandbox as Config['sandbox'];
  }
  if (Array.isArray(project?.plugins)) {
    for (const name of project.plugins as string[]) items.push({ kind: 'plugin package', name, detail: '' });
    config.plugins = Array.isArray(user.plugins) ? (user.plugins as string[]) : [];
  }
  const projectDir = join(cwd, '.opencode');
  for (const file of pluginFiles(join(projectDir, 'plugins')))
    items.push({ kind: 'plugin', name: relative(cwd, file), detail: '' });
  for (const file of toolFiles(join(projectDir, 'tools')))
    items.push({ kind: 'tool file', name: relative(cwd, file), detail: '' });

  // a server discovery finds in the project's own node_modules/.bin is the project's code too
  const lspServers: LspServerPlan[] = [];
  for (const server of planServers(cwd, config.lsp, env.PATH).servers) {
    if (server.source === 'discovered' && isInside(server.command, cwd)) {
      items.push({ kind: 'language server', name: server.language, detail: relative(cwd, server.command) });
    } else {
      lspServers.push(server);
    }
  }
  return items.length === 0 ? { items, config: loaded.config, lspServers } : { items, config, lspServers };
}

/** How a front end starts a project: with its code, or without it until trusted. */
export interface TrustDecision {
  /** whether the project's code runs: trusted before, `--trust` given, or nothing to hold */
  trusted: boolean;
  /** what the project would run (also when trusted: for the trust dialog and reports) */
  items: ProjectCodeItem[];
  /** the config to start with: without the project's code unless `trusted` */
  config: Config;
  /** the language servers to start with (pass to createApp) */
  lspServers: LspServerPlan[];
  /** the config and servers with the project's code, for when the person trusts it later (the TUI's dialog) */
  full: { config: Config; lspServers: LspServerPlan[] };
  /** a line refusing `--trust`, when given inside another opencode's command */
  refusal?: string;
}

/**
 * Whether the project at `cwd` runs its own code this time: yes when it defines none, when the person
 * trusted it (`trusted-projects.json`), or with `trustFlag` (`--trust`, the runtime API's `trust`) —
 * except in a process started by another opencode's command, which cannot trust a project by itself.
 */
export function decideTrust(
  loaded: LoadedSources,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { trustFlag?: boolean } = {},
): TrustDecision {
  const held = holdProjectCode(loaded, cwd, env);
  const full =
    held.items.length === 0
      ? { config: held.config, lspServers: held.lspServers }
      : { config: loaded.config, lspServers: planServers(cwd, loaded.config.lsp, env.PATH).servers };
  const nested = isNestedRun(env);
  const refusal =
    options.trustFlag && nested
      ? `--trust is refused: this opencode was started by another opencode's command (${NESTED_RUN_ENV}=1), and only you can trust a project`
      : undefined;
  const trusted = held.items.length === 0 || isProjectTrusted(cwd, env) || (!!options.trustFlag && !nested);
  if (trusted) return { trusted, items: held.items, ...full, full, refusal };
  return { trusted, items: held.items, config: held.config, lspServers: held.lspServers, full, refusal };
}

/** The line `-p` (and the other front ends without a dialog) says when the project's code is held back. */
export function heldLine(items: readonly ProjectCodeItem[], env: Readonly<Record<string, string | undefined>>): string {
  return `this project is not trusted, so its own code was not started: ${describeProjectCode(items)}. To run it: --trust (this run), or \`opencode trust\` in the project (adds it to ${trustFilePath(env)})`;
}

/** One line naming each item, e.g. `plugin .opencode/plugins/audit.ts, MCP server github (npx github-mcp)`. */
export function describeProjectCode(items: readonly ProjectCodeItem[]): string {
  return items.map((item) => `${item.kind} ${item.name}${item.detail ? ` (${item.detail})` : ''}`).join(', ');
}

function commandLine(command: string | undefined, args: readonly string[] | undefined): string {
  return [command ?? '', ...(args ?? [])].filter((part) => part !== '').join(' ');
}

/** Whether a `sandbox` value lets commands do more than the default: off, more writable places, hosts. */
function loosensSandbox(value: unknown): boolean {
  if (typeof value === 'string') return value === 'off';
  if (value === null || typeof value !== 'object') return false;
  const { mode, allowWrite, network } = value as {
    mode?: unknown;
    allowWrite?: unknown[];
    network?: { allowedDomains?: unknown[] };
  };
  return mode === 'off' || (allowWrite?.length ?? 0) > 0 || (network?.allowedDomains?.length ?? 0) > 0;
}

/** An entry that only turns a server off: safe before trust. */
function onlyDisables(entry: unknown): boolean {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return false;
  const keys = Object.keys(entry);
  return keys.length === 1 && keys[0] === 'disabled' && (entry as { disabled: unknown }).disabled === true;
}

function objectAt(value: Record<string, unknown> | undefined, key: string): Record<string, unknown> {
  const found = value?.[key];
  return found !== null && typeof found === 'object' && !Array.isArray(found) ? (found as Record<string, unknown>) : {};
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}
