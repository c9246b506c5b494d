/**
 * "Did you mean": paths like one that does not exist, for view's "File not found" (the
 * original suggests up to 3 names of the same folder that contain, or are contained in, the
 * name asked for). That rule alone misses the usual slips, so three more kinds follow
 * it, each tried only while fewer than {@link MAX_SUGGESTIONS} were found:
 *
 * | kind | asked for | suggested |
 * |---|---|---|
 * | the original's: contains or is contained (case-insensitive) | `config` | `config.ts`, `configs.md` |
 * | same name, other extension | `app.js` | `app.ts` |
 * | a typo: at most 2 edits (1 for names of 5 characters or fewer) | `utils.ts` | `util.ts` |
 * | the same name elsewhere in the project (also when the folder is missing) | `src/foo.ts` | `src/lib/foo.ts` |
 *
 * The project search walks the files rg would list (.gitignore honoured, hidden entries skipped) and
 * stops after {@link MAX_WALKED_FILES}, so a missing file in a huge tree still answers at once.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { isAbortError } from '../abort.js';
import { walkFiles } from './file-walk.js';

/** At most this many paths are suggested (the original's 3). */
export const MAX_SUGGESTIONS = 3;
/** The project search looks at no more files than this. */
export const MAX_WALKED_FILES = 20_000;

/**
 * Up to 3 existing paths (absolute, folder entries before project-wide ones) like `filePath`, which
 * does not exist. `projectRoot` bounds the project-wide search; it is skipped when `filePath` is
 * outside it. Never throws: an unreadable folder gives fewer suggestions.
 */
export async function similarPaths(filePath: string, projectRoot: string): Promise<string[]> {
  const dir = dirname(filePath);
  const wanted = basename(filePath);
  const found: string[] = [];
  const add = (paths: string[]) => {
    for (const path of paths) if (found.length < MAX_SUGGESTIONS && !found.includes(path)) found.push(path);
  };

  const names = listNames(dir);
  const lower = wanted.toLowerCase();
  add(
    names
      .filter((name) => name.toLowerCase().includes(lower) || lower.includes(name.toLowerCase()))
      .map((n) => join(dir, n)),
  );
  const stem = stemOf(lower);
  add(names.filter((name) => stemOf(name.toLowerCase()) === stem).map((n) => join(dir, n)));
  const limit = lower.length <= 5 ? 1 : 2;
  add(
    names
      .map((name) => ({ name, distance: editDistance(name.toLowerCase(), lower, limit) }))
      .filter((c) => c.distance <= limit)
      .sort((a, b) => a.distance - b.distance || compare(a.name, b.name))
      .map((c) => join(dir, c.name)),
  );
  if (found.length < MAX_SUGGESTIONS && isInside(projectRoot, filePath))
    add(await sameNameInProject(projectRoot, wanted));
  return found;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort(compare);
  } catch {
    return []; // the folder is missing too
  }
}

/** Plain code-unit order, the same on every machine (localeCompare is not). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The name without its last extension: `app.test.ts` → `app.test`; `.env` stays `.env`. */
function stemOf(name: string): string {
  const ext = extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}

/** Files named `name` (case-insensitive) anywhere in the project, shallowest first, then by path. */
async function sameNameInProject(root: string, name: string): Promise<string[]> {
  const wanted = name.toLowerCase();
  const matches: string[] = [];
  const stop = new AbortController();
  let walked = 0;
  try {
    await walkFiles(root, { hidden: false, followSymlinks: false, signal: stop.signal }, (rel, abs) => {
      if (rel.slice(rel.lastIndexOf('/') + 1).toLowerCase() === wanted) matches.push(abs);
      if (++walked >= MAX_WALKED_FILES) stop.abort();
    });
  } catch (err) {
    if (!isAbortError(err)) return [];
  }
  const depth = (path: string) => path.split(sep).length;
  return matches.sort((a, b) => depth(a) - depth(b) || compare(a, b));
}

/**
 * Damerau–Levenshtein distance (optimal string alignment: an adjacent swap is one edit) between `a`
 * and `b`, or `limit + 1` as soon as it is sure to exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
