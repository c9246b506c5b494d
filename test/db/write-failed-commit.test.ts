/**
 * A write whose commit fails throws, and stores nothing. A message's create (one `INSERT … RETURNING seq`
 * since migration 0009) and a session's create and updates (`… RETURNING *`) commit outside a batch when
 * the statement is reset, after its row was read; better-sqlite3's `get()` ignores what the reset returns,
 * so a commit that failed for a full disk or an I/O error writing the WAL handed back a message or session
 * SQLite had rolled back (src/db/returning.ts) — a message lost without a word, and the next write of it a
 * "message not found". For real: a child process whose file size limit (`ulimit -f`) the write's WAL
 * frames pass, so the commit's write fails with EFBIG (SQLITE_IOERR_WRITE, as a full disk's would with
 * SQLITE_FULL).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

/** `ulimit -f` in 1024-byte blocks: more than the WAL of a small write, less than a big one's */
const FILE_LIMIT_KIB = 200;
const BIG_CHARS = 400_000;
const FAILED = { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' };

let cleanup: () => void = () => {};
afterEach(() => cleanup());

/** A data directory with one session whose `updated_at` is 1000; the database closed again. */
function dataDirWithSession(): { dataDir: string; sessionId: string } {
  let dataDir: string;
  ({ dataDir, cleanup } = tempDataDir());
  const setup = openDatabase(dataDir);
  const sessionId = setup.sessions.create({ title: 'before' }).id;
  setup.connection.prepare('UPDATE sessions SET updated_at = 1000 WHERE id = ?').run(sessionId);
  setup.close();
  return { dataDir, sessionId };
}

/** Runs `fixture` (test/db/fixtures) under the file size limit with `args`; its one JSON line of stdout. */
function pastFileLimit(fixture: string, ...args: string[]): unknown {
  const file = fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url));
  // Node ignores SIGXFSZ, so a write past the limit fails with EFBIG instead of killing the process
  const script = `ulimit -f ${FILE_LIMIT_KIB} && exec "$0" --import tsx "$@"`;
  const run = spawnSync('sh', ['-c', script, process.execPath, file, ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

function reopened<T>(dataDir: string, read: (db: Database) => T): T {
  const db = openDatabase(dataDir);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('a write whose commit fails', () => {
  it("a message's create throws the commit error and leaves no message, count or time behind; the next create takes seq 1", () => {
    const { dataDir, sessionId } = dataDirWithSession();
    expect(pastFileLimit('create-past-file-limit.ts', dataDir, sessionId, String(BIG_CHARS))).toEqual({
      big: FAILED,
      small: { seq: 1 },
      inTransaction: false,
    });
    reopened(dataDir, (db) => {
      const messages = db.messages.list(sessionId);
      expect(messages.map((m) => [m.seq, m.parts])).toEqual([[1, [{ type: 'text', text: 'hi' }]]]);
      expect(db.sessions.get(sessionId)).toMatchObject({ messageCount: 1, updatedAt: messages[0]!.createdAt });
    });
  });

  it("a session's create and rename throw the commit error; no session is made and the title stays", () => {
    const { dataDir, sessionId } = dataDirWithSession();
    const before = reopened(dataDir, (db) => db.sessions.get(sessionId));
    expect(pastFileLimit('session-writes-past-file-limit.ts', dataDir, sessionId, String(BIG_CHARS))).toEqual({
      create: FAILED,
      rename: FAILED,
      inTransaction: false,
    });
    reopened(dataDir, (db) => {
      expect(db.sessions.get('big-session')).toBeUndefined();
      expect(db.sessions.get(sessionId)).toEqual(before);
    });
  });
});
