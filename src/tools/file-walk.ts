/**
 * The pure-Node stand-in for ripgrep's file walk, used by `glob` and `grep` when rg cannot run.
 * It selects the same files as rg run with {@link ripgrepIgnoreArgs}:
 *
 * - ignore files `.rgignore` > `.ignore` > `.gitignore` > `.git/info/exclude`, in that order of
 *   precedence, each searched from the innermost folder outwards, in the walked folders and in the
 *   ancestors of the root. Inside a git repository the git kinds stop at the repository's top
 *   (a nested repository's top ends its parent's rules), as git does; outside one, .gitignore files
 *   apply anyway (rg `--no-require-git`) up to `/`. `.rgignore` and `.ignore` always reach `/`.
 * - hidden (dot) entries skipped unless `hidden`, but a `!rule` whitelisting one shows it, as does a
 *   file-type match (both rg quirks, kept so both paths agree);
 * - symbolic links skipped, or followed with loop detection when `followSymlinks` (rg `-L`);
 * - only regular files are reported.
 *
 * Synchronous file-system calls in slices: every ~16 ms it yields to the event loop so an abort
 * can land (not a Promise per directory: measured on this project's 2-core machine, such a walk was several times slower).
 */
import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Gitignore } from './gitignore.js';
import { isHiddenName } from './ignore.js';
import { abortError } from '../abort.js';

export interface WalkOptions {
  /** list hidden (dot) entries too: rg `--hidden` */
  hidden: boolean;
  /** follow symbolic links: rg `-L` */
  followSymlinks: boolean;
  /** entry names skipped at any depth, files or folders: rg `--glob '!name'` */
  skipNames?: ReadonlySet<string>;
  /** only files whose name passes are reported: rg `--type` (a pass also un-hides a dot-file) */
  fileNameFilter?: (name: string) => boolean;
  signal: AbortSignal;
}

/** Ignore-file kinds in rg's order of precedence; the last two are git's. */
const IGNORE_FILES = ['.rgignore', '.ignore', '.gitignore', join('.git', 'info', 'exclude')] as const;
const FIRST_GIT_KIND = 2;

/** The ignore files of one folder. A path is tested as `prefix + relPath.slice(strip)`. */
interface Level {
  prefix: string;
  strip: number;
  files: (Gitignore | undefined)[];
  /** the folder holds `.git`: the top of a repository */
  hasGit: boolean;
}

/** Whether `dir` or one of its ancestors holds `.git` (rg's test for "inside a repository"). */
export function insideGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * The rg flags that give the ignore semantics above for a search of `root`: `--no-require-git` only
 * outside a repository (inside one, rg 13 and rg 15 differ with it on rules above the repository).
 */
export function ripgrepIgnoreArgs(root: string): string[] {
  return insideGitRepo(root) ? [] : ['--no-require-git'];
}

type Decision = 'ignore' | 'whitelist' | undefined;

/**
 * Calls `onFile(relPath, absPath)` for every file rg would list under the folder `root`
 * (`relPath` is `/`-separated, relative to `root`). Rejects with an AbortError when aborted.
 */
export async function walkFiles(
  root: string,
  options: WalkOptions,
  onFile: (relPath: string, absPath: string) => void,
): Promise<void> {
  const inRepo = insideGitRepo(root);
  const walker = new Walker(options, onFile, inRepo);
  const levels = ancestorLevels(root);
  const rootId = options.followSymlinks ? fileId(root) : undefined;
  await walker.walkDir(root, '', levels, rootId ? [rootId] : []);
}

class Walker {
  private lastYield = performance.now();

  constructor(
    private readonly options: WalkOptions,
    private readonly onFile: (relPath: string, absPath: string) => void,
    /** stop git rules at repository tops */
    private readonly inRepo: boolean,
  ) {}

  async walkDir(dirAbs: string, dirRel: string, outer: Level[], ancestry: string[]): Promise<void> {
    if (this.sliceUsedUp()) await this.yieldToEventLoop();
    let entries: Dirent[];
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return; // unreadable folder: rg reports it and goes on
    }
    const own = levelFromListing(dirAbs, dirRel, entries);
    const levels = own ? [...outer, own] : outer;
    const { hidden, followSymlinks, skipNames, fileNameFilter } = this.options;

    for (const entry of entries) {
      const name = entry.name;
      const rel = dirRel === '' ? name : `${dirRel}/${name}`;
      const abs = join(dirAbs, name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let id: string | undefined;
      if (entry.isSymbolicLink()) {
        if (!followSymlinks) continue;
        try {
          const st = statSync(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
          id = `${st.dev}:${st.ino}`;
        } catch {
          continue; // broken link
        }
        if (isDir && ancestry.includes(id)) continue; // a loop back to an ancestor
      }
      if (!isDir && !isFile) continue;
      if (skipNames?.has(name)) continue;
      let decision = decide(levels, rel, isDir, this.inRepo);
      if (decision === 'ignore') continue;
      if (isFile && fileNameFilter) {
        if (!fileNameFilter(name)) continue;
        decision = 'whitelist';
      }
      if (decision === undefined && !hidden && isHiddenName(name)) continue;
      if (isDir) {
        const childAncestry = followSymlinks ? [...ancestry, id ?? fileId(abs) ?? ''] : ancestry;
        await this.walkDir(abs, rel, levels, childAncestry);
      } else {
        this.onFile(rel, abs);
        if (this.sliceUsedUp()) await this.yieldToEventLoop();
      }
    }
  }

  /** Whether the current slice has run ~16 ms; throws when aborted. */
  private sliceUsedUp(): boolean {
    if (this.options.signal.aborted) throw abortError();
    return performance.now() - this.lastYield >= 16;
  }

  private async yieldToEventLoop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
    if (this.options.signal.aborted) throw abortError();
  }
}

/**
 * First kind with a verdict wins; within a kind the innermost folder's file wins. Inside a
 * repository the git kinds look no further out than the first folder holding `.git`.
 */
function decide(levels: Level[], rel: string, isDir: boolean, inRepo: boolean): Decision {
  if (levels.length === 0) return undefined;
  for (let kind = 0; kind < IGNORE_FILES.length; kind++) {
    const stopsAtRepo = inRepo && kind >= FIRST_GIT_KIND;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      const file = level.files[kind];
      if (file) {
        const verdict = file.match(level.prefix + rel.slice(level.strip), isDir);
        if (verdict) return verdict;
      }
      if (stopsAtRepo && level.hasGit) break;
    }
  }
  return undefined;
}

/** The ignore files in a walked folder, found from its listing (no extra stat per folder). */
function levelFromListing(dirAbs: string, dirRel: string, entries: Dirent[]): Level | undefined {
  let wanted = false;
  for (const e of entries) {
    if (e.name === '.gitignore' || e.name === '.ignore' || e.name === '.rgignore' || e.name === '.git') {
      wanted = true;
      break;
    }
  }
  if (!wanted) return undefined;
  return readLevel(dirAbs, '', dirRel === '' ? 0 : dirRel.length + 1);
}

/** Levels for the root's ancestors, outermost first: rg reads their ignore files too. */
function ancestorLevels(root: string): Level[] {
  const levels: Level[] = [];
  let dir = dirname(root);
  let child = root;
  while (child !== dir) {
    const prefix = `${relative(dir, root).split(sep).join('/')}/`;
    const level = readLevel(dir, prefix, 0);
    if (level) levels.unshift(level);
    child = dir;
    dir = dirname(dir);
  }
  return levels;
}

function readLevel(dirAbs: string, prefix: string, strip: number): Level | undefined {
  const files = IGNORE_FILES.map((name) => {
    const text = readTextIfFile(join(dirAbs, name));
    const parsed = text === undefined ? undefined : Gitignore.parse(text);
    return parsed && !parsed.isEmpty ? parsed : undefined;
  });
  // a repository top matters even without ignore files: it ends the rules of the folders above
  const hasGit = existsSync(join(dirAbs, '.git'));
  return hasGit || files.some(Boolean) ? { prefix, strip, files, hasGit } : undefined;
}

function readTextIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function fileId(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * A file name or path as one line of tool output: a newline or carriage return in it is shown as
 * the two characters `\n` / `\r`, so a name holding one can't pass for two entries.
 */
export function escapeLineBreaks(path: string): string {
  return path.replaceAll('\n', '\\n').replaceAll('\r', '\\r');
}
