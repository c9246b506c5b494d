/**
 * Writing one of our cache files (the tool-file cache, the transpiled plugins) whole or not at all:
 * the text goes to a temp file beside it, then a rename replaces the old one, so a reader never sees
 * half a file. Lighter than the file tools' `writeFileAtomic` (no journal, no permission checks,
 * none of the encoding modules its chunk loads): a cache lost at a crash is only rebuilt.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

/** The salt's file in the user's opencode config folder: see {@link userCacheSalt}. */
export const CACHE_SALT_FILE = 'cache-salt';

/**
 * The caches live in the project's data folder, which a repository can ship with files of its own
 * making. Every cache key holds this user's salt, so such a file never matches an entry we would make
 * (a forged entry could otherwise say what one of your own tools or plugins runs, or that a project's
 * server is your own).
 *
 * This user's random cache salt (`$XDG_CONFIG_HOME/opencode/cache-salt`, made on first use), or
 * undefined when it can be neither read nor made (then nothing is cached). Never throws.
 */
export function userCacheSalt(env: Record<string, string | undefined>): string | undefined {
  const file = join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode', CACHE_SALT_FILE);
  const read = (): string | undefined => {
    try {
      return readFileSync(file, 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const existing = read();
  if (existing !== undefined) return existing;
  try {
    mkdirSync(dirname(file), { recursive: true });
    // wx: another start making it at the same moment keeps its own, and both then read that one
    writeFileSync(file, randomBytes(16).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch {
    // made meanwhile, or a read-only home: read what is there, if anything
  }
  return read();
}
