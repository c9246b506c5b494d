/**
 * `grep`: search file contents with a regex (as the original), fixed: the pattern goes after
 * `--` (one starting with `-` works), rg's output is parsed with paths ending in a NUL (paths with `:` are fine), lines are
 * cut at 2000 characters, binary files are skipped without hiding other matches, .gitignore is
 * honoured outside git repos, the rg run is killed on abort, and the Node fallback finds every
 * matching line (the original kept one per file) with the same selection, order and limit as rg.
 * Hidden (dot) files and folders are searched, as sst/opencode's grep and codex do (else
 * `.github/workflows/*.yml` is invisible); .gitignore still applies and `.git` is always skipped.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { resolveToolPath } from './write-guard.js';
import { askBeforeSecretRead, secretPlaceSearched, secretScope } from './secret-read.js';
import { escapeLineBreaks, ripgrepIgnoreArgs, walkFiles } from './file-walk.js';
import { compileGlob, splitTopLevelCommas } from './glob-pattern.js';
import { findRipgrep, runRipgrep, searchEngine, RipgrepUnavailableError } from './ripgrep.js';
import { cutLine } from './view.js';

const DESCRIPTION = `Search file contents with a regular expression (ripgrep syntax) under \`path\` (a folder or one file; default: the working directory). Returns matching lines as \`Line N: text\` grouped by file, most recently modified files first, at most 100 lines; long lines are cut at 2000 characters.

Use it to find where something is defined or used: \`function\\s+handleLogin\`, \`TODO|FIXME\`. Set literal_text=true to search for exact text with special characters such as \`a.b(c)\`. Narrow with \`include\`, a glob for file names: \`*.ts\`, \`*.{ts,tsx}\`.

Matches one line at a time. Searches hidden files and folders too (\`.github/workflows\`, \`.env.example\`); skips binary files, files ignored by .gitignore, and .git. To find files by name use glob; to read a file use view. If the results are truncated, narrow the pattern, path or include.`;

/** Most matching lines returned (the original's limit). */
export const GREP_LIMIT = 100;
/** rg stops a file after this many matching lines: one more than the limit tells us it was cut. */
const MAX_PER_FILE = GREP_LIMIT + 1;
/** Skipped at any depth, file or folder, although hidden entries are searched: git's internals (rg `--glob '!.git'`). */
const SKIPPED_NAME = '.git';
/** rg type name carrying the include glob (a type match, unlike --glob, does not override .gitignore) */
const INCLUDE_TYPE = 'opencodeinclude';

const parameters = z.object({
  pattern: z.string().min(1, 'must not be empty').describe('Regular expression to search for'),
  path: z.string().optional().describe('File or folder to search in; defaults to the working directory'),
  include: z.string().optional().describe('Glob of file names to search, e.g. "*.{ts,tsx}"'),
  literal_text: z.boolean().optional().describe('Search for the pattern as plain text, not a regex'),
});

export const grepTool = defineTool({
  name: 'grep',
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async run(input, ctx) {
    const root = resolveToolPath(ctx, input.path || '.');
    const secret = secretPlaceSearched(root, { hidden: true }, secretScope(ctx));
    if (secret) await askBeforeSecretRead(ctx, 'grep', secret);
    const { matches, truncated } = await searchFiles(
      root,
      { pattern: input.pattern, literal: input.literal_text ?? false, include: input.include },
      ctx.signal,
    );
    return {
      output: formatMatches(matches, truncated),
      isError: false,
      metadata: { number_of_matches: matches.length, truncated },
    };
  },
});

export interface GrepQuery {
  pattern: string;
  /** the pattern is plain text */
  literal: boolean;
  /** glob(s) of file names, comma-separated at the top level; with a `/`, of root-relative paths */
  include?: string;
}

export interface GrepMatch {
  /** absolute path */
  path: string;
  /** 1-based */
  line: number;
  /** the line without its end-of-line, cut at 2000 characters */
  text: string;
}

/** Matching lines per file path (absolute), each list in line order and at most {@link MAX_PER_FILE} long. */
type MatchesByFile = Map<string, { line: number; text: string }[]>;

/**
 * Every line matching `query` under `root` (a folder or a file), ordered by file modification time
 * (newest first, then path) and line, cut to `limit`. rg when it can run, else the Node fallback;
 * both give the same result. Throws {@link ToolError} for a missing path or a bad pattern.
 */
export async function searchFiles(
  root: string,
  query: GrepQuery,
  signal: AbortSignal,
  limit = GREP_LIMIT,
): Promise<{ matches: GrepMatch[]; truncated: boolean }> {
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new ToolError(`Path does not exist: ${root}`);
  }
  // a FIFO or device given as the path would block a reader forever
  if (!st.isDirectory() && !st.isFile()) throw new ToolError(`Path is not a file or folder: ${root}`);
  const isFile = st.isFile();
  if (query.pattern.includes('\n')) {
    throw new ToolError('The pattern must not contain a newline: grep matches one line at a time.');
  }
  const include = compileInclude(query.include);

  let byFile: MatchesByFile | undefined;
  const engine = searchEngine('grep');
  const rg = engine.engine === 'rg' ? await findRipgrep() : undefined;
  if (rg && engine.engine === 'rg') {
    try {
      byFile = await searchWithRipgrep(rg, root, isFile, query, include, engine.args, signal);
    } catch (err) {
      if (!(err instanceof RipgrepUnavailableError)) throw err;
    }
  }
  byFile ??= await searchWithNode(root, isFile, query, include, signal);
  return newestFirst(byFile, limit);
}

/**
 * The include globs. Without a `/` they are matched against file names, by rg as a file type (so
 * .gitignore still applies; `--glob` would override it); with a `/`, against root-relative paths,
 * after the search, on both paths.
 */
interface Include {
  globs: string[];
  byName?: (name: string) => boolean;
  byPath?: (relPath: string) => boolean;
}

function compileInclude(include: string | undefined): Include | undefined {
  // `./x` is `x`; `**/*.ts` names files anywhere, which is what a name glob means
  const globs = (include ? splitTopLevelCommas(include) : []).map((g) =>
    g.replace(/^(\.\/)+/, '').replace(/^(\*\*\/)+(?=[^/]*$)/, ''),
  );
  if (globs.length === 0) return undefined;
  const regexes = globs.map((g) => ({ re: compileGlob(g), hasSlash: g.includes('/') }));
  if (!regexes.some((r) => r.hasSlash)) return { globs, byName: (name) => regexes.some((r) => r.re.test(name)) };
  return {
    globs,
    byPath: (rel) => regexes.some((r) => r.re.test(r.hasSlash ? rel : rel.slice(rel.lastIndexOf('/') + 1))),
  };
}

async function searchWithRipgrep(
  rg: string,
  root: string,
  isFile: boolean,
  query: GrepQuery,
  include: Include | undefined,
  threadArgs: readonly string[],
  signal: AbortSignal,
): Promise<MatchesByFile> {
  const cwd = isFile ? dirname(root) : root;
  // Not --json: it writes one object per match, so a 1 MB line matching `.` became 50 MB of JSON
  // (a 15 MB line: "Invalid string length"). Plain output is `path NUL line-number : text`.
  const args = [
    '--null',
    '--line-number',
    '--with-filename',
    '--no-heading',
    '--color=never',
    '--max-count',
    String(MAX_PER_FILE),
    // hidden files too, but never git's internals (the fallback's walk skips the same name)
    '--hidden',
    '--glob',
    `!${SKIPPED_NAME}`,
    ...ripgrepIgnoreArgs(cwd),
    ...threadArgs,
  ];
  if (query.literal) args.push('--fixed-strings');
  if (include?.byName) {
    for (const glob of include.globs) args.push('--type-add', `${INCLUDE_TYPE}:${glob}`);
    args.push('--type', INCLUDE_TYPE);
  }
  // `--` so a pattern starting with `-` is not read as a flag; an explicit path so rg never reads stdin
  args.push('--', query.pattern, isFile ? basename(root) : '.');

  const byFile: MatchesByFile = new Map();
  const parser = new RipgrepLineParser({
    onMatch(rawPath, line, text) {
      const path = resolve(cwd, rawPath);
      let list = byFile.get(path);
      if (!list) byFile.set(path, (list = []));
      list.push({ line, text: displayLine(text) });
    },
    // a NUL byte was seen: a binary file, whatever matched before it is dropped (the fallback agrees)
    onBinary(rawPath) {
      byFile.delete(resolve(cwd, rawPath));
    },
  });
  const result = await runRipgrep(rg, args, { cwd, signal, onStdout: (chunk) => parser.write(chunk) });
  parser.end();
  // exit 2 = an error: per-file ones ("x: Permission denied (os error 13)") leave the rest valid;
  // anything else (a bad regex) means the search never ran
  if (result.exitCode === 2 && byFile.size === 0 && !/\(os error \d+\)/.test(result.stderr)) {
    throw new ToolError(`grep failed: ${result.stderr.trim()}`);
  }
  if (result.exitCode === null) throw new ToolError(`ripgrep was stopped: ${result.stderr.trim()}`);
  // rg stopped reading a file at its 101st match, so a NUL byte after that went unseen: look for one
  for (const [path, list] of byFile) {
    if (list.length >= MAX_PER_FILE && hasNulByte(path)) byFile.delete(path);
  }
  if (include?.byPath && !isFile) {
    const prefix = root.endsWith(sep) ? root : root + sep;
    for (const path of byFile.keys()) {
      if (!include.byPath(path.slice(prefix.length).split(sep).join('/'))) byFile.delete(path);
    }
  }
  return byFile;
}

/** Bytes of a matched line kept: enough for 2000 characters whatever the encoding, however long the line. */
const MAX_LINE_BYTES = 4 * 2_000 + 64;

/** What rg prints instead of a file's lines once it finds a NUL byte (with the path before `: `). */
const BINARY_NOTICES = [': WARNING: stopped searching binary file', ': binary file matches ('] as const;

/**
 * Parses rg's `--null --line-number --no-heading` output as it streams: records `path\0N:text\n`,
 * and notices `path: binary file matches (…)\n` (no NUL). Memory is bounded: a line's text is kept
 * up to {@link MAX_LINE_BYTES} only. A path may contain a newline (it ends at the NUL).
 */
export class RipgrepLineParser {
  private state: 'path' | 'number' | 'text' = 'path';
  private path: Buffer[] = [];
  private number = '';
  private text: Buffer[] = [];
  private textBytes = 0;

  constructor(
    private readonly handlers: {
      onMatch(path: string, line: number, text: string): void;
      onBinary(path: string): void;
    },
  ) {}

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'path') {
        const nul = chunk.indexOf(0, i);
        const nl = chunk.indexOf(10, i);
        if (nl !== -1 && (nul === -1 || nl < nul)) {
          this.path.push(chunk.subarray(i, nl));
          i = nl + 1;
          const line = Buffer.concat(this.path).toString('utf8');
          const notice = BINARY_NOTICES.map((n) => line.lastIndexOf(n)).find((at) => at > 0);
          if (notice !== undefined) {
            this.handlers.onBinary(line.slice(0, notice));
            this.path = [];
          } else this.path.push(Buffer.from('\n')); // a newline inside a path
        } else if (nul !== -1) {
          this.path.push(chunk.subarray(i, nul));
          i = nul + 1;
          this.state = 'number';
        } else {
          this.path.push(Buffer.from(chunk.subarray(i)));
          i = chunk.length;
        }
      } else if (this.state === 'number') {
        const colon = chunk.indexOf(58, i);
        const end = colon === -1 ? chunk.length : colon;
        this.number += chunk.toString('latin1', i, end);
        i = colon === -1 ? chunk.length : colon + 1;
        if (colon !== -1) this.state = 'text';
      } else {
        const nl = chunk.indexOf(10, i);
        const end = nl === -1 ? chunk.length : nl;
        const room = MAX_LINE_BYTES - this.textBytes;
        if (room > 0) {
          const piece = Buffer.from(chunk.subarray(i, Math.min(end, i + room)));
          this.text.push(piece);
          this.textBytes += piece.length;
        }
        i = nl === -1 ? chunk.length : nl + 1;
        if (nl !== -1) this.finishRecord();
      }
    }
  }

  /** Call after the last chunk: a last line without `\n` still counts. */
  end(): void {
    if (this.state === 'text') this.finishRecord();
  }

  private finishRecord(): void {
    const text = Buffer.concat(this.text).toString('utf8');
    this.handlers.onMatch(Buffer.concat(this.path).toString('utf8'), Number(this.number), text);
    this.state = 'path';
    this.path = [];
    this.number = '';
    this.text = [];
    this.textBytes = 0;
  }
}

/** Whether the file holds a NUL byte (a UTF-16 file, which rg decodes, does not count). Reads in 1 MB steps. */
function hasNulByte(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(1 << 20);
    for (let first = true; ; first = false) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return false;
      const chunk = buf.subarray(0, n);
      if (first && n >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)))
        return false;
      if (chunk.includes(0)) return true;
    }
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The matched line as shown: without its line ending, cut at 2000 characters. */
function displayLine(line: string): string {
  let end = line.length;
  if (line.charCodeAt(end - 1) === 10) end--;
  if (line.charCodeAt(end - 1) === 13) end--;
  return cutLine(end === line.length ? line : line.slice(0, end));
}

/** The fallback: the Node walk selects the files rg would, and each is matched line by line. */
async function searchWithNode(
  root: string,
  isFile: boolean,
  query: GrepQuery,
  include: Include | undefined,
  signal: AbortSignal,
): Promise<MatchesByFile> {
  const matcher = lineMatcher(query);
  const byFile: MatchesByFile = new Map();
  const searchOne = (abs: string) => {
    const found = searchFileText(abs, matcher);
    if (found.length > 0) byFile.set(abs, found);
  };
  if (isFile) {
    searchOne(root); // an explicit file is searched whatever its name, as rg does
    return byFile;
  }
  const walk = {
    hidden: true,
    followSymlinks: false,
    skipNames: new Set([SKIPPED_NAME]),
    fileNameFilter: include?.byName,
    signal,
  };
  await walkFiles(root, walk, (rel, abs) => {
    if (include?.byPath && !include.byPath(rel)) return;
    searchOne(abs);
  });
  return byFile;
}

interface LineMatcher {
  /** UTF-8 bytes every match contains (a literal pattern): files without them are not decoded */
  requiredBytes?: Buffer;
  /** a cheap test of the whole text: false means no line can match */
  mayMatch(text: string): boolean;
  /** `line` is without `\n` but keeps a `\r`, as rg sees it */
  matches(line: string): boolean;
}

/**
 * The pattern for JavaScript. Rust regex syntax mostly carries over; a leading `(?i)` becomes the
 * `i` flag and `(?P<name>` becomes `(?<name>`. The `s` flag makes `.` match any character but `\n`
 * within a line, as in rg.
 */
function lineMatcher(query: GrepQuery): LineMatcher {
  if (query.literal || !/[\\^$.|?*+()[\]{}]/.test(query.pattern)) {
    const needle = query.pattern;
    return {
      requiredBytes: Buffer.from(needle, 'utf8'),
      mayMatch: (text) => text.includes(needle),
      matches: (line) => line.includes(needle),
    };
  }
  let source = query.pattern.replace(/\(\?P</g, '(?<');
  let flags = 's';
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline && /^[ims]+$/.test(inline[1]!)) {
    if (inline[1]!.includes('i')) flags += 'i';
    source = source.slice(inline[0].length);
  }
  let line: RegExp;
  let whole: RegExp;
  try {
    line = new RegExp(source, flags);
    whole = new RegExp(source, `${flags}m`);
  } catch (err) {
    throw new ToolError(`Invalid regex pattern: ${(err as Error).message}`);
  }
  return { mayMatch: (text) => whole.test(text), matches: (l) => line.test(l) };
}

/** The matching lines of one file, or none when it cannot be read or is binary (has a NUL byte). */
function searchFileText(abs: string, matcher: LineMatcher): { line: number; text: string }[] {
  const bytes = readFileBytes(abs);
  if (!bytes) return [];
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (matcher.requiredBytes && !utf16 && bytes.indexOf(matcher.requiredBytes) === -1) return [];
  const text = decodeForSearch(bytes);
  if (text === undefined || !matcher.mayMatch(text)) return [];
  const found: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  for (let i = 0; i < count && found.length < MAX_PER_FILE; i++) {
    const line = lines[i]!;
    if (matcher.matches(line)) found.push({ line: i + 1, text: displayLine(line) });
  }
  return found;
}

/** One reusable buffer: most source files fit, sparing an allocation and an fstat per file. */
const scratch = Buffer.allocUnsafe(1 << 16);

/** The file's bytes (valid until the next call when it fits in the scratch buffer), or undefined if unreadable. */
function readFileBytes(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const n = readSync(fd, scratch, 0, scratch.length, null);
    if (n < scratch.length) return scratch.subarray(0, n);
    const rest = readFileSync(fd);
    return Buffer.concat([scratch, rest]);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Text as rg reads it: BOMs honoured (UTF-8 BOM dropped, UTF-16 decoded); undefined when binary. */
function decodeForSearch(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.toString('utf8', 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes.includes(0)) return undefined;
  return bytes.toString('utf8');
}

/** Files newest-first by modification time (ties by path), lines in order, cut to `limit`. Stats only files with matches. */
function newestFirst(byFile: MatchesByFile, limit: number): { matches: GrepMatch[]; truncated: boolean } {
  const files: { path: string; mtimeMs: number }[] = [];
  let total = 0;
  for (const [path, list] of byFile) {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      continue; // gone since the search
    }
    files.push({ path, mtimeMs });
    total += list.length;
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const matches: GrepMatch[] = [];
  for (const file of files) {
    for (const m of byFile.get(file.path)!) {
      if (matches.length === limit) return { matches, truncated: true };
      matches.push({ path: file.path, line: m.line, text: m.text });
    }
  }
  return { matches, truncated: total > limit };
}

/** The original's output: `Found N matches`, then per file `<path>:` and `  Line <n>: <text>`. */
export function formatMatches(matches: readonly GrepMatch[], truncated: boolean): string {
  if (matches.length === 0) return 'No files found';
  let out = `Found ${matches.length} matches\n`;
  let current = '';
  for (const m of matches) {
    if (m.path !== current) {
      if (current !== '') out += '\n';
      current = m.path;
      out += `${escapeLineBreaks(m.path)}:\n`;
    }
    out += `  Line ${m.line}: ${m.text}\n`;
  }
  if (truncated) out += '\n(Results are truncated. Consider using a more specific path or pattern.)';
  return out;
}
