/**
 * Real temp folders for the search-tool tests: write a tree of files in one call, set mtimes, run git.
 * Folders are created with their real path (no symlinked /tmp surprises) and removed by `cleanup`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

/** A new empty folder under the system temp folder (optionally under extra folders such as `build/app`). */
export function tempDir(...subfolders: string[]): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-tools-')));
  created.push(base);
  const dir = join(base, ...subfolders);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Removes every folder made by {@link tempDir}. */
export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** Sets the modification time of `root/rel` to `secondsAgo` seconds before a fixed instant. */
export function setAge(root: string, rel: string, secondsAgo: number): void {
  const t = new Date(Date.UTC(2025, 0, 1) - secondsAgo * 1000);
  utimesSync(join(root, rel), t, t);
}

/** Runs git in `cwd` with a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}
