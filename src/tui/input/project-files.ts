/**
 * The project's files and folders for `@` completion (the original used rg and fzf): the files
 * `rg --files` lists (honouring .gitignore, .ignore, .rgignore; no hidden entries), else the same
 * list from the core's pure-Node walk, plus every folder those files sit in (with a trailing `/`).
 * Cached per folder for 30 s so typing `@` again does not walk the tree again.
 */
import { ripgrepIgnoreArgs, walkFiles } from '../../tools/file-walk.js';
import { findRipgrep, runRipgrep, RipgrepUnavailableError } from '../../tools/ripgrep.js';

/** How long a listing is reused, ms. */
export const PROJECT_FILES_TTL_MS = 30_000;

/** The most files listed (a huge tree would make every keystroke's fuzzy match slow). */
export const MAX_PROJECT_FILES = 50_000;

/**
 * Files (relative, `/`-separated) and folders (ending in `/`) under `cwd`, shallow ones first, then
 * alphabetical. At most {@link MAX_PROJECT_FILES} files are read. Rejects only when aborted.
 */
export async function listProjectFiles(
  cwd: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<string[]> {
  const files: string[] = [];
  const limit = new AbortController();
  const both = AbortSignal.any([signal, limit.signal]);
  const add = (rel: string) => {
    if (rel === '') return;
    files.push(rel);
    if (files.length >= MAX_PROJECT_FILES) limit.abort();
  };
  try {
    const rg = await findRipgrep();
    let listed = false;
    if (rg) {
      try {
        await listWithRipgrep(rg, cwd, both, add);
        listed = true;
      } catch (err) {
        if (!(err instanceof RipgrepUnavailableError)) throw err;
        files.length = 0;
      }
    }
    if (!listed) await walkFiles(cwd, { hidden: false, followSymlinks: false, signal: both }, add);
  } catch (err) {
    // stopped at the cap: keep what was read; aborted by the caller: pass it on
    if (signal.aborted || !limit.signal.aborted) throw err;
  }
  return withFolders(files.slice(0, MAX_PROJECT_FILES));
}

async function listWithRipgrep(
  rg: string,
  cwd: string,
  signal: AbortSignal,
  onPath: (rel: string) => void,
): Promise<void> {
  let carry = '';
  await runRipgrep(rg, ['--files', '--null', ...ripgrepIgnoreArgs(cwd)], {
    cwd,
    signal,
    onStdout(chunk) {
      const parts = (carry + chunk.toString('utf8')).split('\0');
      carry = parts.pop()!;
      for (const p of parts) onPath(p.startsWith('./') ? p.slice(2) : p);
    },
  });
  if (carry) onPath(carry);
}

/** The files plus each folder holding one (`a/b/c.ts` adds `a/` and `a/b/`), sorted by depth then name. */
export function withFolders(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i + 1));
  }
  const all = [...folders, ...files];
  const depth = (p: string) => {
    let n = 0;
    for (let i = 0; i < p.length - 1; i++) if (p.charCodeAt(i) === 0x2f) n++;
    return n;
  };
  return all
    .map((p) => ({ p, d: depth(p) }))
    .sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0))
    .map((e) => e.p);
}

const cache = new Map<string, { atMs: number; list: Promise<string[]> }>();

/**
 * A `listFiles` for the editor: {@link listProjectFiles} of `cwd`, reused for `ttlMs`. A failed
 * listing is not cached. `now` is for tests.
 */
export function projectFileLister(
  cwd: string,
  ttlMs = PROJECT_FILES_TTL_MS,
  now: () => number = Date.now,
): () => Promise<string[]> {
  return () => {
    const hit = cache.get(cwd);
    if (hit && now() - hit.atMs < ttlMs) return hit.list;
    const list = listProjectFiles(cwd);
    const entry = { atMs: now(), list };
    cache.set(cwd, entry);
    list.catch(() => {
      if (cache.get(cwd) === entry) cache.delete(cwd);
    });
    return list;
  };
}
