/**
 * Finds and loads plugins: `.js`, `.mjs` and `.ts` files in the user's and the
 * project's `plugins/` folders, and the packages named under `plugins` in `.opencode.json`, resolved
 * from the project's `node_modules` (nothing is downloaded). TypeScript is loaded without a build step
 * through jiti, which also hands `opencode/plugin` our own helpers, so a plugin needs no install; a
 * plugin file seen before runs from its transpiled copy in the data directory (`compiled-cache.ts`).
 *
 * A plugin that cannot be loaded (a syntax error, a throw at load, no default function) is one
 * problem line and is skipped; the others still load. So is one whose loading or function does not
 * finish within {@link PLUGIN_INIT_TIMEOUT_MS} (a top-level await or a promise that never settles):
 * start-up goes on without it. A plugin runs in opencode's own thread, so one that loops without
 * awaiting (at import or in a hook) holds everything, signals included; the README says so.
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginInput, PluginResult } from './api.js';
import { cachedPluginImporter, type JitiLike } from './compiled-cache.js';

/** How long a plugin may take to load and for its function to return its tools and hooks; then it is skipped (a run must not wait forever). */
export const PLUGIN_INIT_TIMEOUT_MS = 10_000;

/** Extensions of plugin files. */
export const PLUGIN_EXTENSIONS = ['.js', '.mjs', '.ts'];

/** Where a plugin came from. */
export interface PluginSpec {
  /** `user` or `project` (a package named in the config counts as the project's) */
  source: 'user' | 'project';
  /** the file, or the package name */
  id: string;
  /** how it is named in messages: a path relative to the project, `~/…`, or `package <name>` */
  label: string;
}

/** A plugin that loaded. */
export interface LoadedPlugin {
  spec: PluginSpec;
  result: PluginResult;
}

/** The plugin files of a folder, sorted (a missing folder has none). */
export function pluginFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter(
        (e) =>
          (e.isFile() || e.isSymbolicLink()) &&
          PLUGIN_EXTENSIONS.includes(extname(e.name)) &&
          !e.name.endsWith('.d.ts'),
      )
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

type Jiti = JitiLike & { esmResolve(id: string, opts?: { parentURL?: string; try?: boolean }): string | undefined };
let jitiPromise: Promise<(id: string) => Jiti> | undefined;

/** jiti, loaded on first use only: a project without plugins, or whose plugins are all cached, never pays for it. */
async function jitiFor(parent: string): Promise<Jiti> {
  jitiPromise ??= Promise.all([import('jiti'), import('./api.js')]).then(
    ([m, helpers]) =>
      (id: string) =>
        m.createJiti(id, {
          // `opencode/plugin` is this very module, already loaded: nothing to resolve or transform, and
          // the plugin's zod is ours
          virtualModules: { 'opencode/plugin': helpers },
          interopDefault: true,
        }) as unknown as Jiti,
  );
  return (await jitiPromise)(parent);
}

/** How {@link loadPlugins} runs. */
export interface LoadPluginsOptions {
  /** how long a plugin's function may take (default {@link PLUGIN_INIT_TIMEOUT_MS}) */
  initTimeoutMs?: number;
  /** the data directory, where transpiled plugin files are kept (`compiled-cache.ts`); none: jiti every time */
  dataDir?: string;
  /** the user's cache salt (`config/cache-file.ts`) */
  salt?: string;
}

/**
 * Loads each plugin and calls its function, all at once (a slow plugin does not hold the others back);
 * the result keeps the order of `specs`. Returns the plugins that loaded and one line per problem,
 * each starting with the plugin's label, e.g. `.opencode/plugins/broken.ts: failed at load: boom`.
 */
export async function loadPlugins(
  specs: readonly PluginSpec[],
  input: Omit<PluginInput, 'log'>,
  log: (spec: PluginSpec) => PluginInput['log'],
  options: LoadPluginsOptions = {},
): Promise<{ plugins: LoadedPlugin[]; problems: string[] }> {
  const plugins: LoadedPlugin[] = [];
  const problems: string[] = [];
  if (specs.length === 0) return { plugins, problems };
  const initTimeoutMs = options.initTimeoutMs ?? PLUGIN_INIT_TIMEOUT_MS;
  const parent = join(input.directory, 'package.json');
  let jiti: Promise<Jiti> | undefined;
  const jitiForProject = () => (jiti ??= jitiFor(parent));
  const importFile = cachedPluginImporter({
    dataDir: options.dataDir,
    salt: options.salt,
    helpers: await import('./api.js'),
    jitiFor: jitiForProject,
  });
  const loadOne = async (spec: PluginSpec): Promise<LoadedPlugin | string> => {
    let fn: unknown;
    if (spec.id.startsWith('/')) {
      try {
        fn = await withTimeout(importFile(spec.id), initTimeoutMs, 'did not finish loading');
      } catch (err) {
        return `${spec.label}: ${err instanceof PluginTimeoutError ? '' : 'failed at load: '}${firstLine(err)}`;
      }
    } else {
      // a package named in the config: resolved by jiti's rules (ESM-only exports too), loaded by jiti
      const jiti = await jitiForProject();
      const resolved = jiti.esmResolve(spec.id, { parentURL: `file://${parent}`, try: true });
      if (!resolved)
        return `${spec.label}: not found in ${join(input.directory, 'node_modules')} (install it in the project: npm install ${spec.id})`;
      try {
        fn = await withTimeout(
          jiti.import(resolved.startsWith('file://') ? fileURLToPath(resolved) : resolved, { default: true }),
          initTimeoutMs,
          'did not finish loading',
        );
      } catch (err) {
        return `${spec.label}: ${err instanceof PluginTimeoutError ? '' : 'failed at load: '}${firstLine(err)}`;
      }
    }
    if (typeof fn !== 'function') {
      return `${spec.label}: the default export must be a plugin function (async ({ directory, worktree, config, log }) => ({ tools, hooks }))`;
    }
    try {
      const init = Promise.resolve((fn as (i: PluginInput) => unknown)({ ...input, log: log(spec) }));
      const result = ((await withTimeout(init, initTimeoutMs, 'did not return its tools and hooks')) ??
        {}) as PluginResult;
      if (typeof result !== 'object') throw new Error('the plugin function must return { tools, hooks } (or nothing)');
      return { spec, result };
    } catch (err) {
      return `${spec.label}: ${err instanceof PluginTimeoutError ? '' : 'failed at load: '}${firstLine(err)}`;
    }
  };
  for (const outcome of await Promise.all(specs.map(loadOne))) {
    if (typeof outcome === 'string') problems.push(outcome);
    else plugins.push(outcome);
  }
  return { plugins, problems };
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.trim() || 'unknown error';
}

/** A plugin took too long; its message is the whole reason, e.g. `did not finish loading within 10 s; skipped`. */
class PluginTimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // not unref'd: a plugin's import that never settles holds nothing else, and the run would end silently
    timer = setTimeout(() => reject(new PluginTimeoutError(`${what} within ${ms / 1000} s; started without it`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
