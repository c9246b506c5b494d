/**
 * What checking each declarative tool file gave, remembered between starts (target:
 * ≤ 150 ms before the first request with 50 tools). Parsing YAML is the costly part of loading (the
 * `yaml` package, cold in a new process, takes about a millisecond a file), so a file whose exact text
 * was seen before is not parsed again: the key is a hash of its path and text, so any edit, however
 * small, is a miss. Stored in the data directory (`.opencode/tool-files.cache.json`, kept out of git
 * by its .gitignore); only the entries used by this start are written back, so it never grows.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../config/cache-file.js';
import type { ParsedToolFile } from './declarative-spec.js';

/** The cache file's name in the data directory. */
export const TOOL_FILE_CACHE_NAME = 'tool-files.cache.json';
/** Bumped when the checks change, so results of older checks are not reused. */
const FORMAT = 1;

export interface ToolFileCache {
  /** the remembered result for `file` with exactly `text`, if any */
  get(file: string, text: string): ParsedToolFile | undefined;
  set(file: string, text: string, parsed: ParsedToolFile): void;
  /** writes the entries used since opening, if any was new or one went unused; failures are ignored (it is only a cache) */
  save(): void;
}

/** Opens the cache in `dir` (none: a cache that remembers nothing). Never throws. */
export function openToolFileCache(dir: string | undefined, salt = ''): ToolFileCache {
  const path = dir ? join(dir, TOOL_FILE_CACHE_NAME) : undefined;
  let stored: Record<string, ParsedToolFile> = {};
  if (path) {
    try {
      const data = JSON.parse(readFileSync(path, 'utf8')) as {
        format?: number;
        entries?: Record<string, ParsedToolFile>;
      };
      if (data.format === FORMAT && data.entries && typeof data.entries === 'object') stored = data.entries;
    } catch {
      // missing or damaged: start empty
    }
  }
  const used: Record<string, ParsedToolFile> = {};
  let changed = false;
  // the user's salt (config/cache-file.ts): an entry the project's data folder came with never matches
  const key = (file: string, text: string) =>
    createHash('sha1').update(salt).update('\0').update(file).update('\0').update(text).digest('hex');
  return {
    get(file, text) {
      const k = key(file, text);
      const hit = stored[k];
      if (hit) used[k] = hit;
      return hit;
    },
    set(file, text, parsed) {
      used[key(file, text)] = parsed;
      changed = true;
    },
    save() {
      if (!path) return;
      if (!changed && Object.keys(used).length === Object.keys(stored).length) return;
      try {
        writeCacheFile(path, JSON.stringify({ format: FORMAT, entries: used }));
      } catch {
        // a read-only or full disk: the next start parses again
      }
    },
  };
}
