/**
 * The configuration `opencode stats` runs with: the few keys of the zod-free reader
 * (`config/light.ts`) when that is known to give what the full loader would, else the full loader.
 *
 * What the full loader would say about the files (its warnings: unknown keys, disabled servers) is
 * remembered in the data directory (`config-check.cache.json`), keyed by a hash of this version and
 * every file's path and exact text: a later run with the same files prints the same warnings without
 * loading the schema; any edit is a miss. Files with errors are never remembered (the full loader
 * prints them and the command exits 2 each time), and nothing is written where no data directory exists
 * yet (a report creates nothing).
 *
 * The full config is also loaded when plugins will run: a plugin's function receives the validated config.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { readLightConfig, type ConfigFileText, type LightConfig } from '../config/light.js';
import { writeCacheFile } from '../config/cache-file.js';
import { VERSION } from '../version.js';

/** The cache file's name in the data directory. */
export const CONFIG_CHECK_CACHE_NAME = 'config-check.cache.json';
/** Bumped when what is stored changes. */
const FORMAT = 1;

/** What `opencode stats` needs of the configuration. */
export interface StatsConfig {
  /** the data directory (absolute) */
  dataDir: string;
  /** `tools`: false turns a tool off */
  tools: Record<string, boolean>;
  plugins: string[];
  mcpServerNames: string[];
  /** the validated config, when it was loaded (the full loader ran) */
  full?: Config;
  /** each file's own value, with `full` (which file set what: workspace trust) */
  sources?: readonly { file: string; value: Record<string, unknown> }[];
  /** the warnings printed (from the full loader, or replayed from the cache) */
  warnings: string[];
}

/** Options of {@link loadStatsConfig}. */
export interface StatsConfigOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** whether plugins will run (they need the validated config); asked with the light settings */
  needsFull: (light: LightConfig) => boolean;
}

/**
 * The configuration for `opencode stats` in `cwd`; the warnings go to stderr as the full loader's do.
 * @returns the settings, or the exit code (2) after the config's problems were printed
 */
export async function loadStatsConfig(options: StatsConfigOptions): Promise<StatsConfig | number> {
  const light = readLightConfig({ cwd: options.cwd, env: options.env });
  if (light && !options.needsFull(light)) {
    // no file: every key has its default and there is nothing to warn about
    const warnings = light.files.length === 0 ? [] : await cachedWarnings(light);
    if (warnings) {
      for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
      return {
        dataDir: light.dataDir,
        tools: light.tools,
        plugins: light.plugins,
        mcpServerNames: light.mcpServerNames,
        warnings,
      };
    }
  }
  const [{ loadConfigForCommand }, { resolveDataDir }] = await Promise.all([
    import('./load-config.js'),
    import('../config/load.js'),
  ]);
  const loaded = loadConfigForCommand(options.cwd);
  if (typeof loaded === 'number') return loaded;
  const { config } = loaded;
  const dataDir = resolveDataDir(config, options.cwd);
  if (light && light.files.length > 0 && light.dataDir === dataDir) await rememberWarnings(light, loaded.warnings);
  return {
    dataDir,
    tools: config.tools,
    plugins: config.plugins,
    mcpServerNames: Object.keys(config.mcpServers),
    full: config,
    sources: loaded.sources,
    warnings: loaded.warnings,
  };
}

/** The cache key of a set of config files: this version and each file's path and text. */
export function configCheckKey(files: readonly ConfigFileText[]): string {
  const hash = createHash('sha1').update(VERSION);
  for (const { file, text } of files) hash.update('\0').update(file).update('\0').update(text);
  return hash.digest('hex');
}

/** The warnings remembered for exactly these files, if any. */
async function cachedWarnings(light: LightConfig): Promise<string[] | undefined> {
  try {
    const data = JSON.parse(readFileSync(join(light.dataDir, CONFIG_CHECK_CACHE_NAME), 'utf8')) as {
      format?: unknown;
      key?: unknown;
      warnings?: unknown;
    };
    if (data.format !== FORMAT || data.key !== configCheckKey(light.files)) return undefined;
    const { warnings } = data;
    return Array.isArray(warnings) && warnings.every((w) => typeof w === 'string') ? warnings : undefined;
  } catch {
    // missing or damaged: a miss
    return undefined;
  }
}

/** Remembers what the full loader said about these files; never throws (it is only a cache). */
async function rememberWarnings(light: LightConfig, warnings: readonly string[]): Promise<void> {
  if (!existsSync(light.dataDir)) return;
  try {
    const key = configCheckKey(light.files);
    writeCacheFile(join(light.dataDir, CONFIG_CHECK_CACHE_NAME), JSON.stringify({ format: FORMAT, key, warnings }));
  } catch {
    // a read-only or full disk: the next run validates again
  }
}
