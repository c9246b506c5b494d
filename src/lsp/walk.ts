/**
 * A breadth-first walk of a project's folders, which the language scan (which servers a project
 * gets) and the file watcher (which folders are watched) both make with their own limits and filters.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** What the walk does with an entry: go into it (a folder), pass it, or end the walk. */
export type WalkStep = 'enter' | 'skip' | 'stop';

/** The walker's questions, asked in the order the folders are read. */
export interface WalkVisitor {
  /** a folder about to be read (`root` first); false ends the walk before it is read */
  folder?(dir: string): boolean;
  /** an entry of the folder just read, with its full path */
  entry(path: string, entry: Dirent): WalkStep;
}

/** Walks the folders under `root` breadth first; a folder that cannot be read is passed over. */
export function walkBreadthFirst(root: string, visitor: WalkVisitor): void {
  const queue = [root];
  while (queue.length) {
    const dir = queue.shift()!;
    if (visitor.folder && !visitor.folder(dir)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const step = visitor.entry(path, entry);
      if (step === 'stop') return;
      if (step === 'enter') queue.push(path);
    }
  }
}
