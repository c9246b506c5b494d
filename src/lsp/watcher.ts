/**
 * Tells language servers about files changed by someone else (the bash tool, an editor, git): one
 * non-recursive `fs.watch` per project folder not ignored by the root `.gitignore` (and never `.git`
 * or `node_modules`), changes collected for {@link WATCH_DEBOUNCE_MS} and reported in one batch (the
 * original's 300 ms debounce). A recursive watch is not used: on Linux it would
 * watch every folder of node_modules.
 */
import { existsSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore from 'ignore';
import { walkBreadthFirst } from './walk.js';

/** Changes are reported this long after the last one of a burst (ms). */
export const WATCH_DEBOUNCE_MS = 300;
/** At most this many folders are watched (inotify watches are a shared, limited resource). */
export const WATCH_MAX_FOLDERS = 2000;
const NEVER_WATCHED = new Set(['.git', 'node_modules', '.opencode']);

/** One changed file: LSP `FileChangeType` 1 created, 2 changed, 3 deleted. */
export interface FileChange {
  path: string;
  type: 1 | 2 | 3;
}

/** A running watch; {@link ProjectWatcher.close} ends it. */
export interface ProjectWatcher {
  close(): void;
  /** folders being watched */
  readonly folderCount: number;
}

/** Watches `root`; `onChanges` gets each debounced batch (no duplicates of a path). */
export function watchProject(
  root: string,
  onChanges: (changes: FileChange[]) => void,
  debounceMs = WATCH_DEBOUNCE_MS,
): ProjectWatcher {
  const rules = ignore();
  const gitignore = join(root, '.gitignore');
  if (existsSync(gitignore)) {
    try {
      rules.add(readFileSync(gitignore, 'utf8'));
    } catch {
      // unreadable: nothing ignored beyond the fixed folders
    }
  }
  const ignored = (path: string, isDir: boolean): boolean => {
    const rel = relative(root, path);
    if (rel === '') return false;
    if (rel.split(sep).some((part) => NEVER_WATCHED.has(part))) return true;
    const posix = rel.split(sep).join('/');
    return rules.ignores(isDir ? `${posix}/` : posix);
  };
  const watchers = new Map<string, FSWatcher>();
  const pending = new Map<string, 'rename' | 'change'>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = () => {
    timer = undefined;
    const changes: FileChange[] = [];
    for (const [path, event] of pending) {
      let exists = false;
      let isDir = false;
      try {
        const stats = statSync(path);
        exists = true;
        isDir = stats.isDirectory();
      } catch {
        // gone
      }
      if (isDir) {
        if (!watchers.has(path) && !ignored(path, true)) addTree(path);
        continue;
      }
      if (!exists && watchers.has(path)) {
        watchers.get(path)!.close();
        watchers.delete(path);
        continue;
      }
      changes.push({ path, type: !exists ? 3 : event === 'rename' ? 1 : 2 });
    }
    pending.clear();
    if (changes.length && !closed) onChanges(changes);
  };

  const addFolder = (dir: string) => {
    if (watchers.size >= WATCH_MAX_FOLDERS) return;
    try {
      const w = watch(dir, { persistent: false }, (event, name) => {
        if (!name) return;
        const path = join(dir, name.toString());
        if (ignored(path, false)) return;
        // a rename wins over a change: it may be a creation or a deletion
        if (pending.get(path) !== 'rename') pending.set(path, event);
        clearTimeout(timer);
        timer = setTimeout(flush, debounceMs);
      });
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    } catch {
      // vanished or not readable
    }
  };

  const addTree = (top: string) =>
    walkBreadthFirst(top, {
      folder: (dir) => {
        if (watchers.size >= WATCH_MAX_FOLDERS) return false;
        addFolder(dir);
        return true;
      },
      entry: (path, entry) => (entry.isDirectory() && !ignored(path, true) ? 'enter' : 'skip'),
    });

  addTree(root);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
    get folderCount() {
      return watchers.size;
    },
  };
}
