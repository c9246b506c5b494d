/**
 * Reading and writing the text files the tools edit. Every tool that changes a file goes through
 * these two functions, so a file-content policy (line endings, BOM, encodings: a later issue) has one
 * place to slot in.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Reads `path` as UTF-8 text. Throws the fs error (e.g. `ENOENT`). */
export async function readTextFile(path: string): Promise<string> {
  return readFile(path, 'utf8');
}

export interface WriteOptions {
  /** permission bits for the file; default: those of the file being replaced, else 0o666 minus the umask */
  mode?: number;
}

/**
 * Writes `text` to `path` atomically: a temporary file in the same directory is written, synced and
 * renamed over the target, so a reader (or a crash) never sees half a file. The replaced file's mode
 * is kept. A symbolic link is followed: the file it points to is replaced, the link stays.
 * (A hard link to the old file keeps the old content; the owner of a file we don't own is not kept.)
 */
export async function writeTextFileAtomic(path: string, text: string, options: WriteOptions = {}): Promise<void> {
  let target = path;
  try {
    target = await realpath(path);
  } catch {
    // a new file (or a dangling link, which is then replaced)
  }
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = (await stat(target)).mode & 0o7777;
    } catch {
      mode = undefined;
    }
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o666);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      // the umask applied at creation; set the old file's bits exactly
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}
