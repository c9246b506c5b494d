/**
 * Writing one of our cache files (the tool-file cache, the transpiled plugins) whole or not at all:
 * the text goes to a temp file beside it, then a rename replaces the old one, so a reader never sees
 * half a file. Lighter than the file tools' `writeFileAtomic` (no journal, no permission checks,
 * none of the encoding modules its chunk loads): a cache lost at a crash is only rebuilt.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/** Writes `text` to `path` atomically. Throws what `fs` throws (callers ignore it: it is only a cache). */
export function writeCacheFile(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
