/**
 * Keeping the project's protected entries (the files that decide what runs, `policy.ts`) as they were:
 * which git entries to protect given what `.git` is, which folders to make mount points so that a
 * protected entry's parent can't be renamed away, and the removal, after a command, of protected
 * entries it created.
 *
 * Linux refuses to rename or remove a mount point (`EBUSY`, rename(2)), so a folder bound onto itself
 * stays where it is while its other contents stay writable.
 */
import { lstatSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/**
 * `.git` itself, when it is missing or a file. A missing one could be made by a command (a repository
 * whose config it wrote); a file (`gitdir: …`, of a linked worktree or a submodule) names the git
 * directory, so rewriting it points git at another config. A directory is protected through its
 * entries instead, and kept in place as a mount point ({@link renameGuards}).
 */
export function gitEntry(projectDir: string): string[] {
  const path = join(projectDir, '.git');
  try {
    return lstatSync(path).isDirectory() ? [] : [path];
  } catch {
    return [path];
  }
}

/**
 * The folders to bind onto themselves so that no protected entry below them can be moved away by
 * renaming its parent (`mv .git .gitold && cp -a .gitold .git`): every real folder (not a link) between
 * the project and a protected entry inside it.
 */
export function renameGuards(projectDir: string, protectedPaths: readonly string[]): string[] {
  const guards = new Set<string>();
  // and where they really are: a `.git` linked to a folder of the project guards that folder
  const realDirs = new Map<string, string>();
  const resolved = protectedPaths.map((path) => {
    const dir = dirname(path);
    if (!realDirs.has(dir)) {
      try {
        realDirs.set(dir, realpathSync.native(dir));
      } catch {
        realDirs.set(dir, dir);
      }
    }
    return join(realDirs.get(dir)!, basename(path));
  });
  for (const path of new Set([...protectedPaths, ...resolved])) {
    const rel = relative(projectDir, path);
    if (!rel || rel.startsWith('..') || rel.startsWith(sep)) continue;
    const parts = rel.split(sep).slice(0, -1);
    let dir = projectDir;
    for (const part of parts) {
      dir = join(dir, part);
      if (!isRealDirectory(dir)) break; // missing, a file or a link: nothing below it can be bound
      guards.add(dir);
    }
  }
  return [...guards];
}

/**
 * Where a protected path really is: itself resolved when it exists (a link's target), else its folder
 * resolved. bwrap would follow a link in a mount target from its own setup root, where an absolute
 * link (`node_modules -> /shared/nm`) leads nowhere and the sandbox fails to start.
 */
export function mountPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    try {
      return join(realpathSync.native(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/** The protected paths that do not exist, not even as a dangling link: one that appears later was created. */
export function absentPaths(paths: readonly string[]): string[] {
  return paths.filter((path) => !lstatExists(path));
}

/**
 * Removes the entries of `absent` that exist now (files, folders, links, dangling ones too) and returns
 * them. Only inside the project and only where every parent is a real folder: an entry reached through
 * a link (`.git` linked to another repository) is left alone, since removing it would remove something
 * outside the project; the link itself is removed when its own name is protected.
 */
export function removeCreated(projectDir: string, absent: readonly string[]): string[] {
  const removed: string[] = [];
  // the shortest first: removing `.git` takes what was created under it along
  for (const path of [...absent].sort((a, b) => a.length - b.length)) {
    if (!lstatExists(path) || !insideThroughRealFolders(projectDir, path)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** What to check after a command: the protected names that were missing, and those that were links, with their targets. */
export interface ProtectedWatch {
  absent: string[];
  links: Map<string, string>;
}

/**
 * Notes the state of the protected names before a command: a protected name that is a link, or one
 * under a folder of the project that is a link (`node_modules` linked elsewhere), is not a mount point
 * itself (the mount lands on the target), so the link could be replaced.
 */
export function watchProtected(projectDir: string, paths: readonly string[]): ProtectedWatch {
  const links = new Map<string, string>();
  const absent: string[] = [];
  const noteLink = (path: string) => {
    if (links.has(path)) return true;
    try {
      if (!lstatSync(path).isSymbolicLink()) return false;
      links.set(path, readlinkSync(path));
      return true;
    } catch {
      return false;
    }
  };
  for (const path of paths) {
    try {
      lstatSync(path);
      noteLink(path);
    } catch {
      absent.push(path);
    }
    const rel = relative(projectDir, path);
    if (!rel || rel.startsWith('..') || rel.startsWith(sep)) continue;
    let dir = projectDir;
    for (const part of rel.split(sep).slice(0, -1)) {
      dir = join(dir, part);
      if (noteLink(dir)) break; // below a link, the folders are the target's
    }
  }
  return { absent, links };
}

/**
 * After the command: removes the protected entries it created ({@link removeCreated}) and puts back
 * a protected link it replaced or removed; returns the paths it changed. Never outside the project.
 */
export function restoreProtected(projectDir: string, watch: ProtectedWatch): string[] {
  const changed = removeCreated(projectDir, watch.absent);
  for (const [path, target] of watch.links) {
    let now: string | undefined;
    try {
      now = readlinkSync(path);
    } catch {
      now = undefined; // removed, or no longer a link
    }
    if (now === target || !insideThroughRealFolders(projectDir, path)) continue;
    rmSync(path, { recursive: true, force: true });
    symlinkSync(target, path);
    changed.push(path);
  }
  return changed;
}

/** true when `path` lies inside `projectDir` and its parent, resolved, is the same path (no link on the way) */
function insideThroughRealFolders(projectDir: string, path: string): boolean {
  const rel = relative(projectDir, path);
  if (!rel || rel.startsWith('..') || rel.startsWith(sep)) return false;
  try {
    return realpathSync(dirname(path)) === dirname(path) && realpathSync(projectDir) === projectDir;
  } catch {
    return false;
  }
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** true when `path` is a directory itself, not a link to one */
export function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
