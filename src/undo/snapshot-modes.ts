/**
 * Exact permission bits of the project's files for the snapshots of `snapshot.ts`. Git
 * keeps only whether a file is executable (`100644` / `100755`), so `chmod 600`, `chmod 640` or a
 * setuid bit alone would be invisible to undo. The {@link ModeBook} keeps, beside the snapshot
 * repository (`<git dir>/opencode-modes`), the mode of every file whose bits are not git's default
 * for it (0o644 without the owner's executable bit, 0o755 with it): usually a handful of entries.
 *
 * It stays cheap because it reads only what git already singles out: a `chmod` changes the file's
 * ctime, which git's stat cache compares (`git diff-files` lists such a file without reading it), and
 * every listed file is `lstat`ed anyway. Git compares ctime to the second only (Debian's git is built
 * without `USE_NSEC`), so a file the snapshots added in the current second is kept in
 * {@link ModeBook.recent} and looked at again by the next snapshot, until one runs in a later second.
 *
 * Keys are the path's raw bytes relative to the project, as a `latin1` string (one char a byte:
 * names that are not UTF-8 keep every byte).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { leftovers } from '../tools/leftovers.js';

/** Git's default permission bits for a file of mode `mode`: 0o755 when the owner may execute it, else 0o644. */
export function defaultMode(mode: number): number {
  return mode & 0o100 ? 0o755 : 0o644;
}

/** The file's exact mode given the book's entries (`modes`) and its mode in git (`100644` / `100755`). */
export function effectiveMode(modes: ReadonlyMap<string, number>, key: string, gitMode: string): number {
  return modes.get(key) ?? (gitMode === '100755' ? 0o755 : 0o644);
}

/** A file a snapshot added in the second it ran: a `chmod` in the same second is invisible to git. */
interface RecentFile {
  raw: Buffer;
  ctimeSec: number;
}

/** See the module comment. Not safe for two snapshots at once (the tracker runs them one at a time). */
export class ModeBook {
  /** the entries: replaced, never changed in place, so a snapshot can hold the map it saw */
  private modes: ReadonlyMap<string, number> = new Map();
  private edited: Map<string, number> | undefined;
  private stamp = '';
  private readonly recentFiles = new Map<string, RecentFile>();

  constructor(private readonly file: string) {}

  /** Whether the book's file exists (a repository made before it existed needs one full pass). */
  exists(): boolean {
    return this.fileStamp() !== '';
  }

  /** Re-reads the file when another process wrote it since. @throws nothing: an unreadable book is empty */
  load(): void {
    const stamp = this.fileStamp();
    if (stamp === this.stamp) return;
    const modes = new Map<string, number>();
    try {
      const text = readFileSync(this.file);
      // "<octal mode> <raw path>\0" per entry
      let at = 0;
      for (let end = text.indexOf(0, at); end !== -1; end = text.indexOf(0, at)) {
        const space = text.indexOf(0x20, at);
        const mode = parseInt(text.subarray(at, space).toString('latin1'), 8);
        if (space !== -1 && space < end && Number.isInteger(mode))
          modes.set(text.subarray(space + 1, end).toString('latin1'), mode);
        at = end + 1;
      }
    } catch {
      // none yet
    }
    this.modes = modes;
    this.stamp = stamp;
  }

  /** The paths to look at again (see the module comment), as raw bytes relative to the project. */
  recent(): { key: string; raw: Buffer }[] {
    return [...this.recentFiles].map(([key, file]) => ({ key, raw: file.raw }));
  }

  /**
   * Notes what `lstat` said of `key` (`undefined`: gone). `nowSec` is when the snapshot started, in
   * whole seconds: a file changed in that second stays {@link recent}.
   */
  note(key: string, raw: Buffer, stats: Stats | undefined, nowSec: number): void {
    const mode = stats?.isFile() ? stats.mode & 0o7777 : undefined;
    const wanted = mode !== undefined && mode !== defaultMode(mode) ? mode : undefined;
    if (wanted !== this.current().get(key)) {
      this.edited ??= new Map(this.modes);
      if (wanted === undefined) this.edited.delete(key);
      else this.edited.set(key, wanted);
    }
    const ctimeSec = stats ? Math.floor(stats.ctimeMs / 1000) : -1;
    if (mode !== undefined && ctimeSec >= nowSec) this.recentFiles.set(key, { raw, ctimeSec });
    else this.recentFiles.delete(key);
  }

  /** Whether the mode `lstat` gives for `key` now differs from the book's (the executable bit alone: git sees that). */
  differs(key: string, stats: Stats): boolean {
    if (!stats.isFile()) return false;
    const mode = stats.mode & 0o7777;
    return (this.current().get(key) ?? defaultMode(mode)) !== mode;
  }

  /**
   * Ends a snapshot: writes the file when an entry changed (a journaled temp file, fsync, rename) and returns
   * the entries as they now are (the same map as the last time when nothing changed).
   * @throws the fs error when the file cannot be written (the snapshot fails: modes would be lost)
   */
  commit(): ReadonlyMap<string, number> {
    // written once even when empty: its presence says the book is complete
    if (!this.edited && this.stamp === '') this.edited = new Map(this.modes);
    if (this.edited) {
      const parts: Buffer[] = [];
      for (const [key, mode] of this.edited)
        parts.push(Buffer.from(`${mode.toString(8)} `), Buffer.from(key, 'latin1'), Buffer.of(0));
      // named as the file tools' atomic writes name theirs, and journaled before it exists: a kill
      // before the rename leaves a file the next start in the project removes (app/leftovers.ts)
      const temp = join(
        dirname(this.file),
        `.${basename(this.file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
      );
      leftovers().tempFileCreating(temp);
      try {
        const fd = openSync(temp, 'wx', 0o600);
        try {
          const bytes = Buffer.concat(parts);
          let offset = 0;
          while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(temp, this.file);
      } catch (err) {
        try {
          unlinkSync(temp);
        } catch {
          // never created, or renamed
        }
        throw err;
      } finally {
        leftovers().tempFileGone(temp);
      }
      this.modes = this.edited;
      this.edited = undefined;
      this.stamp = this.fileStamp();
    }
    return this.modes;
  }

  /** Drops edits not committed (a snapshot that failed). */
  discard(): void {
    this.edited = undefined;
  }

  private current(): ReadonlyMap<string, number> {
    return this.edited ?? this.modes;
  }

  private fileStamp(): string {
    try {
      const stats = statSync(this.file);
      return `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
    } catch {
      return '';
    }
  }
}

/** `lstat` of a raw path, or undefined when nothing is there (or it cannot be read). */
export function lstatRaw(path: Buffer): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
