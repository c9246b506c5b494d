/**
 * Hard links: a file inside the project may be
 * another name of a file outside it (`ln ~/.bashrc notes`). Following symbolic links does not show
 * that, since a hard link has no target: both names are the same file. So a write into an existing
 * regular file with more than one name is a write to a place we can't know, and asks every time.
 *
 * Reads the file system (lstat), unlike the shell analysis; called once per command line by
 * `command-subject.ts`. A folder's link count is not its names (it counts its subfolders), so only
 * regular files count.
 */
import { lstatSync } from 'node:fs';
import type { CommandWrite } from './types.js';

/**
 * Writes whose path is an existing regular file with more than one name lose their path (the place
 * is unknown) and say why in their target. Others are returned as they are.
 */
export function markHardLinkedWrites(writes: readonly CommandWrite[]): CommandWrite[] {
  return writes.map((write) => {
    if (write.path === undefined) return write;
    const links = linkCount(write.path);
    if (links <= 1) return write;
    // the path goes: the place is unknown
    return {
      target: `${write.target} (a file with ${links} names: the others may be outside the project)`,
      via: write.via,
      ...(write.part !== undefined && { part: write.part }),
      ...(write.redirect !== undefined && { redirect: write.redirect }),
    };
  });
}

function linkCount(path: string): number {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? stat.nlink : 1;
  } catch {
    return 1; // missing (it will be created) or unreadable: judged by its path
  }
}
