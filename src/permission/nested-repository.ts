/**
 * A repository nested in the project (a clone in `vendor/x`, a submodule checked out by hand): git
 * run there (`git -C vendor/x status`, `cd vendor/x && git log`) reads that repository's own
 * `.git/config`, whose `core.fsmonitor`, `core.pager` or hooks run programs. The analysis is pure and
 * cannot know which folders hold a `.git`; this check looks on disk once the analysis has found where
 * each git runs.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { opaqueReason } from './opaque-code.js';
import { isWithin } from './shell-scope.js';

/**
 * The folder of a repository nested in `projectDir` that git started in `dir` with these arguments
 * (its `-C` options applied in order) would use, or undefined when it would use the project's own.
 * `home` expands `~`. A `-C` only known when it runs is judged by the analysis, not here.
 */
export function nestedRepository(
  args: readonly string[],
  dir: string,
  projectDir: string,
  home: string,
): string | undefined {
  let where = dir;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) break;
    if (arg === '-C' && args[i + 1] !== undefined) where = resolve(where, expandHome(args[++i]!, home));
    else if (arg.startsWith('-C') && arg.length > 2) where = resolve(where, expandHome(arg.slice(2), home));
    else if (['-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'].includes(arg)) i++;
  }
  if (!isWithin(projectDir, where)) return undefined; // outside the project: the analysis judges it
  for (let d = where; d !== projectDir && isWithin(projectDir, d); d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
  }
  return undefined;
}

/** The reason a git command in a nested repository is judged as code the analysis cannot see. */
export function nestedRepositoryReason(text: string, repository: string, projectDir: string): string {
  const rel = repository.slice(projectDir.length + 1) || '.';
  // the command is shortened as other opaque reasons are; the repository is always named in full
  return `${opaqueReason(text)} (${rel} is a repository of its own, whose configuration can run programs)`;
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? home + path.slice(1) : path;
}
