/**
 * The `turn_changes` table (migration 0005): per turn and path, the exact bytes and mode
 * before the turn's first write and after its last, and whether undo put the before state back. The
 * undo itself (disk checks, writes) is `src/undo/`; this module only stores and finds rows.
 *
 * A turn is the person's message that started it: the last user message at or before the assistant
 * message whose tool wrote (notes opencode adds, such as the undo note, never start a turn).
 */
import type BetterSqlite3 from 'better-sqlite3';

/** A file's state at one moment: absent is `null` where this is used. */
export interface FileSnapshot {
  bytes: Uint8Array;
  /** permission bits (`st_mode & 0o7777`) */
  mode: number;
  /** set when the path itself is a symbolic link with this target text (the bytes are what it leads to) */
  linkTarget?: string;
  /**
   * set when the state is the symbolic link itself (recorded from a snapshot, migration 0008): `bytes`
   * is its raw target text and `linkTarget` the same as a string; undo compares and re-creates the
   * link, never following it
   */
  symlink?: true;
  /**
   * set when the content is not in `bytes` (empty) but in the git directory `repo` (the snapshot
   * repository) as blob `id` of `size` bytes: a file too large to copy into the database
   */
  blob?: { repo: string; id: string; size: number };
}

/** The exact states of one write, for undo: what was at the path before and after it. */
export interface FileWriteBytes {
  /** the assistant message holding the tool call: its turn is the person's message before it */
  messageId: string;
  /** `null`: nothing was at the path */
  before: FileSnapshot | null;
  /** `null`: the write removed the path */
  after: FileSnapshot | null;
}

/** Where a recorded change stands: see migration 0005. */
export type TurnChangeState = 'done' | 'undone' | 'skipped' | 'dropped';

/** One file's change in one turn. */
export interface TurnChange {
  /** row id */
  id: number;
  sessionId: string;
  /** the user message that started the turn */
  turnId: string;
  /** absolute path (a name that is not UTF-8 has replacement characters: `pathBytes` names the file) */
  path: string;
  /** the absolute path as raw bytes, when it is not UTF-8 */
  pathBytes?: Buffer;
  /** `null`: the turn created the file */
  before: FileSnapshot | null;
  /** `null`: the turn removed the file */
  after: FileSnapshot | null;
  state: TurnChangeState;
}

/** A turn with the changes that matter for an undo or redo, oldest path first. */
export interface TurnChanges {
  turnId: string;
  /** the turn's place in the session (its user message's `seq`) */
  turnSeq: number;
  changes: TurnChange[];
}

/** A write to record: the tool's call is in `messageId` (an assistant message of `sessionId`). */
export interface RecordedWrite {
  sessionId: string;
  messageId: string;
  path: string;
  /** the absolute path as raw bytes, when it is not UTF-8 (`path` is then only for people) */
  pathBytes?: Buffer;
  before: FileSnapshot | null;
  after: FileSnapshot | null;
}

interface ChangeRow {
  id: number;
  session_id: string;
  turn_id: string;
  turn_seq: number;
  path: string;
  before_bytes: Buffer | null;
  before_mode: number | null;
  before_link: string | null;
  after_bytes: Buffer | null;
  after_mode: number | null;
  state: TurnChangeState;
  path_bytes: Buffer | null;
  before_kind: StateKind | null;
  after_kind: StateKind | null;
  blob_repo: string | null;
}

/** How a state is stored beside its bytes (migration 0008); `null`: a file whose bytes are stored. */
type StateKind = 'link' | 'blob';

function snapshot(
  bytes: Buffer | null,
  mode: number | null,
  link: string | null,
  kind: StateKind | null,
  repo: string | null,
): FileSnapshot | null {
  if (bytes === null) return null;
  if (kind === 'link') return { bytes, mode: mode ?? 0o777, linkTarget: bytes.toString('utf8'), symlink: true };
  if (kind === 'blob') {
    const [id, size] = bytes.toString('latin1').split(' ');
    return {
      bytes: Buffer.alloc(0),
      mode: mode ?? 0o644,
      blob: { repo: repo ?? '', id: id ?? '', size: Number(size) },
    };
  }
  return { bytes, mode: mode ?? 0o644, ...(link !== null ? { linkTarget: link } : {}) };
}

function toChange(row: ChangeRow): TurnChange {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    path: row.path_bytes ? row.path_bytes.toString('utf8') : row.path,
    ...(row.path_bytes ? { pathBytes: row.path_bytes } : {}),
    before: snapshot(row.before_bytes, row.before_mode, row.before_link, row.before_kind, row.blob_repo),
    after: snapshot(row.after_bytes, row.after_mode, null, row.after_kind, row.blob_repo),
    state: row.state,
  };
}

/** The stored bytes and kind of a state (see migration 0008). */
function stored(state: FileSnapshot | null): { bytes: Buffer | null; kind: StateKind | null } {
  if (state === null) return { bytes: null, kind: null };
  if (state.blob) return { bytes: Buffer.from(`${state.blob.id} ${state.blob.size}`, 'latin1'), kind: 'blob' };
  return { bytes: Buffer.from(state.bytes), kind: state.symlink ? 'link' : null };
}

// a user message that is not a note opencode wrote (the undo note's text part carries `note`)
const PERSON_MESSAGE = `role = 'user' AND json_extract(parts, '$[0].note') IS NULL`;

/** Reads and writes `turn_changes`. Every method is synchronous and throws when SQLite fails. */
export class TurnChangeStore {
  constructor(private readonly db: BetterSqlite3.Database) {}

  /**
   * Records one write. The first write of a path in a turn keeps its `before`; later ones only replace
   * `after`. A write in a session that has undone turns drops them: redo no longer applies once the
   * files moved on. Returns false (and stores nothing) when no person's message precedes `messageId`
   * in the session (a write outside any turn cannot be undone by turn).
   */
  record(write: RecordedWrite): boolean {
    return this.db
      .transaction(() => {
        const turn = this.turnOf(write.sessionId, write.messageId);
        if (!turn) return false;
        const now = Date.now();
        const before = stored(write.before);
        const after = stored(write.after);
        this.db
          .prepare(
            `UPDATE turn_changes SET state = 'dropped', updated_at = ? WHERE session_id = ? AND state IN ('undone', 'skipped')`,
          )
          .run(now, write.sessionId);
        this.db
          .prepare(
            `INSERT INTO turn_changes (session_id, turn_id, turn_seq, path, path_bytes, before_bytes, before_mode, before_link, before_kind,
                                       after_bytes, after_mode, after_kind, blob_repo, state, created_at, updated_at)
             VALUES (@sessionId, @turnId, @turnSeq, @path, @pathBytes, @beforeBytes, @beforeMode, @beforeLink, @beforeKind,
                     @afterBytes, @afterMode, @afterKind, @blobRepo, 'done', @now, @now)
             ON CONFLICT (turn_id, path) DO UPDATE SET after_bytes = excluded.after_bytes, after_mode = excluded.after_mode,
               after_kind = excluded.after_kind, blob_repo = coalesce(excluded.blob_repo, blob_repo),
               state = 'done', updated_at = excluded.updated_at`,
          )
          .run({
            sessionId: write.sessionId,
            turnId: turn.id,
            turnSeq: turn.seq,
            // a name that is not UTF-8: a key no absolute path can equal (migration 0008)
            path: write.pathBytes ? `raw:${write.pathBytes.toString('hex')}` : write.path,
            pathBytes: write.pathBytes ?? null,
            beforeBytes: before.bytes,
            beforeMode: write.before?.mode ?? null,
            beforeLink: write.before && !write.before.symlink ? (write.before.linkTarget ?? null) : null,
            beforeKind: before.kind,
            afterBytes: after.bytes,
            afterMode: write.after?.mode ?? null,
            afterKind: after.kind,
            blobRepo: write.before?.blob?.repo ?? write.after?.blob?.repo ?? null,
            now,
          });
        return true;
      })
      .immediate();
  }

  /** The latest turn of the session with changes still `done` (what undo takes back), or undefined. */
  lastDone(sessionId: string): TurnChanges | undefined {
    return this.turnWith(sessionId, `state = 'done'`, 'DESC', ['done']);
  }

  /** The turn undone most recently (what redo puts back): the earliest with undone or skipped rows. */
  lastUndone(sessionId: string): TurnChanges | undefined {
    return this.turnWith(sessionId, `state IN ('undone', 'skipped')`, 'ASC', ['undone', 'skipped']);
  }

  /**
   * Sets the state of rows by id, in one `BEGIN IMMEDIATE` transaction: the write lock is taken (waiting
   * up to the busy timeout for another process's writer) before anything is read, as every write
   * transaction of the stores does, so no other process's commit can come between its reads and writes.
   */
  setStates(updates: readonly { id: number; state: TurnChangeState }[]): void {
    const statement = this.db.prepare<[TurnChangeState, number, number]>(
      'UPDATE turn_changes SET state = ?, updated_at = ? WHERE id = ?',
    );
    const now = Date.now();
    this.db
      .transaction(() => {
        for (const { id, state } of updates) statement.run(state, now, id);
      })
      .immediate();
  }

  /** Every row of the session, by turn, then path (tests, diagnostics). */
  list(sessionId: string): TurnChange[] {
    return this.db
      .prepare<[string], ChangeRow>('SELECT * FROM turn_changes WHERE session_id = ? ORDER BY turn_seq, path')
      .all(sessionId)
      .map(toChange);
  }

  private turnWith(
    sessionId: string,
    where: string,
    order: 'ASC' | 'DESC',
    states: TurnChangeState[],
  ): TurnChanges | undefined {
    const turn = this.db
      .prepare<[string], { turn_id: string; turn_seq: number }>(
        `SELECT turn_id, turn_seq FROM turn_changes WHERE session_id = ? AND ${where} ORDER BY turn_seq ${order} LIMIT 1`,
      )
      .get(sessionId);
    if (!turn) return undefined;
    const changes = this.db
      .prepare<[string], ChangeRow>('SELECT * FROM turn_changes WHERE turn_id = ? ORDER BY path')
      .all(turn.turn_id)
      .map(toChange)
      .filter((c) => states.includes(c.state));
    return { turnId: turn.turn_id, turnSeq: turn.turn_seq, changes };
  }

  /** The person's message that started the turn holding `messageId`; the latest one when the id is unknown. */
  private turnOf(sessionId: string, messageId: string): { id: string; seq: number } | undefined {
    const at = this.db
      .prepare<[string, string], { seq: number }>('SELECT seq FROM messages WHERE id = ? AND session_id = ?')
      .get(messageId, sessionId);
    return this.db
      .prepare<[string, number], { id: string; seq: number }>(
        `SELECT id, seq FROM messages WHERE session_id = ? AND seq <= ? AND ${PERSON_MESSAGE} ORDER BY seq DESC LIMIT 1`,
      )
      .get(sessionId, at?.seq ?? Number.MAX_SAFE_INTEGER);
  }
}
