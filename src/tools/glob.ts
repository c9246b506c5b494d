/**
 * `glob`: find files by path pattern (as the original), fixed: the skip list is
 * matched against paths relative to the search root, .gitignore is honoured outside git repos too,
 * hidden files are reachable when the pattern names them, and the rg and fallback paths agree.
 */
import { statSync } from 'node:fs';
import { isAbsolute, sep } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { resolveToolPath } from './write-guard.js';
import { askBeforeSecretRead, secretPlaceSearched, secretScope } from './secret-read.js';
import { escapeLineBreaks, ripgrepIgnoreArgs, walkFiles } from './file-walk.js';
import { compileGlob, hasGlobSyntax, namesHiddenEntries, patternWords } from './glob-pattern.js';
import { GLOB_IGNORED_FOLDERS, segmentFilter } from './ignore.js';
import { findRipgrep, runRipgrep, searchEngine, RipgrepUnavailableError } from './ripgrep.js';

const DESCRIPTION = `Find files by name with a glob pattern matched against paths relative to \`path\` (default: the working directory). Returns absolute paths, shortest first, at most 100.

Syntax: \`*\` matches within one folder, \`**\` across folders, \`?\` one character, \`[abc]\`, \`{ts,tsx}\`. \`*.ts\` matches only directly in \`path\`; \`**/*.ts\` matches at any depth. Examples: \`**/*.test.ts\`, \`src/**/*.{ts,tsx}\`, \`**/package.json\`.

Leaves out files ignored by .gitignore, hidden files and folders, and folders such as node_modules, dist, build, vendor, bin, out, tmp, unless the pattern names them (\`.github/**\`, \`**/.env\`, \`node_modules/zod/**\`).

Use it to locate files by name or extension. To search inside files use grep; to see a folder's layout use ls. If the results are truncated, narrow the pattern or the path.`;

/** Most paths returned (the original's limit). */
export const GLOB_LIMIT = 100;

const parameters = z.object({
  pattern: z.string().min(1, 'must not be empty').describe('Glob pattern, e.g. "**/*.ts"'),
  path: z.string().optional().describe('Folder to search in; defaults to the working directory'),
});

export const globTool = defineTool({
  name: 'glob',
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async run(input, ctx) {
    const { root, pattern } = resolveSearch(ctx.cwd, input.path, input.pattern);
    const secret = secretPlaceSearched(root, { pattern }, secretScope(ctx));
    if (secret) await askBeforeSecretRead(ctx, 'glob', secret);
    const { files, truncated } = await findFiles(root, pattern, ctx.signal);
    let output = 'No files found';
    if (files.length > 0) {
      output = files.map(escapeLineBreaks).join('\n');
      if (truncated) output += '\n\n(Results are truncated. Consider using a more specific path or pattern.)';
    }
    return { output, isError: false, metadata: { number_of_files: files.length, truncated } };
  },
});

/**
 * The search root and the root-relative pattern. A leading `./` is dropped; an absolute pattern
 * inside the root is made relative, and one outside it searches from its fixed leading folders.
 */
export function resolveSearch(
  cwd: string,
  path: string | undefined,
  pattern: string,
): { root: string; pattern: string } {
  const root = resolveToolPath({ cwd }, path || '.');
  let rel = pattern.trim().replace(/^(\.\/)+/, '');
  if (!isAbsolute(rel)) return { root, pattern: rel };
  const rootPrefix = root.endsWith(sep) ? root : root + sep;
  if (rel.startsWith(rootPrefix)) return { root, pattern: rel.slice(rootPrefix.length).split(sep).join('/') };
  const segments = rel.split('/');
  let fixed = 0;
  while (fixed < segments.length - 1 && !hasGlobSyntax(segments[fixed]!)) fixed++;
  rel = segments.slice(fixed).join('/');
  return { root: segments.slice(0, fixed).join('/') || '/', pattern: rel };
}

/**
 * Files under the folder `root` whose root-relative path matches `pattern`, as absolute paths sorted
 * by length then lexically, cut to `limit`. Uses rg when it can run, else the Node walk; both give
 * the same list. Throws {@link ToolError} when `root` is not a folder.
 */
export async function findFiles(
  root: string,
  pattern: string,
  signal: AbortSignal,
  limit = GLOB_LIMIT,
): Promise<{ files: string[]; truncated: boolean }> {
  assertFolder(root);
  const matcher = compileGlob(pattern);
  const hidden = namesHiddenEntries(pattern);
  const named = patternWords(pattern);
  const skipped = GLOB_IGNORED_FOLDERS.map((f) => f.name).filter((name) => name === '.git' || !named.has(name));
  const inSkippedFolder = segmentFilter(skipped);

  let best = new ShortestPaths(limit);
  const consider = (rel: string) => {
    if (rel === '' || !matcher.test(rel)) return;
    if (inSkippedFolder?.(rel)) return;
    best.add(rel);
  };

  // the engine per core count (SEARCH_ENGINES): on 2 cores the in-process walk beats spawning rg
  const engine = searchEngine('glob');
  const rg = engine.engine === 'rg' ? await findRipgrep() : undefined;
  let listed = false;
  if (rg && engine.engine === 'rg') {
    try {
      await listWithRipgrep(rg, root, hidden, engine.args, signal, consider);
      listed = true;
    } catch (err) {
      if (!(err instanceof RipgrepUnavailableError)) throw err;
      best = new ShortestPaths(limit);
    }
  }
  if (!listed) {
    const skipNames = new Set(skipped);
    await walkFiles(root, { hidden, followSymlinks: true, skipNames, signal }, consider);
  }
  const prefix = root.endsWith(sep) ? root : root + sep;
  return { files: best.sorted().map((rel) => prefix + rel), truncated: best.total > limit };
}

/** `rg --files` in `root`, its NUL-separated output parsed as it streams. */
async function listWithRipgrep(
  rg: string,
  root: string,
  hidden: boolean,
  threadArgs: readonly string[],
  signal: AbortSignal,
  onPath: (rel: string) => void,
): Promise<void> {
  // -L follows symlinks as the original did. `--hidden` only when the pattern names a dot entry:
  // then .git is left out by glob (one glob; a glob per skipped folder costs ~20% on 100k files).
  // the order rg prints in (threads) does not matter: the caller keeps the shortest paths
  const args = ['--files', '--null', '-L', ...threadArgs, ...ripgrepIgnoreArgs(root)];
  if (hidden) args.push('--hidden', '--glob', '!.git');
  let carry: Buffer | undefined;
  const result = await runRipgrep(rg, args, {
    cwd: root,
    signal,
    onStdout(chunk) {
      const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
      const end = buf.lastIndexOf(0);
      if (end < 0) {
        carry = buf;
        return;
      }
      carry = end + 1 < buf.length ? buf.subarray(end + 1) : undefined;
      for (const rel of buf.toString('utf8', 0, end).split('\0')) onPath(rel);
    },
  });
  if (carry) onPath(carry.toString('utf8'));
  // exit 2 with output = some entries could not be read (broken links, permissions): keep the rest
  if (result.exitCode === null) throw new ToolError(`ripgrep was stopped: ${result.stderr.trim()}`);
}

function assertFolder(root: string): void {
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new ToolError(`Path does not exist: ${root}`);
  }
  if (!st.isDirectory()) throw new ToolError(`Path is not a directory: ${root}`);
}

/** Keeps the `limit` smallest paths by (length, then code-unit order) without sorting them all. */
class ShortestPaths {
  private readonly items: string[] = [];
  total = 0;

  constructor(private readonly limit: number) {}

  add(path: string): void {
    this.total++;
    const items = this.items;
    if (items.length === this.limit) {
      if (this.limit === 0 || compareShortestFirst(path, items[items.length - 1]!) >= 0) return;
      items.pop();
    }
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareShortestFirst(items[mid]!, path) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, path);
  }

  sorted(): string[] {
    return this.items;
  }
}

/** The original sorts by path length; ties are broken lexically so the order is stable. */
export function compareShortestFirst(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
