/**
 * File history (as the original keeps it): the versions of each file a session's tools wrote, so the UI can show what
 * the session changed. Versions are `initial` (the content before the first write; empty for a created
 * file), then `v1`, `v2`, … in write order. The latest version is the highest number, never the newest
 * timestamp (the original's "latest" query used second-resolution `created_at`).
 *
 * Fixed from the original: the content stored is always what the tool wrote (`after`), so deleting text
 * stores the remaining text, not an empty version; and versions are numbered inside one write transaction,
 * so concurrent writers cannot clash on a version name.
 */
import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import { diffLines } from 'diff';
import { returnedRow } from './returning.js';
import { TurnChangeStore, type FileWriteBytes } from './turn-changes.js';

/** One stored version of a file. */
export interface FileVersion {
  id: string;
  sessionId: string;
  /** absolute path */
  path: string;
  content: string;
  /** `initial`, then `v1`, `v2`, … */
  version: string;
  /** unix ms */
  createdAt: number;
  /** unix ms */
  updatedAt: number;
}

/** How a file changed in a session: lines added and removed between its initial and latest versions. */
export interface FileChange {
  path: string;
  additions: number;
  removals: number;
}

interface FileRow {
  id: string;
  session_id: string;
  path: string;
  content: string;
  version: string;
  created_at: number;
  updated_at: number;
}

const INITIAL = 'initial';

// `initial` sorts as 0, `vN` as N.
const VERSION_NUMBER = `(CASE version WHEN '${INITIAL}' THEN 0 ELSE CAST(substr(version, 2) AS INTEGER) END)`;

function toFileVersion(row: FileRow): FileVersion {
  return {
    id: row.id,
    sessionId: row.session_id,
    path: row.path,
    content: row.content,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Reads and writes the `files` table; the SQLite side of the tools' file history (`FileHistory`, tools/file-history.ts). */
export class FileStore {
  /** each turn's exact file states, for undo and redo */
  readonly turns: TurnChangeStore;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly onError: (err: unknown) => void = (err) =>
      process.stderr.write(`opencode: file history not saved: ${err instanceof Error ? err.message : String(err)}\n`),
  ) {
    this.turns = new TurnChangeStore(db);
  }

  /**
   * The file history's `recordWrite`: like {@link record}, plus the turn's exact bytes when `bytes` is
   * given ({@link TurnChangeStore.record}); a storage failure goes to the `onError` given to the store
   * instead of failing the tool's write.
   */
  recordWrite(sessionId: string, path: string, before: string | null, after: string, bytes?: FileWriteBytes): void {
    try {
      this.record(sessionId, path, before, after);
    } catch (err) {
      this.onError(err);
    }
    if (!bytes) return;
    try {
      this.turns.record({ sessionId, path, ...bytes });
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * Records a write of `path` in `sessionId`: `before` is the disk content just before the write (`null`
   * when the file did not exist), `after` the content written (`''` for a deletion). Stores, as needed:
   * the `initial` version (`before`, or empty) on the first write of the path in the session; an
   * intermediate version holding the disk content when it differs from the latest stored version (edited
   * outside the session); then the written content — unless it equals the latest stored version.
   * Returns the versions stored, oldest first.
   * @throws `SqliteError` when the write fails (e.g. the session does not exist)
   */
  record(sessionId: string, path: string, before: string | null, after: string): FileVersion[] {
    return this.db
      .transaction(() => {
        const added: FileVersion[] = [];
        const onDisk = before ?? '';
        let latest = this.latest(sessionId, path);
        let next = latest ? versionNumber(latest.version) + 1 : 0;
        const add = (content: string): void => {
          latest = this.insert(sessionId, path, content, next === 0 ? INITIAL : `v${next}`);
          added.push(latest);
          next++;
        };
        if (!latest || latest.content !== onDisk) add(onDisk);
        if (latest!.content !== after) add(after);
        return added;
      })
      .immediate();
  }

  /** Every version of every file of the session, by path, then version order. */
  listBySession(sessionId: string): FileVersion[] {
    return this.db
      .prepare<[string], FileRow>(`SELECT * FROM files WHERE session_id = ? ORDER BY path, ${VERSION_NUMBER}`)
      .all(sessionId)
      .map(toFileVersion);
  }

  /** The versions of one file in the session, oldest first. */
  versions(sessionId: string, path: string): FileVersion[] {
    return this.db
      .prepare<[string, string], FileRow>(
        `SELECT * FROM files WHERE session_id = ? AND path = ? ORDER BY ${VERSION_NUMBER}`,
      )
      .all(sessionId, path)
      .map(toFileVersion);
  }

  /** The latest version of a file in the session, or `undefined` when the session never wrote it. */
  latest(sessionId: string, path: string): FileVersion | undefined {
    const row = this.db
      .prepare<[string, string], FileRow>(
        `SELECT * FROM files WHERE session_id = ? AND path = ? ORDER BY ${VERSION_NUMBER} DESC LIMIT 1`,
      )
      .get(sessionId, path);
    return row && toFileVersion(row);
  }

  /**
   * The files the session changed, by path: lines added and removed from the `initial` version to the
   * latest (line diff, `diff` package). Files whose latest content equals the initial are left out.
   */
  changes(sessionId: string): FileChange[] {
    const byPath = new Map<string, { initial: string; latest: string }>();
    for (const version of this.listBySession(sessionId)) {
      const entry = byPath.get(version.path);
      if (entry) entry.latest = version.content;
      else byPath.set(version.path, { initial: version.content, latest: version.content });
    }
    const changes: FileChange[] = [];
    for (const [path, { initial, latest }] of byPath) {
      if (initial === latest) continue;
      let additions = 0;
      let removals = 0;
      for (const part of diffLines(initial, latest)) {
        if (part.added) additions += part.count;
        else if (part.removed) removals += part.count;
      }
      changes.push({ path, additions, removals });
    }
    return changes;
  }

  private insert(sessionId: string, path: string, content: string, version: string): FileVersion {
    const now = Date.now();
    const row = returnedRow(
      this.db.prepare<[string, string, string, string, string, number, number], FileRow>(
        `INSERT INTO files (id, session_id, path, content, version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ),
      randomUUID(),
      sessionId,
      path,
      content,
      version,
      now,
      now,
    );
    return toFileVersion(row!);
  }
}

function versionNumber(version: string): number {
  return version === INITIAL ? 0 : Number(version.slice(1));
}
