/**
 * Finds and loads plugins (issue #11 §1): `.js`, `.mjs` and `.ts` files in the user's and the
 * project's `plugins/` folders, and the packages named under `plugins` in `.opencode.json`, resolved
 * from the project's `node_modules` (nothing is downloaded). TypeScript is loaded without a build step
 * through jiti, which also hands `opencode/plugin` our own helpers, so a plugin needs no install.
 *
 * A plugin that cannot be loaded (a syntax error, a throw at load, no default function) is one
 * problem line and is skipped; the others still load.
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginInput, PluginResult } from './api.js';

/** How long a plugin's function may take to return its tools and hooks; then it is skipped (a run must not wait forever). */
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
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && PLUGIN_EXTENSIONS.includes(extname(e.name)) && !e.name.endsWith('.d.ts'))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

type Jiti = { import(id: string, opts?: { default?: boolean }): Promise<unknown>; esmResolve(id: string, opts?: { parentURL?: string; try?: boolean }): string | undefined };
let jitiPromise: Promise<(id: string) => Jiti> | undefined;

/** jiti, loaded on first use only: a project without plugins never pays for it. */
async function jitiFor(projectDir: string): Promise<Jiti> {
  jitiPromise ??= Promise.all([import('jiti'), import('./api.js')]).then(([m, helpers]) => (id: string) =>
    m.createJiti(id, {
      // `opencode/plugin` is this very module, already loaded: nothing to resolve or transform, and
      // the plugin's zod is ours
      virtualModules: { 'opencode/plugin': helpers },
      interopDefault: true,
    }) as unknown as Jiti,
  );
  return (await jitiPromise)(join(projectDir, 'package.json'));
}

/**
 * Loads each plugin and calls its function. Returns the plugins that loaded and one line per problem,
 * each starting with the plugin's label, e.g. `.opencode/plugins/broken.ts: failed at load: boom`.
 */
export async function loadPlugins(
  specs: readonly PluginSpec[],
  input: Omit<PluginInput, 'log'>,
  log: (spec: PluginSpec) => PluginInput['log'],
  initTimeoutMs = PLUGIN_INIT_TIMEOUT_MS,
): Promise<{ plugins: LoadedPlugin[]; problems: string[] }> {
  const plugins: LoadedPlugin[] = [];
  const problems: string[] = [];
  if (specs.length === 0) return { plugins, problems };
  const jiti = await jitiFor(input.directory);
  for (const spec of specs) {
    let entry = spec.id;
    if (!entry.startsWith('/')) {
      const resolved = jiti.esmResolve(spec.id, { parentURL: `file://${join(input.directory, 'package.json')}`, try: true });
      if (!resolved) {
        problems.push(`${spec.label}: not found in ${join(input.directory, 'node_modules')} (install it in the project: npm install ${spec.id})`);
        continue;
      }
      entry = resolved.startsWith('file://') ? fileURLToPath(resolved) : resolved;
    }
    let fn: unknown;
    try {
      fn = await jiti.import(entry, { default: true });
    } catch (err) {
      problems.push(`${spec.label}: failed at load: ${firstLine(err)}`);
      continue;
    }
    if (typeof fn !== 'function') {
      problems.push(`${spec.label}: the default export must be a plugin function (async ({ directory, worktree, config, log }) => ({ tools, hooks }))`);
      continue;
    }
    try {
      const init = Promise.resolve((fn as (i: PluginInput) => unknown)({ ...input, log: log(spec) }));
      const result = ((await withTimeout(init, initTimeoutMs)) ?? {}) as PluginResult;
      if (typeof result !== 'object') throw new Error('the plugin function must return { tools, hooks } (or nothing)');
      plugins.push({ spec, result });
    } catch (err) {
      problems.push(`${spec.label}: failed at load: ${firstLine(err)}`);
    }
  }
  return { plugins, problems };
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.trim() || 'unknown error';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not return its tools and hooks within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
