/**
 * A create whose commit fails throws, and stores nothing (the session's count and time stay). Outside a
 * batch a create is one `INSERT … RETURNING seq` (migration 0009) that commits when the statement is
 * reset, after its row was read; better-sqlite3's `get()` ignores what the reset returns, so a commit
 * that failed for a full disk or an I/O error writing the WAL returned a seq for a message SQLite had
 * rolled back — lost without a word, and the next write of it a "message not found". For real: a child
 * process whose file size limit (`ulimit -f`) the message's WAL frames pass, so the commit's write fails
 * with EFBIG (SQLITE_IOERR_WRITE, as a full disk's would with SQLITE_FULL).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/create-past-file-limit.ts', import.meta.url));
/** `ulimit -f` in 1024-byte blocks: more than the WAL of a small message, less than the big one's */
const FILE_LIMIT_KIB = 200;
const BIG_CHARS = 400_000;

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe('a create whose commit fails', () => {
  it('throws the commit error and leaves no message, count or time behind; the next create takes seq 1', () => {
    let dataDir: string;
    ({ dataDir, cleanup } = tempDataDir());
    const setup = openDatabase(dataDir);
    const session = setup.sessions.create({ title: 'limited' });
    setup.connection.prepare('UPDATE sessions SET updated_at = 1000 WHERE id = ?').run(session.id);
    setup.close();

    // Node ignores SIGXFSZ, so a write past the limit fails with EFBIG instead of killing the process
    const script = `ulimit -f ${FILE_LIMIT_KIB} && exec "$0" --import tsx "$@"`;
    const run = spawnSync('sh', ['-c', script, process.execPath, FIXTURE, dataDir, session.id, String(BIG_CHARS)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      big: { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' },
      small: { seq: 1 },
      inTransaction: false,
    });

    const db = openDatabase(dataDir);
    try {
      const messages = db.messages.list(session.id);
      expect(messages.map((m) => [m.seq, m.parts])).toEqual([[1, [{ type: 'text', text: 'hi' }]]]);
      const after = db.sessions.get(session.id)!;
      expect(after.messageCount).toBe(1);
      expect(after.updatedAt).toBe(messages[0]!.createdAt);
    } finally {
      db.close();
    }
  });
});
