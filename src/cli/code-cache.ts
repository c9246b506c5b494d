/**
 * Starts the command from its V8 code cache. Node 20 has no `module.enableCompileCache`
 * (Node 22) and its ES modules take no cached code, so scripts/build.mjs also builds the command as
 * CommonJS files (`dist/*.cjs`, code-split as the ESM build is: a file loads when first imported),
 * each a function expression that this loader compiles with `vm.Script`. The first run of a kind
 * compiles them from source and then saves V8's code of every function that ran
 * (`createCachedData` after running, as v8-compile-cache does); later runs take that code instead of
 * parsing and compiling the JavaScript again (~0.1–0.2 s of CPU of the TUI's start on this machine;
 * the modules' evaluation itself still runs).
 *
 * The cache is one file per run kind ({@link runKind}: the TUI, `-p`, each sub-command run different
 * code), `dist/` folder, Node version, architecture and V8 flags of the command line and NODE_OPTIONS
 * (V8 rejects code made under other flags), holding an entry per file of the split (the names carry a
 * hash of their text; a file loaded after the run set a V8 flag itself has an entry of its own:
 * run-v8-flags.ts), in {@link codeCacheDir}. A missing, unreadable or rejected entry costs only the
 * compile it would have saved; the file is then written again, keeping the entries of files this run
 * did not load.
 * `OPENCODE_CODE_CACHE=off` turns it off (the files are then compiled from source every time).
 * Built into `dist/start.cjs`; `bin/opencode` requires it. Node built-ins only.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { STARTUP_COMPLETE_EVENT, startupMark } from '../startup-trace.js';
import { beforeV8FlagChange, v8FlagsSetAtRunTime } from './run-v8-flags.js';

/** Long options of `opencode` that take a value (main.ts): their value is not a sub-command's name. */
const LONG_VALUE_OPTIONS = new Set(['--output-format', '--session', '--cwd', '--model', '--profile']);
/** Short options of `opencode` that take a value (main.ts); its other short options, `-q` and `-d`, take none. */
const SHORT_VALUE_OPTIONS = new Set(['f', 'c', 'm']);

/**
 * What kind of run `args` (argv after the script) starts, for the cache's name: `prompt` (-p),
 * `help`, `version`, `tui` (no sub-command), or the sub-command's name (`stats`, `sessions`, …).
 * Short options are read as commander reads them: a group (`-qp hi` is `-q -p hi`) or a value joined
 * to its option (`-phi`, `-cdir`). bin/opencode's shell line reads the arguments the same way to give
 * the TUI and `acp` their V8 flag: keep the two alike (test/cli/bin-run-kind.test.ts).
 * Examples: `[]` → `tui`; `['-qp', 'hi']` → `prompt`; `['--help']` → `help`; `['-c', 'dir', 'stats']` → `stats`.
 */
export function runKind(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--prompt' || arg.startsWith('--prompt=')) return 'prompt';
    if (arg === '--help') return 'help';
    if (arg === '--version') return 'version';
    if (arg.startsWith('--')) {
      if (LONG_VALUE_OPTIONS.has(arg)) i++;
    } else if (arg.startsWith('-')) {
      // the options of a group that take no value (-q, -d) skipped: the first other one decides
      const rest = arg.replace(/^-[dq-]*/, '');
      if (rest.startsWith('p')) return 'prompt';
      if (rest.startsWith('h')) return 'help';
      if (rest.startsWith('v')) return 'version';
      if (rest.length === 1 && SHORT_VALUE_OPTIONS.has(rest)) i++;
    } else {
      return /^[a-z][a-z-]{0,30}$/.test(arg) ? arg : 'other';
    }
  }
  return 'tui';
}

/**
 * The cache folder: `$OPENCODE_CODE_CACHE_DIR`, else `opencode-code-cache-<uid>` in the temp folder
 * (as v8-compile-cache does; one per user: created 0700, and not read when it is not the user's alone).
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.OPENCODE_CODE_CACHE_DIR || join(tmpdir(), `opencode-code-cache-${process.getuid?.() ?? 'user'}`);
}

/** A short name for `text` in a cache file's name (FNV-1a, 32 bits, hex: node:crypto is not loaded for it). */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A file of the split: `(function (exports, require, module, __filename, __dirname, __chunk, __import) {…})`;
 * `__chunk(name)` loads another file of the split, `__import(specifier)` is this file's `import()`
 * (code V8 takes from a cache made by vm.Script cannot `import()` itself in Node 20: scripts/build.mjs).
 */
type ChunkFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
  chunk: (name: string) => unknown,
  dynamicImport: (specifier: string) => Promise<unknown>,
) => void;

const dynamicImport = (specifier: string): Promise<unknown> => import(specifier);

/** What a start did, for tests and the start-up trace: filled in as files load. */
export interface CodeCacheRun {
  kind: string;
  /** the cache file of this kind of run */
  cacheFile: string;
  /** false with `OPENCODE_CODE_CACHE=off` */
  enabled: boolean;
  /** files (names without `.cjs`) whose code came from the cache */
  fromCache: string[];
  /** files compiled from source (no entry, or V8 rejected it) */
  compiled: string[];
}

/**
 * Runs the command: `entry` (a file name in `distDir` without `.cjs`) and the files it imports, with
 * cached code when there is some. `args` are the command's arguments (`process.argv.slice(2)`).
 * Throws what the entry's evaluation throws (a missing file: ENOENT).
 */
export function startWithCodeCache(
  distDir: string,
  entry: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CodeCacheRun {
  const kind = runKind(args);
  const enabled = env.OPENCODE_CODE_CACHE !== 'off';
  const dir = codeCacheDir(env);
  // Node's options, which hold the V8 flags, come from the command line and from NODE_OPTIONS (often a
  // user's `--max-old-space-size=…` for all their Node programs): runs under other flags keep a file
  // each instead of rejecting and overwriting each other's code
  const nodeOptions = env.NODE_OPTIONS ? [...process.execArgv, env.NODE_OPTIONS] : process.execArgv;
  const file = join(
    dir,
    `${kind}-${shortHash(distDir)}-${process.version}-${process.arch}-${shortHash(nodeOptions.join(' '))}.bin`,
  );
  startupMark('start.cjs');
  const cached = enabled ? openCache(dir, file) : new CacheEntries();
  startupMark(`code cache opened: ${cached.size} entries`);
  /** by entry key: the file's name, then the V8 flags the run had set when it loaded (run-v8-flags.ts) */
  const scripts = new Map<string, vm.Script | Buffer>();
  const modules = new Map<string, Module>();
  const run: CodeCacheRun = { kind, cacheFile: file, enabled, fromCache: [], compiled: [] };

  const load = (name: string): unknown => {
    const loaded = modules.get(name);
    if (loaded) return loaded.exports;
    const filename = join(distDir, `${name}.cjs`);
    const source = readFileSync(filename, 'utf8');
    // a file loaded after the run set a V8 flag has its own entry: V8 rejects code cached under other flags
    const flags = v8FlagsSetAtRunTime();
    const key = flags ? `${name} ${flags}` : name;
    const cachedData = enabled ? cached.get(key) : undefined;
    const script = new vm.Script(source, { filename, cachedData });
    if (enabled) {
      (cachedData === undefined || script.cachedDataRejected ? run.compiled : run.fromCache).push(name);
      scripts.set(key, script);
    }
    const module = new Module(filename, undefined);
    module.filename = filename;
    modules.set(name, module);
    const compiled = script.runInThisContext() as ChunkFunction;
    compiled.call(
      module.exports,
      module.exports,
      createRequire(filename),
      module,
      filename,
      distDir,
      load,
      dynamicImport,
    );
    return module.exports;
  };

  if (enabled) {
    // V8 stamps code with the flags of when it is serialised: the code of the files compiled so far is
    // taken before a flag changes them (~0.2 ms a file). A file whose code came from the cache keeps
    // that entry instead (saveCache keeps the entries of the files not in `scripts`): a run that took
    // them all from the cache serialises nothing here.
    beforeV8FlagChange(() => {
      let taken = 0;
      for (const [key, script] of scripts) {
        if (!(script instanceof vm.Script)) continue;
        if (script.cachedDataRejected === false) {
          scripts.delete(key);
        } else {
          scripts.set(key, script.createCachedData());
          taken++;
        }
      }
      startupMark(`code cache: the code of ${taken} files taken before a V8 flag`);
    });
    const save = () => {
      startupMark(
        `code cache (${kind}): ${run.fromCache.length} files from the cache, ${run.compiled.length} compiled`,
      );
      if (run.compiled.length > 0) saveCache(dir, file, distDir, cached, scripts);
    };
    // the TUI says when its start-up is done (the app and the grammars loaded): the cache then holds
    // the code of a whole start, not a session's later code; other runs save as they exit, when they
    // succeeded (a run stopped by an error ran little of the usual code)
    if (kind === 'tui') process.once(STARTUP_COMPLETE_EVENT, save);
    else process.once('exit', (code) => code === 0 && save());
  }
  load(entry);
  return run;
}

/**
 * The entries of a cache file (file name → V8 code), each read from the file when first asked for:
 * the skeleton frame waits only for the first files' code, not the whole cache.
 */
class CacheEntries {
  constructor(
    private readonly fd?: number,
    private readonly index = new Map<string, Entry>(),
  ) {}

  get size(): number {
    return this.index.size;
  }

  names(): string[] {
    return [...this.index.keys()];
  }

  /** The entry of `name`; undefined when there is none, it cannot be read, or its bytes are not those saved. */
  get(name: string): Buffer | undefined {
    const at = this.index.get(name);
    if (!at || this.fd === undefined) return undefined;
    const data = Buffer.allocUnsafe(at.length);
    try {
      if (readSync(this.fd, data, 0, at.length, at.offset) !== at.length) return undefined;
    } catch {
      return undefined;
    }
    // V8 (release builds) does not check cached code against its own checksum: changed bytes that
    // still pass its sanity checks crash the process (a fatal "unreachable code"), at every start
    return entryChecksum(data) === at.checksum ? data : undefined;
  }
}

/** Where an entry is in the cache file, and the {@link entryChecksum} of its bytes. */
interface Entry {
  offset: number;
  length: number;
  checksum: number;
}

/**
 * A checksum of an entry's bytes: FNV-1a over its 32-bit little-endian words, then its last 0–3 bytes,
 * as an unsigned 32-bit integer (~1.8 ns a byte here: ~6 ms for the TUI's 3.3 MB, spread over the files
 * as they load). It detects a corrupted file, not a forged one: the cache folder is the user's own.
 */
export function entryChecksum(data: Uint8Array): number {
  const words = data.length >>> 2;
  // an Int32Array needs a 4-byte aligned offset: a small Buffer can sit unaligned in Node's pool
  const aligned = data.byteOffset % 4 === 0 ? data : Uint8Array.prototype.slice.call(data);
  const view = new Int32Array(aligned.buffer, aligned.byteOffset, words);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words; i++) hash = Math.imul(hash ^ view[i]!, 0x01000193);
  for (let i = words * 4; i < data.length; i++) hash = Math.imul(hash ^ data[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * Opens the cache file and reads its index; no entries when it is missing, malformed or in a folder
 * that is not this user's alone. Layout: a 4-byte length, a JSON header `[[name, bytes, checksum], …]`
 * ({@link entryChecksum}), the entries' bytes one after another. The file is opened once and stays open (a save replaces it by a
 * rename, so what is read is always the file that was opened).
 */
function openCache(dir: string, file: string): CacheEntries {
  let fd: number | undefined;
  try {
    if (!ownedDir(dir)) return new CacheEntries();
    fd = openSync(file, 'r');
    const { size, mtimeMs } = fstatSync(fd);
    if (Date.now() - mtimeMs > UNUSED_CACHE_MS / 30) utimesSync(file, new Date(), new Date());
    const head = Buffer.alloc(4);
    if (size < 4 || readSync(fd, head, 0, 4, 0) !== 4) throw new Error('not a cache file');
    const headerLength = head.readUInt32LE(0);
    if (4 + headerLength > size) throw new Error('not a cache file');
    const headerBytes = Buffer.alloc(headerLength);
    if (readSync(fd, headerBytes, 0, headerLength, 4) !== headerLength) throw new Error('short header');
    const header = JSON.parse(headerBytes.toString('utf8')) as unknown;
    if (!Array.isArray(header)) throw new Error('not a cache file');
    const index = new Map<string, Entry>();
    let offset = 4 + headerLength;
    for (const entry of header as unknown[]) {
      // a header that is JSON but not ours (a negative length: Buffer.allocUnsafe throws as a file loads)
      const [name, length, checksum] = Array.isArray(entry) ? (entry as unknown[]) : [];
      if (typeof name !== 'string' || !Number.isSafeInteger(length) || (length as number) < 0 || !isUint32(checksum))
        throw new Error('not a cache file');
      index.set(name, { offset, length: length as number, checksum });
      offset += length as number;
    }
    if (offset !== size) throw new Error('size mismatch');
    return new CacheEntries(fd, index);
  } catch {
    if (fd !== undefined) closeSync(fd);
    return new CacheEntries();
  }
}

function isUint32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffffffff;
}

/** Whether `dir` exists as this user's alone (owned, not writable by group or others). */
function ownedDir(dir: string): boolean {
  try {
    const stat = statSync(dir);
    const uid = process.getuid?.();
    return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** A cache file not written for this long is removed when another is saved, ms (30 days). */
const UNUSED_CACHE_MS = 30 * 24 * 3600 * 1000;

/**
 * Writes the cache: this run's files' code, and the earlier entries of files still in `distDir` that
 * this run did not load. A temp file, then a rename: a concurrent reader sees the old file or the new.
 */
function saveCache(
  dir: string,
  file: string,
  distDir: string,
  earlier: CacheEntries,
  scripts: Map<string, vm.Script | Buffer>,
): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownedDir(dir)) return;
    const present = new Set(readdirSync(distDir));
    const entries = new Map<string, Buffer>();
    for (const name of earlier.names()) {
      const data = !scripts.has(name) && present.has(`${name.split(' ')[0]}.cjs`) ? earlier.get(name) : undefined;
      if (data) entries.set(name, data);
    }
    for (const [name, script] of scripts)
      entries.set(name, script instanceof vm.Script ? script.createCachedData() : script);
    const header = Buffer.from(
      JSON.stringify([...entries].map(([name, data]) => [name, data.length, entryChecksum(data)])),
    );
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length);
    // the pid alone could be another's too: containers sharing a cache folder each have their own pids
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
    writeFileSync(temp, Buffer.concat([length, header, ...entries.values()]), { mode: 0o600 });
    renameSync(temp, file);
    // caches of builds or folders not started for a month (an upgrade, a removed checkout) go, and the
    // temp files of saves killed before their rename once they are an hour old (no save takes that long)
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const limit = name.endsWith('.bin') ? UNUSED_CACHE_MS : name.endsWith('.tmp') ? 3600_000 : undefined;
      if (limit !== undefined && Date.now() - statSync(path).mtimeMs > limit) rmSync(path, { force: true });
    }
  } catch {
    // a cache that cannot be written only costs the next start its compile
  }
}
