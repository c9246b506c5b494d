/**
 * The pure-Node stand-in for ripgrep's file walk, used by `glob` and `grep` when rg cannot run.
 * It selects the same files as `rg --no-config --no-ignore-global --no-require-git`:
 *
 * - ignore files `.rgignore` > `.ignore` > `.gitignore` > `.git/info/exclude`, in that order of
 *   precedence, each searched from the innermost folder outwards, in the walked folders and in every
 *   ancestor of the root up to `/` (rg's `--no-require-git` behaviour);
 * - hidden (dot) entries skipped unless `hidden`, but a `!rule` whitelisting one shows it, as does a
 *   file-type match (both rg quirks, kept so both paths agree);
 * - symbolic links skipped, or followed with loop detection when `followSymlinks` (rg `-L`);
 * - only regular files are reported.
 *
 * Synchronous file-system calls in slices: every ~16 ms it yields to the event loop so an abort
 * can land (reference deps §4: a Promise-per-directory walk is several times slower).
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Gitignore } from './gitignore.js';
import { isHiddenName } from './ignore.js';
import { abortError } from './ripgrep.js';

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

/** Ignore-file kinds in rg's order of precedence. */
const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const;
const KIND_COUNT = IGNORE_FILE_NAMES.length + 1; // + .git/info/exclude

/** The ignore files of one folder. A path is tested as `prefix + relPath.slice(strip)`. */
interface Level {
  prefix: string;
  strip: number;
  files: (Gitignore | undefined)[];
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
  const walker = new Walker(options, onFile);
  const levels = ancestorLevels(root);
  const rootId = options.followSymlinks ? fileId(root) : undefined;
  await walker.walkDir(root, '', levels, rootId ? [rootId] : []);
}

class Walker {
  private lastYield = performance.now();

  constructor(
    private readonly options: WalkOptions,
    private readonly onFile: (relPath: string, absPath: string) => void,
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
      let decision = decide(levels, rel, isDir);
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

/** First kind with a verdict wins; within a kind the innermost folder's file wins. */
function decide(levels: Level[], rel: string, isDir: boolean): Decision {
  if (levels.length === 0) return undefined;
  for (let kind = 0; kind < KIND_COUNT; kind++) {
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      const file = level.files[kind];
      if (!file) continue;
      const verdict = file.match(level.prefix + rel.slice(level.strip), isDir);
      if (verdict) return verdict;
    }
  }
  return undefined;
}

/** The ignore files in a walked folder, found from its listing (no extra stat per folder). */
function levelFromListing(dirAbs: string, dirRel: string, entries: Dirent[]): Level | undefined {
  let wanted = false;
  for (const e of entries) {
    if ((IGNORE_FILE_NAMES as readonly string[]).includes(e.name) || e.name === '.git') {
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
  const files: (Gitignore | undefined)[] = [];
  let any = false;
  for (const name of [...IGNORE_FILE_NAMES, join('.git', 'info', 'exclude')]) {
    const text = readTextIfFile(join(dirAbs, name));
    const parsed = text === undefined ? undefined : Gitignore.parse(text);
    const usable = parsed && !parsed.isEmpty ? parsed : undefined;
    files.push(usable);
    any ||= usable !== undefined;
  }
  return any ? { prefix, strip, files } : undefined;
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
