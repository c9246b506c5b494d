/**
 * Which test files go in which of the suite's projects, read by vitest.config.ts:
 *
 * - `unit`: in-process tests of one part (no child process, no whole app): the edit loop's `npm run test:quick`;
 * - `integration`: files that start programs (bin/opencode, shells, git, bwrap, language and MCP
 *   servers), load the built dist/ files, or build the whole app;
 * - `e2e`: the tmux end-to-end folder.
 *
 * A file is `integration` when its text (comments removed), or the text of a test-local module it
 * imports (followed through `test/`, not `src/`), matches one of {@link INTEGRATION_MARKERS}. Reading
 * the code rather than keeping a list means a new test lands in the right project without anyone
 * remembering to list it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Code (comments removed) that puts a test file in the `integration` project: it starts an outside
 * program, loads the built files, or builds the whole app. Matched in the test file and in the
 * test-local helpers it imports.
 */
export const INTEGRATION_MARKERS: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  { pattern: /\bBIN\b|\brunCli\s*\(/, reason: 'runs the built command, bin/opencode' },
  {
    pattern: /\bjoin\((?:ROOT|root|[^)]*['"]\.\.['"])\s*,\s*['"]dist['"]/,
    reason: 'loads the built dist/ files, which the global setup builds',
  },
  { pattern: /['"]tmux['"]|\bstartTerminal\b/, reason: 'drives a real terminal' },
  { pattern: /['"]typescript-language-server['"]|['"]pyright/, reason: 'starts a real language server (seconds each)' },
  {
    pattern: /\b(?:FIXTURE|FILESYSTEM_SERVER|TSX_LOADER)\b/,
    reason: 'starts a real MCP server (a Node process under tsx)',
  },
  { pattern: /['"]node:child_process['"]|['"]execa['"]/, reason: 'starts programs itself (git, shells, fixtures)' },
  {
    pattern: /src\/(?:tools\/(?:bash|shell)|sandbox\/|undo\/|lsp\/|mcp\/|custom\/declarative)/,
    reason:
      'uses a part that starts programs: shells, the sandbox, git snapshots, language or MCP servers, declarative tools',
  },
  {
    pattern: /\b(?:startTuiApp|createApp|runAgentTurn|agentHarness)\b/,
    reason: 'builds the whole app: database, provider, tools, and the services it starts',
  },
];
/** The folder of the tmux end-to-end tests, relative to the project root. */
export const E2E_FOLDER = 'test/e2e';

const TEST_FILE = /\.test\.tsx?$/;
const LOCAL_IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The test files under `testRoot` (absolute), sorted. */
function testFiles(testRoot: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // as vitest's own file search: every test/**/*.test.ts(x) outside node_modules
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEST_FILE.test(entry.name)) found.push(path);
    }
  };
  walk(testRoot);
  return found.sort();
}

/** `text` without its block and line comments (roughly: a `//` inside a string is rare in these files and only drops the line's rest). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[^]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** The file an import specifier names: `./x.js` is `./x.ts` or `./x.tsx` in the source tree. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|mjs|ts|tsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mjs`, `${stem}.js`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) return candidate;
  }
  return undefined;
}

/** The test files of each project: paths relative to the project root, with forward slashes. */
export interface SuiteGroups {
  unit: string[];
  integration: string[];
  e2e: string[];
}

/**
 * Splits the test files under `<root>/test` into the three projects' file lists (paths relative to
 * `root`, with forward slashes).
 */
export function suiteGroups(root: string): SuiteGroups {
  const testRoot = join(root, 'test');
  const marked = new Map<string, boolean>();
  const isIntegration = (file: string, seen: Set<string>): boolean => {
    const known = marked.get(file);
    if (known !== undefined) return known;
    if (seen.has(file)) return false;
    seen.add(file);
    const text = withoutComments(readFileSync(file, 'utf8'));
    let result = INTEGRATION_MARKERS.some((marker) => marker.pattern.test(text));
    if (!result) {
      for (const match of text.matchAll(LOCAL_IMPORT)) {
        const target = resolveImport(file, match[1]!);
        // only the tests' own helpers: src/ starts programs only when a test asks it to, which the test's text shows
        if (target === undefined || !target.startsWith(testRoot)) continue;
        if (isIntegration(target, seen)) {
          result = true;
          break;
        }
      }
    }
    marked.set(file, result);
    return result;
  };
  const groups: SuiteGroups = { unit: [], integration: [], e2e: [] };
  for (const file of testFiles(testRoot)) {
    const name = relative(root, file).split('\\').join('/');
    if (name.startsWith(`${E2E_FOLDER}/`)) groups.e2e.push(name);
    else if (isIntegration(file, new Set())) groups.integration.push(name);
    else groups.unit.push(name);
  }
  return groups;
}
