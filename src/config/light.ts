/**
 * The few settings a report needs, read from `.opencode.json` without the zod schema (so that
 * `opencode stats` stays within 300 ms: the schema's chunk alone is ~750 kB to compile and build). The files are
 * the same ones {@link ../config/load.ts loadConfig} reads, merged the same way; only these keys are
 * taken, each checked for the type the schema wants:
 *
 * | key | type | default |
 * |---|---|---|
 * | `data.directory` | string | `.opencode` |
 * | `tools` | object of booleans | `{}` |
 * | `plugins` | array of strings | `[]` |
 * | `mcpServers` | object (only its names are taken) | `{}` |
 *
 * Whatever this reader cannot vouch for — a file that cannot be read or is not JSON, one of these keys
 * of another type — gives `undefined`: the caller then loads the full config, whose errors say what is
 * wrong. The other keys are not looked at, so a problem in them (or an unknown key's warning) is only
 * seen by the full loader: a caller that must report those keeps what the full loader said
 * (`src/cli/stats-config.ts` does, in a cache).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseJsonText } from './json-text.js';

/**
 * A config file that cannot be used. `lines` holds one line per problem, each starting with the file's
 * path, e.g. `/home/u/p/.opencode.json: agents.coder.maxTokens: expected number, got string`;
 * `message` is the lines joined with newlines, fit to print as is (no stack trace needed).
 */
export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ConfigError';
  }
}

/** The name of the config file, global and per project. */
export const CONFIG_FILE_NAME = '.opencode.json';

/** The default of `data.directory` (the schema's). */
export const DEFAULT_DATA_DIRECTORY = '.opencode';

/** Where to look: `env` supplies HOME and XDG_CONFIG_HOME; `home` overrides HOME. */
export interface ConfigLocation {
  env: Record<string, string | undefined>;
  home?: string;
}

/** The global config paths in search order; the first that exists is used (as the original). */
export function globalConfigCandidates(options: ConfigLocation): string[] {
  const home = options.home ?? options.env.HOME ?? homedir();
  const candidates = [path.join(home, CONFIG_FILE_NAME)];
  const xdg = options.env.XDG_CONFIG_HOME;
  if (xdg) candidates.push(path.join(xdg, 'opencode', CONFIG_FILE_NAME));
  candidates.push(path.join(home, '.config', 'opencode', CONFIG_FILE_NAME));
  return [...new Set(candidates)];
}

/**
 * Deep-merges `over` onto `base`: plain objects merge key by key, anything else (arrays included)
 * from `over` replaces. Neither input is changed.
 */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const existing = out[key];
    out[key] = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : value;
  }
  return out;
}

/** One config file as read. */
export interface ConfigFileText {
  /** absolute path */
  file: string;
  text: string;
}

/**
 * The texts of the files the config comes from, global first: the first global candidate that
 * exists, then `<cwd>/.opencode.json` (unless it is that same file). Missing files are skipped.
 * @throws {ConfigError} for a file that exists but cannot be read
 */
export function readConfigFiles(options: ConfigLocation & { cwd: string }): ConfigFileText[] {
  const files: ConfigFileText[] = [];
  for (const file of globalConfigCandidates(options)) {
    const text = readConfigText(file);
    if (text === undefined) continue;
    files.push({ file, text });
    break;
  }
  const localFile = path.resolve(options.cwd, CONFIG_FILE_NAME);
  if (!files.some((f) => f.file === localFile)) {
    const text = readConfigText(localFile);
    if (text !== undefined) files.push({ file: localFile, text });
  }
  return files;
}

/** The absolute data directory: `data.directory` resolved against the project directory. */
export function resolveDataDir(config: { data: { directory: string } }, cwd: string): string {
  return path.resolve(cwd, config.data.directory);
}

/**
 * The file that set `keyPath` (e.g. `['agents', 'coder', 'model']`) in the merged config: the last one
 * holding it, as the project's file wins. Undefined when no file sets it (a default).
 * `loaded.sources` is {@link ../config/load.ts loadConfig}'s: each file's value, global first.
 */
export function configSource(
  loaded: { sources: readonly { file: string; value: Record<string, unknown> }[] },
  keyPath: readonly string[],
): string | undefined {
  for (let i = loaded.sources.length - 1; i >= 0; i--) {
    let node: unknown = loaded.sources[i]!.value;
    for (const key of keyPath) node = isPlainObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    if (node !== undefined) return loaded.sources[i]!.file;
  }
  return undefined;
}

/** The settings of {@link readLightConfig}, defaults filled. */
export interface LightConfig {
  /** the files read, global first */
  files: ConfigFileText[];
  /** `data.directory` resolved against the project directory (absolute) */
  dataDir: string;
  /** `tools`: false turns a tool off */
  tools: Record<string, boolean>;
  /** `plugins`: plugin package names */
  plugins: string[];
  /** the names under `mcpServers` (disabled ones too, as the full config keeps them) */
  mcpServerNames: string[];
}

/**
 * Reads `data.directory`, `tools`, `plugins` and the names of `mcpServers` from the config files of
 * `cwd`. Never throws.
 * @returns undefined when the full loader must decide: a file unreadable or not valid JSON(C), a top
 *   level that is not an object, or one of these keys of a type the schema refuses.
 */
export function readLightConfig(options: ConfigLocation & { cwd: string }): LightConfig | undefined {
  let files: ConfigFileText[];
  try {
    files = readConfigFiles(options);
  } catch {
    return undefined;
  }
  let merged: Record<string, unknown> = {};
  for (const { text } of files) {
    let value: unknown;
    try {
      value = parseJsonText(text);
    } catch {
      return undefined;
    }
    // each file is checked alone, as the full loader does, so a file's bad value is never hidden by a merge
    if (!isPlainObject(value) || !hasLightTypes(value)) return undefined;
    merged = deepMerge(merged, value);
  }
  const data = merged.data as { directory?: string } | undefined;
  return {
    files,
    dataDir: path.resolve(options.cwd, data?.directory ?? DEFAULT_DATA_DIRECTORY),
    tools: (merged.tools as Record<string, boolean> | undefined) ?? {},
    plugins: (merged.plugins as string[] | undefined) ?? [],
    mcpServerNames: Object.keys((merged.mcpServers as Record<string, unknown> | undefined) ?? {}),
  };
}

/** Whether the keys this reader takes have the schema's types in `value` (absent is fine). */
function hasLightTypes(value: Record<string, unknown>): boolean {
  const { data, tools, plugins, mcpServers } = value;
  if (
    data !== undefined &&
    !(isPlainObject(data) && (data.directory === undefined || typeof data.directory === 'string'))
  )
    return false;
  if (tools !== undefined && !(isPlainObject(tools) && Object.values(tools).every((on) => typeof on === 'boolean')))
    return false;
  if (plugins !== undefined && !(Array.isArray(plugins) && plugins.every((name) => typeof name === 'string')))
    return false;
  if (mcpServers !== undefined && !isPlainObject(mcpServers)) return false;
  return true;
}

/** The file's text; undefined when it does not exist. @throws other read errors */
/**
 * A config file's text; undefined when it does not exist.
 * @throws {ConfigError} when it exists but cannot be read (`<file>: cannot read: <reason>`)
 */
export function readConfigText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError([`${file}: cannot read: ${(err as Error).message}`]);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
