/**
 * A message's insert moves its session's `updated_at` through the insert trigger (migration 0009), so a
 * create is one statement: the session's time is the creation time, never earlier than it was (an
 * import keeps the exported time), the message count follows, and a database made before the migration
 * gets the new trigger when it is opened. The session's own writes (rename, usage) never move it back
 * either.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/db/index.js';
import { restoreSessionRows } from '../../src/db/session-restore.js';
import { setSessionUpdatedAt as setUpdatedAt, tempDatabases } from './helpers.js';

const { dir: tempDir, open } = tempDatabases();

describe("a message's insert and its session's time", () => {
  it("create sets the session's updatedAt to the message's creation time and counts the message", () => {
    const db = open();
    const session = db.sessions.create({ title: 't' });
    setUpdatedAt(db, session.id, 1_000);
    const message = db.messages.create({ sessionId: session.id, role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    const after = db.sessions.get(session.id)!;
    expect(after.updatedAt).toBe(message.createdAt);
    expect(after.messageCount).toBe(1);
  });

  it('never moves the time back: a session already later than the message keeps its time', () => {
    const db = open();
    const session = db.sessions.create({ title: 't' });
    const later = Date.now() + 3_600_000;
    setUpdatedAt(db, session.id, later);
    db.messages.create({ sessionId: session.id, role: 'user', parts: [] });
    expect(db.sessions.get(session.id)!.updatedAt).toBe(later);
    expect(db.sessions.get(session.id)!.messageCount).toBe(1);
  });

  it("a rename or usage after the clock went back leaves the session's later time", () => {
    const db = open();
    const session = db.sessions.create({ title: 't' });
    const later = Date.now() + 3_600_000;
    setUpdatedAt(db, session.id, later);
    expect(db.sessions.updateTitle(session.id, 'renamed').updatedAt).toBe(later);
    expect(
      db.sessions.addUsage(session.id, { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, 0.5, 3),
    ).toMatchObject({ updatedAt: later, title: 'renamed', costUsd: 0.5 });
    expect(db.sessions.get(session.id)!.updatedAt).toBe(later);
  });

  it('an import keeps the session time it exported, with messages of earlier times', () => {
    const source = open();
    const session = source.sessions.create({ title: 'exported' });
    const message = source.messages.create({
      sessionId: session.id,
      role: 'user',
      parts: [{ type: 'text', text: 'hi' }],
    });
    setUpdatedAt(source, session.id, message.createdAt + 5_000);
    const exported = source.sessions.get(session.id)!;
    const target = open();
    const { messageCount: _count, ...row } = exported;
    restoreSessionRows(target, {
      sessions: [row],
      messages: [{ ...message, createdAt: message.createdAt - 60_000 }],
      files: [],
    });
    expect(target.sessions.get(session.id)!.updatedAt).toBe(exported.updatedAt);
    expect(target.sessions.get(session.id)!.messageCount).toBe(1);
  });

  it('a database made before migration 0009 gets the new trigger when opened', () => {
    const dir = tempDir();
    const file = join(dir, 'opencode.db');
    const old = new BetterSqlite3(file);
    migrate(
      old,
      file,
      migrations.filter((m) => m.version <= 8),
    );
    old.prepare("INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s1', 'old', 1, 1)").run();
    old.close();
    const db = open(dir);
    const message = db.messages.create({ sessionId: 's1', role: 'user', parts: [] });
    expect(db.sessions.get('s1')).toMatchObject({ updatedAt: message.createdAt, messageCount: 1 });
  });
});
