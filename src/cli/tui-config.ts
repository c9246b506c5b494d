/**
 * The TUI's configuration at start-up, without the zod schema when the config files have not changed
 * (the schema and zod's ~750 kB chunk cost ~40 ms of CPU before the first frame).
 *
 * The full loader's result for a set of files — the validated config with its defaults, the warnings,
 * each file's value — is remembered in the project's data directory (`tui-config.cache.json`), keyed
 * by a hash of the build's config code (the schema and its loader: {@link CONFIG_FINGERPRINT}), this
 * version, the data directory and every file's path and exact text, and by a random value of this
 * user's ({@link userCacheSalt}): the data directory is the project's, which a repository can ship, and
 * a cache file it brings (one saying the project's MCP servers are your own, say) must never be taken
 * for ours. A start whose files hash the same
 * takes that result as it is: the full loader would compute the same from the same input, so nothing
 * is lost, and no check is repeated after the first frame. Any edit, a file added or removed (the
 * global file's search included), another build or version is a miss: the full loader runs before the
 * first frame, as without the cache, and a config error still stops the start with its message.
 * Results with errors are never remembered; nothing is written where no data directory exists yet,
 * nor when the result would not survive JSON unchanged.
 *
 * Without a fingerprint (the sources run under tsx or vitest, where the schema may change between
 * runs) nothing is read or remembered.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readLightConfig, resolveDataDir, type ConfigFileText } from '../config/light.js';
import type { LoadedConfig } from '../config/load.js';
import { userCacheSalt, writeCacheFile } from '../config/cache-file.js';
import { VERSION } from '../version.js';

/** The cache file's name in the data directory. */
export const TUI_CONFIG_CACHE_NAME = 'tui-config.cache.json';
/** Bumped when what is stored changes. */
const FORMAT = 1;

/** Set by scripts/build.mjs: a hash of the config code (src/config/) and zod's version. */
declare const OPENCODE_CONFIG_FINGERPRINT: string | undefined;

/** The built command's config fingerprint; undefined when running from the sources. */
export const CONFIG_FINGERPRINT: string | undefined =
  typeof OPENCODE_CONFIG_FINGERPRINT === 'string' ? OPENCODE_CONFIG_FINGERPRINT : undefined;

/** What {@link loadTuiConfig} found. */
export interface TuiConfig {
  /** the loaded config, or the lines that say what is wrong with it (exit code 2) */
  loaded: LoadedConfig | { problems: string[] };
  /** true when `loaded` came from the cache (the schema was not loaded) */
  fromCache: boolean;
  /** remembers a result the full loader just gave, for the next start; never throws. Call it after the first frame */
  remember(): void;
}

/** Options of {@link loadTuiConfig}. */
export interface TuiConfigOptions {
  /** the project directory (absolute) */
  cwd: string;
  env: Record<string, string | undefined>;
  /** the config code's hash; undefined turns the cache off. Default {@link CONFIG_FINGERPRINT} */
  fingerprint?: string;
}

/** The TUI's configuration in `cwd`: from the cache when the files are unchanged, else from the full loader. Never throws. */
export async function loadTuiConfig(options: TuiConfigOptions): Promise<TuiConfig> {
  const fingerprint = 'fingerprint' in options ? options.fingerprint : CONFIG_FINGERPRINT;
  // undefined when the light reader cannot vouch for the files (unreadable, not JSON, …): the full loader says why
  // the cache lives in the project's data folder, which a repository can ship: its key holds a secret of
  // this user's, so a forged file (saying the project's servers are yours, say) never matches
  const salt = fingerprint === undefined ? undefined : userCacheSalt(options.env);
  const light = salt === undefined ? undefined : readLightConfig({ cwd: options.cwd, env: options.env });
  const key =
    light && fingerprint !== undefined ? cacheKey(`${fingerprint}\0${salt}`, light.dataDir, light.files) : undefined;
  const cacheFile = light ? join(light.dataDir, TUI_CONFIG_CACHE_NAME) : undefined;
  if (key && cacheFile) {
    const cached = readCache(cacheFile, key);
    if (cached) return { loaded: cached, fromCache: true, remember: () => {} };
  }
  const { tryLoadConfig } = await import('../config/load.js');
  const loaded = tryLoadConfig(options.cwd, options.env);
  const remember = () => {
    if (!key || !cacheFile || !light || 'problems' in loaded) return;
    // the key names the data directory the light reader found: the full config must agree
    if (resolveDataDir(loaded.config, options.cwd) !== light.dataDir || !existsSync(light.dataDir)) return;
    try {
      const text = JSON.stringify({ format: FORMAT, key, loaded });
      // what is read back must be what the loader gave (no undefined, Infinity or class instance lost)
      if (!isDeepStrictEqual(JSON.parse(text).loaded, loaded)) return;
      writeCacheFile(cacheFile, text);
    } catch {
      // a read-only or full disk: the next start loads the schema again
    }
  };
  return { loaded, fromCache: false, remember };
}

/** The cache key: the config code, this version, the data directory and each file's path and text. */
export function cacheKey(fingerprint: string, dataDir: string, files: readonly ConfigFileText[]): string {
  const hash = createHash('sha1').update(`${FORMAT}\0${fingerprint}\0${VERSION}\0${dataDir}`);
  for (const { file, text } of files) hash.update('\0').update(file).update('\0').update(text);
  return hash.digest('hex');
}

/** The result remembered under `key`, if the file holds one of the right shape. */
function readCache(file: string, key: string): LoadedConfig | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      format?: unknown;
      key?: unknown;
      loaded?: Partial<LoadedConfig>;
    };
    if (data.format !== FORMAT || data.key !== key) return undefined;
    const loaded = data.loaded;
    const ok =
      !!loaded &&
      isObject(loaded.config) &&
      Array.isArray(loaded.warnings) &&
      loaded.warnings.every((w) => typeof w === 'string') &&
      Array.isArray(loaded.files) &&
      Array.isArray(loaded.sources) &&
      loaded.sources.every((s) => isObject(s) && typeof s.file === 'string' && isObject(s.value));
    return ok ? (loaded as LoadedConfig) : undefined;
  } catch {
    // missing or damaged: a miss
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
