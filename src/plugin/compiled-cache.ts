/**
 * Plugin files transpiled once, run from the data directory afterwards (target: ≤ 150 ms
 * before the first request with 5 `.ts` plugins). Importing jiti costs about 100 ms of CPU in each new
 * process even when its own transform cache is warm, so a plugin whose exact text was transpiled
 * before is run from our copy of jiti's output without jiti being imported at all.
 *
 * The copy is jiti's own transform (TypeScript stripped, ESM turned into an async CommonJS body that
 * calls `jitiImport`), evaluated the way jiti evaluates it: wrapped in
 * `async function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve)`
 * (jiti 2.x `eval_evalModule`). Only TypeScript and ES module plugins whose every import is
 * `opencode/plugin` or a Node built-in take this path: anything else (a relative helper, a package, a
 * computed specifier, a CommonJS `.js` file) is left to jiti's rules, so such a plugin loads through
 * jiti as before.
 *
 * Files: `<data dir>/plugins.cache/<hash of path>-<hash of text, jiti version, format>.json` holding
 * `{ code, native }`; a new version of a plugin removes the older files of the same path.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { writeCacheFile } from '../config/cache-file.js';

/** The folder in the data directory. */
export const PLUGIN_CACHE_DIR = 'plugins.cache';
/** Bumped when what is stored or how it runs changes. */
const FORMAT = 1;
/** The one module a plugin may import that is not on disk: our helpers (`api.ts`). */
const HELPERS_ID = 'opencode/plugin';
const TYPESCRIPT = /\.[cm]?tsx?$/;
/**
 * ES module syntax (the test jiti takes from mlly's `hasESMSyntax`): a `.js` file without it is
 * CommonJS, which jiti runs as it is (not transformed, sloppy mode allowed), so it is left to jiti.
 */
const ESM_SYNTAX =
  /([\s;]|^)(import[\s\w*,{}]*from|import\s*["'*{]|export\b\s*(?:[*{]|default|class|type|function|const|var|let|async function)|import\.meta\b)/m;
/** What jiti 2.x's transform puts in its output instead of code when the source does not parse. */
const JITI_ERROR = '__JITI_ERROR__';

/** What is stored for one version of one plugin file. */
interface CompiledPlugin {
  /** jiti's transform of the file */
  code: string;
  /** every import is `opencode/plugin` or a built-in: the code can run without jiti */
  native: boolean;
}

/** Loads a plugin file (its default export, or `module.exports`) as jiti would. */
export type PluginImporter = (file: string) => Promise<unknown>;

/** What {@link cachedPluginImporter} needs. */
export interface PluginCacheOptions {
  /** the data directory; none: nothing is remembered and every plugin goes through jiti */
  dataDir?: string;
  /** the user's cache salt (`config/cache-file.ts`), part of every file name: a file the project came with never matches */
  salt?: string;
  /** the helpers module handed out as `opencode/plugin` */
  helpers: object;
  /** jiti for the plugin file, loaded on first use: for a changed plugin and for imports outside the native set */
  jitiFor: () => Promise<JitiLike>;
}

/** The parts of a jiti instance used here. */
export interface JitiLike {
  import(id: string, opts?: { default?: boolean }): Promise<unknown>;
  transform(opts: {
    source: string;
    filename: string;
    ts?: boolean;
    async?: boolean;
    jsx?: boolean;
    interopDefault?: boolean;
  }): string;
}

/**
 * An importer for plugin files that uses the cache in `options.dataDir`. Never throws for a cache
 * problem (an unreadable or unwritable folder means the plugin goes through jiti); a plugin's own
 * errors (syntax, a throw at load) are thrown as jiti throws them.
 */
export function cachedPluginImporter(options: PluginCacheOptions): PluginImporter {
  const dir = options.dataDir ? join(options.dataDir, PLUGIN_CACHE_DIR) : undefined;
  return async (file) => {
    if (!dir) return (await options.jitiFor()).import(file, { default: true });
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      return (await options.jitiFor()).import(file, { default: true });
    }
    const prefix = hash(file).slice(0, 16);
    const name = `${prefix}-${hash(`${FORMAT}\0${options.salt ?? ''}\0${jitiVersion()}\0${source}`).slice(0, 24)}.json`;
    let compiled = readCompiled(join(dir, name));
    if (!compiled) {
      const jiti = await options.jitiFor();
      let code: string;
      try {
        code = jiti.transform({
          source,
          filename: file,
          ts: TYPESCRIPT.test(file),
          async: true,
          jsx: false,
          interopDefault: true,
        });
      } catch {
        code = JITI_ERROR;
      }
      // a syntax error (jiti's transform then returns code setting `exports.__JITI_ERROR__`) is not
      // stored: jiti's import reports it as it always did
      if (code.includes(JITI_ERROR)) return jiti.import(file, { default: true });
      compiled = { code, native: (TYPESCRIPT.test(file) || ESM_SYNTAX.test(source)) && importsAreNative(code) };
      store(dir, prefix, name, compiled);
    }
    if (!compiled.native) return (await options.jitiFor()).import(file, { default: true });
    return evaluate(file, compiled.code, options.helpers);
  };
}

/**
 * Whether every module `code` (jiti's output) loads is `opencode/plugin` or a Node built-in, with
 * literal specifiers only. Anything it cannot be sure of counts as not native.
 */
export function importsAreNative(code: string): boolean {
  const calls = /\b(jitiImport|jitiESMResolve|require)\s*\(\s*(?:"([^"]*)"\s*\)|'([^']*)'\s*\)|`([^`$]*)`\s*\))?/g;
  for (const match of code.matchAll(calls)) {
    const id = match[2] ?? match[3] ?? match[4];
    if (id === undefined) return false; // a computed specifier
    if (match[1] === 'jitiESMResolve') return false;
    if (id !== HELPERS_ID && !isBuiltin(id)) return false;
  }
  return true;
}

async function evaluate(file: string, code: string, helpers: object): Promise<unknown> {
  const nodeRequire = createRequire(file);
  // jiti hands a built-in over as a namespace marked __esModule (its interop then reads named exports and default)
  const jitiImport = async (id: string) => {
    if (id === HELPERS_ID) return helpers;
    const namespace = (await import(id)) as Record<string, unknown>;
    return { __proto__: null, ...namespace, __esModule: true };
  };
  const require = Object.assign((id: string) => (id === HELPERS_ID ? helpers : nodeRequire(id)), {
    resolve: nodeRequire.resolve,
    cache: nodeRequire.cache,
  });
  const module = { exports: {} as Record<string, unknown>, filename: file, id: file };
  const body = runInThisContext(
    `(async function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ${code}\n});`,
    { filename: file },
  ) as (...args: unknown[]) => Promise<void>;
  await body.call(module.exports, module.exports, require, module, file, dirname(file), jitiImport, undefined);
  const exported = module.exports;
  // jiti's `interopDefault`: the default export when there is one
  return exported && typeof exported === 'object' && 'default' in exported ? exported.default : exported;
}

function readCompiled(path: string): CompiledPlugin | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<CompiledPlugin>;
    return typeof data.code === 'string' && typeof data.native === 'boolean'
      ? { code: data.code, native: data.native }
      : undefined;
  } catch {
    return undefined;
  }
}

function store(dir: string, prefix: string, name: string, compiled: CompiledPlugin): void {
  try {
    mkdirSync(dir, { recursive: true });
    // older versions of the same file are of no further use
    for (const old of readdirSync(dir))
      if (old.startsWith(`${prefix}-`) && old !== name) rmSync(join(dir, old), { force: true });
    writeCacheFile(join(dir, name), JSON.stringify(compiled));
  } catch {
    // a read-only or full disk: the next start transpiles again
  }
}

let version: string | undefined;
/** jiti's version, from its package.json (read without importing jiti): a new jiti may transform differently. */
function jitiVersion(): string {
  if (version !== undefined) return version;
  try {
    // `jiti` resolves to lib/jiti.cjs (the require condition); package.json is one folder up
    const entry = createRequire(import.meta.url).resolve('jiti');
    version =
      (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string }).version ??
      'unknown';
  } catch {
    version = 'unknown';
  }
  return version;
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
