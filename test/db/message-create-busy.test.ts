/**
 * A create outside a batch is one `INSERT` in its own transaction (migration 0009), which takes the
 * write lock when it starts. While another process holds the lock, it waits up to busy_timeout (5000 ms):
 * held longer, it throws SQLITE_BUSY and leaves nothing — no message, no count, no time, no transaction
 * left open on the connection, the next create takes seq 1; released in time, it succeeds once the other
 * process's write is committed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

const HOLDER = fileURLToPath(new URL('./fixtures/write-lock-holder.ts', import.meta.url));

let db: Database | undefined;
let cleanup: () => void = () => {};
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  db?.close();
  db = undefined;
  cleanup();
});

/** Starts the holder; resolves once it holds the lock, with a promise of its exit code. */
async function holdLock(
  file: string,
  sessionId: string,
  hold: number | 'stdin',
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, file, sessionId, String(hold)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) =>
      chunk.toString() === 'held\n' ? resolve() : reject(new Error(chunk.toString())),
    );
    child.once('exit', (code) => reject(new Error(`holder exited ${code} before holding the lock`)));
  });
  return { child, exited };
}

function openWithSession(): { db: Database; sessionId: string } {
  let dataDir: string;
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
  const session = db.sessions.create({ title: 'busy' });
  db.connection.prepare('UPDATE sessions SET updated_at = 1000 WHERE id = ?').run(session.id);
  return { db, sessionId: session.id };
}

describe('a create while another process holds the write lock', () => {
  it('held past busy_timeout: throws SQLITE_BUSY and leaves nothing; the next create takes seq 1', async () => {
    const { db, sessionId } = openWithSession();
    const holder = await holdLock(db.path, sessionId, 'stdin');

    let error: unknown;
    try {
      db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'first' }] });
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'SQLITE_BUSY', message: 'database is locked' });
    expect(db.connection.inTransaction).toBe(false);

    holder.child.stdin!.write('release\n');
    expect(await holder.exited).toBe(0);
    expect(db.messages.list(sessionId)).toEqual([]);
    expect(db.sessions.get(sessionId)).toMatchObject({ title: 'held', messageCount: 0, updatedAt: 1000 });

    const next = db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'again' }] });
    expect(next.seq).toBe(1);
    expect(db.sessions.get(sessionId)).toMatchObject({ messageCount: 1, updatedAt: next.createdAt });
  }, 30_000);

  it('released within busy_timeout: the create waits for it and succeeds after the other write', async () => {
    const { db, sessionId } = openWithSession();
    // 1000 ms, well inside the 5000 ms the create waits
    const holder = await holdLock(db.path, sessionId, 1000);

    const message = db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'waited' }] });
    expect(await holder.exited).toBe(0);
    expect(message.seq).toBe(1);
    expect(db.messages.list(sessionId).map((m) => m.seq)).toEqual([1]);
    expect(db.sessions.get(sessionId)).toMatchObject({ title: 'held', messageCount: 1, updatedAt: message.createdAt });
  }, 30_000);
});
