/**
 * A session write whose commit fails throws and leaves the session as it was. `SessionStore.create` and
 * its updates (rename, usage, summary) are one statement with `RETURNING`, which outside a transaction
 * commits as it is reset; read with better-sqlite3's `get()`, a commit that failed (a full disk, an I/O
 * error writing the WAL) handed back a session SQLite had rolled back (src/db/returning.ts). For real: a
 * child process whose file size limit (`ulimit -f`) the write's WAL frames pass (EFBIG).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/session-writes-past-file-limit.ts', import.meta.url));
/** `ulimit -f` in 1024-byte blocks: less than the WAL frames of a 400,000-character title */
const FILE_LIMIT_KIB = 200;
const BIG_CHARS = 400_000;

let cleanup: () => void = () => {};
afterEach(() => cleanup());

describe('a session write whose commit fails', () => {
  it('create and rename throw the commit error; no session is made and the title stays', () => {
    let dataDir: string;
    ({ dataDir, cleanup } = tempDataDir());
    const setup = openDatabase(dataDir);
    const session = setup.sessions.create({ title: 'before' });
    setup.close();

    // Node ignores SIGXFSZ, so a write past the limit fails with EFBIG instead of killing the process
    const script = `ulimit -f ${FILE_LIMIT_KIB} && exec "$0" --import tsx "$@"`;
    const run = spawnSync('sh', ['-c', script, process.execPath, FIXTURE, dataDir, session.id, String(BIG_CHARS)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    const failed = { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' };
    expect(JSON.parse(run.stdout)).toEqual({ create: failed, rename: failed, inTransaction: false });

    const db = openDatabase(dataDir);
    try {
      expect(db.sessions.get('big-session')).toBeUndefined();
      expect(db.sessions.get(session.id)).toEqual(session);
    } finally {
      db.close();
    }
  });
});
