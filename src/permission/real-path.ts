/**
 * Where a path really leads, for the "inside the project?" check of the file tools.
 *
 * `realpath` fails on a dangling symbolic link, so a check built on it judges `link → /outside/new.txt`
 * by the link's own folder (inside) and lets a write through it pass as an in-project write. Here every
 * component is looked at with `lstat` and every link is followed by its text, dangling ones too, the
 * way the kernel does when it opens the path for writing: absolute targets restart from `/`, relative
 * ones continue from the link's folder, and `..` after a link goes up from where the link led.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

/** Links followed at most before giving up (Linux's own limit for one path, `ELOOP`). */
export const MAX_LINK_HOPS = 40;

/**
 * The absolute path `path` leads to with every symbolic link followed, also a dangling last one and
 * links inside link targets. The part from the first missing component on is kept as written (nothing
 * there can be a link yet).
 *
 * @returns undefined for a link loop (more than {@link MAX_LINK_HOPS} links): nothing can be written
 * through such a path, and a caller deciding "inside or not" should treat it as not inside
 */
export function resolveAllLinks(path: string): string | undefined {
  let pending = resolve(path).split(sep).filter(Boolean);
  let current: string = sep;
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      current = resolve(current, '..');
      continue;
    }
    const next = join(current, name);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // ENOENT, ENOTDIR, EACCES: nothing further can be looked at; the rest is as written
      return resolve(next, ...pending);
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > MAX_LINK_HOPS) return undefined;
    const target = readlinkSync(next);
    pending = [...target.split(sep).filter(Boolean), ...pending];
    if (isAbsolute(target)) current = sep;
  }
  return current;
}
