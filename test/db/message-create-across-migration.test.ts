/**
 * Migration 0009 replaces the insert trigger that counts a session's messages while other processes
 * write: one still running the build before it (its create a transaction of the INSERT and the
 * session's UPDATE, on a connection opened at schema 8) keeps creating while three connections of this
 * build open the file — migrating it, or waiting for whoever does — and create in the same session.
 * Every message is counted exactly once (by the old trigger or the new one, never both or neither), the
 * seqs are distinct and gapless, and the session's time is its last message's.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations, openDatabase } from '../../src/db/index.js';
import { startFixture, startWriter, tempDataDir } from './helpers.js';

const SESSION = 's1';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

/** The schema-8 writer (fixtures/schema8-writer.ts): `stop()` resolves with its seqs. */
function startSchema8Writer(file: string) {
  const writer = startFixture('schema8-writer.ts', [file, SESSION]);
  return {
    ready: writer.ready,
    go: writer.go,
    stop: () => {
      writer.send('stop');
      return writer.done.then((rest) => rest.split(',').map(Number));
    },
  };
}

describe('creates across migration 0009', () => {
  it('a schema-8 process writing while three connections migrate and write: each message counted once, seqs gapless', async () => {
    let dataDir: string;
    ({ dataDir, cleanup } = tempDataDir());
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'opencode.db');
    const setup = new BetterSqlite3(file);
    setup.pragma('journal_mode = WAL');
    expect(
      migrate(
        setup,
        file,
        migrations.filter((m) => m.version <= 8),
      ),
    ).toBe(8);
    setup
      .prepare(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('${SESSION}', 'shared', 1, 1)`)
      .run();

    const old = startSchema8Writer(file);
    await old.ready;
    old.go();
    // the old process has written at schema 8 before anyone migrates
    const count = setup.prepare<[], number>('SELECT count(*) FROM messages').pluck();
    while (count.get()! < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(setup.pragma('user_version', { simple: true })).toBe(8);
    setup.close();

    const writers = [startWriter(dataDir, SESSION, 200), startWriter(dataDir, SESSION, 200)];
    const db = openDatabase(dataDir);
    try {
      await Promise.all(writers.map((w) => w.ready));
      writers.forEach((w) => w.go());
      const mine: number[] = [];
      for (let i = 0; i < 200; i++) {
        mine.push(db.messages.create({ sessionId: SESSION, role: 'user', parts: [] }).seq);
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const theirs = (await Promise.all(writers.map((w) => w.done))).flatMap((r) => r.seqs);
      const olds = await old.stop();
      // the old process wrote after the migration too: after this build's first create
      expect(Math.max(...olds)).toBeGreaterThan(Math.min(...mine, ...theirs));

      const last = db.messages.create({ sessionId: SESSION, role: 'user', parts: [] });
      const all = [...olds, ...mine, ...theirs, last.seq].sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: olds.length + 601 }, (_, i) => i + 1));
      expect(db.messages.list(SESSION).map((m) => m.seq)).toEqual(all);
      expect(db.sessions.get(SESSION)).toMatchObject({ messageCount: all.length, updatedAt: last.createdAt });
      expect(db.connection.pragma('user_version', { simple: true })).toBe(migrations[migrations.length - 1]!.version);
    } finally {
      db.close();
    }
  }, 60_000);
});
