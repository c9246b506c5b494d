/**
 * Which language servers a project gets, and why: the `lsp` entries of the config, and
 * without one the servers already installed for the languages present in the project. Nothing is
 * downloaded. `"lsp": false` turns it all off; `disabled: true` turns one language off, discovery
 * included (the original ignored `disabled`).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import { walkBreadthFirst } from './walk.js';

/** One `lsp.<language>` entry as the config gives it. */
export interface LspConfigEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** file extensions with the dot, e.g. `[".ts", ".tsx"]` */
  extensions?: string[];
  disabled?: boolean;
  initializationOptions?: unknown;
  /** the original's name for `initializationOptions` */
  options?: unknown;
  /** how long the server may take to answer `initialize` (ms) */
  startTimeoutMs?: number;
  /** how long an edit waits for fresh diagnostics (ms) */
  diagnosticsTimeoutMs?: number;
  /** what the OS sandbox lets the server do beyond writing in the project and its own temp directory */
  sandbox?: LspSandboxSettings;
}

/** An entry's `sandbox`: the network on, more writable places (absolute, `~/…`, or relative to the project). */
export interface LspSandboxSettings {
  network?: boolean;
  allowWrite?: string[];
}

/** A server that will start when a file of its language is first viewed or changed. */
export interface LspServerPlan {
  /** e.g. `typescript` */
  language: string;
  /** the executable: absolute when found in `node_modules/.bin` or on PATH */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** lower-case, with the dot */
  extensions: string[];
  initializationOptions?: unknown;
  source: 'config' | 'discovered';
  /** one line for `opencode lsp list`, e.g. `found node_modules/.bin/typescript-language-server; 12 .ts files` */
  why: string;
  startTimeoutMs: number;
  diagnosticsTimeoutMs: number;
  /** the entry's `sandbox`, when it has one */
  sandbox?: LspSandboxSettings;
}

/** A known language left out, and why (for `opencode lsp list`). */
export interface LspSkipped {
  language: string;
  why: string;
}

/**
 * Default wait for `initialize`, and for a started server's initial load before an edit stops waiting
 * for it (the original gave 30 s; a cold tsserver answers `initialize` in well under 1 s and loads a
 * small project in a few seconds).
 */
export const DEFAULT_START_TIMEOUT_MS = 10_000;
/** Default wait for diagnostics after an edit (the original's 5 s). */
export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 5_000;

/** A server we know how to find, with the files it serves. */
export interface KnownServer {
  language: string;
  command: string;
  args: string[];
  extensions: string[];
  /** also looked for in the project's `node_modules/.bin` (npm-installed servers) */
  npm: boolean;
}

/** The servers discovery looks for, one row each. */
export const KNOWN_SERVERS: readonly KnownServer[] = [
  // npm i -D typescript-language-server typescript
  {
    language: 'typescript',
    command: 'typescript-language-server',
    args: ['--stdio'],
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    npm: true,
  },
  // npm i -D pyright (pip install pyright also puts it on PATH)
  { language: 'python', command: 'pyright-langserver', args: ['--stdio'], extensions: ['.py', '.pyi'], npm: true },
  // go install golang.org/x/tools/gopls@latest
  { language: 'go', command: 'gopls', args: [], extensions: ['.go'], npm: false },
  // rustup component add rust-analyzer
  { language: 'rust', command: 'rust-analyzer', args: [], extensions: ['.rs'], npm: false },
  // apt install clangd
  {
    language: 'c',
    command: 'clangd',
    args: [],
    extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh'],
    npm: false,
  },
];

/** LSP `languageId` by extension; other extensions use the language's name. */
const LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
};

/** The `languageId` sent in `didOpen` for `path` (e.g. `typescriptreact` for `.tsx`). */
export function languageIdOf(path: string, language: string): string {
  return LANGUAGE_IDS[extname(path).toLowerCase()] ?? language;
}

/** Folders the language scan never enters: dependencies, build output, caches. */
const SCAN_SKIPPED = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  'target',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
  '.opencode',
]);
/** Entries the language scan reads at most (the scan runs at start-up). */
export const SCAN_MAX_ENTRIES = 5000;

/**
 * Counts files by extension under `root` (skipping {@link SCAN_SKIPPED} and dot folders), reading at
 * most {@link SCAN_MAX_ENTRIES} entries; stops early once every extension of `wanted` is seen.
 */
export function scanExtensions(root: string, wanted: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  walkProject(root, (_, ext) => {
    if (wanted.has(ext)) counts.set(ext, (counts.get(ext) ?? 0) + 1);
    return false;
  });
  return counts;
}

/** The first file under `root` with one of `extensions` (breadth first, as {@link scanExtensions} reads); undefined when none. */
export function firstFileWith(root: string, extensions: readonly string[]): string | undefined {
  let found: string | undefined;
  walkProject(root, (path, ext) => {
    if (extensions.includes(ext)) found = path;
    return found !== undefined;
  });
  return found;
}

/** Visits the files under `root` breadth first, within the scan's limits, until `visit` returns true. */
function walkProject(root: string, visit: (path: string, extension: string) => boolean): void {
  let read = 0;
  walkBreadthFirst(root, {
    folder: () => read < SCAN_MAX_ENTRIES,
    entry: (path, entry) => {
      if (++read > SCAN_MAX_ENTRIES) return 'stop';
      if (entry.isDirectory()) return !entry.name.startsWith('.') && !SCAN_SKIPPED.has(entry.name) ? 'enter' : 'skip';
      return visit(path, extname(entry.name).toLowerCase()) ? 'stop' : 'skip';
    },
  });
}

/** The executable `name` in the project's `node_modules/.bin` (when `npm`) or on `PATH`; undefined when absent. */
export function findExecutable(
  name: string,
  root: string,
  pathVariable: string | undefined,
  npm: boolean,
): string | undefined {
  const dirs = [
    ...(npm ? [join(root, 'node_modules', '.bin')] : []),
    ...(pathVariable ?? '').split(delimiter).filter(Boolean),
  ];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      // most candidates are missing: no exception (and its stack) for each (the TUI's start runs this)
      if (!statSync(candidate, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The servers for `root`: every enabled config entry (with a command), then each known server not
 * configured whose executable is installed and whose files are present. `lsp === false` → none.
 * `pathVariable` is `$PATH` (passed for tests).
 */
export function planServers(
  root: string,
  lsp: Record<string, LspConfigEntry> | false | undefined,
  pathVariable: string | undefined,
): { servers: LspServerPlan[]; skipped: LspSkipped[] } {
  const servers: LspServerPlan[] = [];
  const skipped: LspSkipped[] = [];
  if (lsp === false) return { servers, skipped: [{ language: '*', why: '"lsp": false in the config' }] };
  const entries = lsp ?? {};
  for (const [language, entry] of Object.entries(entries)) {
    if (entry.disabled) {
      skipped.push({ language, why: `lsp.${language}.disabled is true` });
      continue;
    }
    const known = KNOWN_SERVERS.find((k) => k.language === language);
    if (!entry.command) {
      skipped.push({ language, why: `lsp.${language} has no "command"` });
      continue;
    }
    const extensions = (entry.extensions ?? known?.extensions ?? []).map((e) =>
      (e.startsWith('.') ? e : `.${e}`).toLowerCase(),
    );
    if (extensions.length === 0) {
      skipped.push({
        language,
        why: `lsp.${language} has no "extensions" (e.g. [".lua"]) and "${language}" is not a language opencode knows`,
      });
      continue;
    }
    const command =
      isAbsolute(entry.command) || !entry.command.includes('/') ? entry.command : resolve(root, entry.command);
    servers.push({
      language,
      command,
      args: entry.args ?? known?.args ?? [],
      env: entry.env ?? {},
      extensions,
      initializationOptions: entry.initializationOptions ?? entry.options,
      source: 'config',
      why: `configured in lsp.${language}`,
      startTimeoutMs: entry.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      diagnosticsTimeoutMs: entry.diagnosticsTimeoutMs ?? DEFAULT_DIAGNOSTICS_TIMEOUT_MS,
      ...(entry.sandbox ? { sandbox: entry.sandbox } : {}),
    });
  }
  const candidates: { known: KnownServer; command: string }[] = [];
  for (const known of KNOWN_SERVERS) {
    if (known.language in entries) continue;
    const command = findExecutable(known.command, root, pathVariable, known.npm);
    if (!command) {
      skipped.push({
        language: known.language,
        why: `${known.command} not found${known.npm ? ' in node_modules/.bin or' : ''} on PATH`,
      });
      continue;
    }
    candidates.push({ known, command });
  }
  if (candidates.length === 0) return { servers, skipped };
  const counts = scanExtensions(root, new Set(candidates.flatMap((c) => c.known.extensions)));
  for (const { known, command } of candidates) {
    const present = known.extensions.filter((e) => counts.has(e));
    if (present.length === 0) {
      skipped.push({
        language: known.language,
        why: `${known.command} is installed but the project has no ${known.extensions.join(' ')} files`,
      });
      continue;
    }
    const files = present.map((e) => fileCount(counts.get(e)!, e)).join(', ');
    servers.push({
      language: known.language,
      command,
      args: known.args,
      env: {},
      extensions: known.extensions,
      source: 'discovered',
      why: `found ${command.startsWith(root) ? command.slice(root.length + 1) : command}; the project has ${files}`,
      startTimeoutMs: DEFAULT_START_TIMEOUT_MS,
      diagnosticsTimeoutMs: DEFAULT_DIAGNOSTICS_TIMEOUT_MS,
    });
  }
  return { servers, skipped };
}

/** `1 .py file`, `12 .ts files`, `5000+ .js files` (the scan stopped at its limit). */
function fileCount(count: number, extension: string): string {
  return `${count}${count >= SCAN_MAX_ENTRIES ? '+' : ''} ${extension} file${count === 1 ? '' : 's'}`;
}
