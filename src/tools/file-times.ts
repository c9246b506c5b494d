/**
 * Read-before-write tracking (the original's, fixed): a file counts as
 * modified since read when its mtime **or size** differs from what was seen at the last read or at
 * our own last write, so a change within the same mtime tick is still caught.
 */
import { statSync } from 'node:fs';

/** What was seen of a file: mtime in ms and size in bytes. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

export type FileCheck =
  { status: 'ok' } | { status: 'unread' } | { status: 'modified'; seen: FileStamp; now: FileStamp };

/** Per-process record of what the agent has read and written, keyed by absolute path. */
export class FileTimes {
  private readonly stamps = new Map<string, FileStamp>();

  /** Records that `path` was read (or written by us) in its current state on disk. */
  record(path: string): void {
    try {
      const st = statSync(path);
      this.stamps.set(path, { mtimeMs: st.mtimeMs, size: st.size });
    } catch {
      this.stamps.delete(path);
    }
  }

  /** Whether `path` may be modified: it was read and has not changed on disk since. */
  check(path: string): FileCheck {
    const seen = this.stamps.get(path);
    if (!seen) return { status: 'unread' };
    const st = statSync(path);
    const now = { mtimeMs: st.mtimeMs, size: st.size };
    if (now.mtimeMs !== seen.mtimeMs || now.size !== seen.size) return { status: 'modified', seen, now };
    return { status: 'ok' };
  }

  /** true when `path` was read in this process (whatever happened since) */
  wasRead(path: string): boolean {
    return this.stamps.has(path);
  }
}
