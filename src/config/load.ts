/**
 * Loads `.opencode.json`: the global file (first found of `$HOME/.opencode.json`,
 * `$XDG_CONFIG_HOME/opencode/.opencode.json`, `$HOME/.config/opencode/.opencode.json`), with the project's
 * `<cwd>/.opencode.json` deep-merged over it (as the original). Each file is validated on its own so every
 * problem names its file; unknown keys are warnings and are dropped.
 */
import type { z } from 'zod';
import { configSchema, mcpServerSchema, type Config } from './schema.js';
import { formatKeyPath, jsonTypeName, splitIssues } from './issues.js';
import { JsonSyntaxError, parseJsonText } from './json-text.js';
import { projectKeyWarnings } from './project-keys.js';
import {
  CONFIG_FILE_NAME,
  ConfigError,
  configSource,
  deepMerge,
  globalConfigCandidates,
  readConfigFiles,
  resolveDataDir,
} from './light.js';

// shared with the zod-free reader of a few keys (light.ts), so both read the same files the same way;
// configSource and resolveDataDir live there so that the TUI's start can use them without the schema
export { CONFIG_FILE_NAME, ConfigError, configSource, deepMerge, globalConfigCandidates, resolveDataDir };

/** Where to look. `env` supplies HOME and XDG_CONFIG_HOME; `home` overrides HOME. */
export interface LoadConfigOptions {
  /** the project directory (absolute) */
  cwd: string;
  env: Record<string, string | undefined>;
  home?: string;
}

/** The result of {@link loadConfig}. */
export interface LoadedConfig {
  config: Config;
  /** one line per ignored problem, e.g. `/p/.opencode.json: agents.coder.temperature: unknown key` */
  warnings: string[];
  /** the files read, global first (absolute paths) */
  files: string[];
  /** each file's own value as read (unknown keys removed), global first: which file set what */
  sources: { file: string; value: Record<string, unknown> }[];
}

/**
 * Reads, validates and merges the global and project config files and fills defaults.
 * Missing files are fine (all defaults). `shell.path` stays unset unless configured: the bash tool
 * then picks $SHELL when it is bash, else /bin/bash (a zsh, fish or dash $SHELL would break bash syntax).
 * @throws {ConfigError} when a file is unreadable, is not valid JSON, or has a value of the wrong type;
 *   every problem of every file is listed, one line each.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const sources = readConfigFiles(options);
  const globalFiles = globalConfigCandidates(options);

  const files = sources.map((s) => s.file);
  const warnings: string[] = [];
  const errors: string[] = [];
  const values: Record<string, unknown>[] = [];
  const read: LoadedConfig['sources'] = [];
  for (const { file, text } of sources) {
    const checked = checkFile(file, text);
    warnings.push(...checked.warnings);
    errors.push(...checked.errors);
    if (checked.value) {
      values.push(checked.value);
      read.push({ file, value: checked.value });
      // the project's own file (not the user's, when the project is the home directory)
      if (!globalFiles.includes(file)) warnings.push(...projectKeyWarnings(file, checked.value));
    }
  }
  if (errors.length > 0) throw new ConfigError(errors);

  const merged = values.reduce<Record<string, unknown>>((acc, value) => deepMerge(acc, value), {});
  const parsed = configSchema.safeParse(merged, { reportInput: true });
  if (!parsed.success) {
    // Each file passed alone, so only a merge of incompatible halves can land here.
    throw new ConfigError(
      splitIssues(parsed.error.issues).errors.map((p) => `merged configuration: ${p.keyPath}: ${p.text}`),
    );
  }
  const config = parsed.data as Config;
  warnings.push(...disableIncompleteServers(config, files, values));
  return { config, warnings, files, sources: read };
}

/** {@link loadConfig} for a command's start: the loaded config, or the lines that say what is wrong with it. Never throws. */
export function tryLoadConfig(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): LoadedConfig | { problems: string[] } {
  try {
    return loadConfig({ cwd, env });
  } catch (err) {
    return { problems: configProblems(err) };
  }
}

/**
 * The lines that say why {@link loadConfig} threw: one per problem, as {@link ConfigError} words them;
 * any other failure (a file nested too deeply to merge, say) as one line too.
 */
export function configProblems(err: unknown): string[] {
  return err instanceof ConfigError ? err.lines : [`opencode: cannot load .opencode.json: ${(err as Error).message}`];
}

/** Reads a file; `undefined` when it does not exist. Other read failures surface as a ConfigError. */
interface CheckedFile {
  value?: Record<string, unknown>;
  warnings: string[];
  errors: string[];
}

/** Validates one file's text; the value returned has unknown keys removed. */
export function checkFile(file: string, text: string): CheckedFile {
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { warnings: [], errors: [`${file}: ${err.message}`] };
    throw err;
  }
  if (!isPlainObject(raw)) {
    return { warnings: [], errors: [`${file}: expected an object at the top level, got ${jsonTypeName(raw)}`] };
  }
  const result = configSchema.safeParse(raw, { reportInput: true });
  if (result.success) return { value: raw, warnings: [], errors: [] };

  // A bad MCP server entry disables that server, with a warning, so the others still start.
  const isServerIssue = (i: z.core.$ZodIssue) =>
    i.code !== 'unrecognized_keys' && i.path[0] === 'mcpServers' && i.path.length >= 2;
  const { unknownKeys, errors } = splitIssues(result.error.issues.filter((i) => !isServerIssue(i)));
  const value = structuredClone(raw);
  for (const keyPath of unknownKeys) deleteAt(value, keyPath);
  const serverWarnings = disableInvalidServers(file, value, result.error.issues.filter(isServerIssue));
  return {
    value,
    warnings: [...unknownKeys.map((keyPath) => `${file}: ${formatKeyPath(keyPath)}: unknown key`), ...serverWarnings],
    errors: errors.map((p) => (p.keyPath ? `${file}: ${p.keyPath}: ${p.text}` : `${file}: ${p.text}`)),
  };
}

/**
 * Replaces each `mcpServers` entry that has `issues` with a disabled one (keeping its `type` when valid)
 * and returns one warning line per server, e.g.
 * `/p/.opencode.json: mcpServers.git.args[1]: expected string, got number; server disabled`.
 */
function disableInvalidServers(file: string, value: Record<string, unknown>, issues: z.core.$ZodIssue[]): string[] {
  const servers = value.mcpServers as Record<string, Record<string, unknown>>;
  const byServer = new Map<string, z.core.$ZodIssue[]>();
  for (const issue of issues) {
    const name = String(issue.path[1]);
    byServer.set(name, [...(byServer.get(name) ?? []), issue]);
  }
  return [...byServer].map(([name, serverIssues]) => {
    const problems = splitIssues(serverIssues).errors.map((p) => `${p.keyPath}: ${p.text}`);
    const type = isPlainObject(servers[name]) ? servers[name].type : undefined;
    servers[name] = { ...(mcpServerSchema.shape.type.safeParse(type).success ? { type } : {}), disabled: true };
    return `${file}: ${problems.join('; ')}; server disabled`;
  });
}

/**
 * An MCP server or language server that cannot start (no command, no URL) is marked disabled with a
 * warning rather than failing the load; the original marked command-less LSP entries disabled.
 */
function disableIncompleteServers(config: Config, files: string[], values: Record<string, unknown>[]): string[] {
  const warnings: string[] = [];
  const where = (section: string, name: string): string => {
    for (let i = values.length - 1; i >= 0; i--) {
      const entries = values[i][section];
      if (isPlainObject(entries) && name in entries) return `${files[i]}: `;
    }
    return '';
  };
  for (const [name, server] of Object.entries(config.mcpServers)) {
    if (server.disabled) continue;
    const needs = server.type === 'stdio' ? (server.command ? undefined : 'command') : server.url ? undefined : 'url';
    if (!needs) continue;
    server.disabled = true;
    warnings.push(
      `${where('mcpServers', name)}mcpServers.${name}: type "${server.type}" needs "${needs}"; server disabled`,
    );
  }
  for (const [language, server] of Object.entries(config.lsp || {})) {
    if (server.disabled || server.command) continue;
    server.disabled = true;
    warnings.push(`${where('lsp', language)}lsp.${language}: no "command"; server disabled`);
  }
  return warnings;
}

function deleteAt(root: Record<string, unknown>, keyPath: PropertyKey[]): void {
  let node: unknown = root;
  for (const key of keyPath.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  if (node !== null && typeof node === 'object')
    delete (node as Record<PropertyKey, unknown>)[keyPath[keyPath.length - 1]];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
