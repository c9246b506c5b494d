import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

let cleanup: () => void;
let db: Database;
beforeEach(() => {
  let dataDir: string;
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
});
afterEach(() => {
  db.close();
  cleanup();
});

const count = (table: string) => (db.connection.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('deleting', () => {
  it('a session deletes its messages, file history and sub-sessions, and nothing else', () => {
    const doomed = db.sessions.create({ title: 'doomed' });
    const child = db.sessions.create({ title: 'task', parentSessionId: doomed.id });
    const kept = db.sessions.create({ title: 'kept' });
    for (const s of [doomed, child, kept]) {
      db.messages.create({ sessionId: s.id, role: 'user', parts: [{ type: 'text', text: 'hi' }] });
      db.files.record(s.id, '/p/a.ts', 'old', 'new');
    }
    expect([count('sessions'), count('messages'), count('files')]).toEqual([3, 3, 6]);

    db.sessions.delete(doomed.id);
    expect(db.sessions.get(doomed.id)).toBeUndefined();
    expect(db.sessions.get(child.id)).toBeUndefined();
    expect([count('sessions'), count('messages'), count('files')]).toEqual([1, 1, 2]);
    expect(db.messages.list(kept.id)).toHaveLength(1);
    expect(db.files.listBySession(kept.id).map((f) => f.version)).toEqual(['initial', 'v1']);
    expect(() => db.sessions.delete(doomed.id)).toThrow('session');
  });

  it('a message keeps message_count right and clears the summary pointing at it', () => {
    const session = db.sessions.create({ title: 's' });
    const first = db.messages.create({ sessionId: session.id, role: 'user', parts: [] });
    const summary = db.messages.create({
      sessionId: session.id,
      role: 'assistant',
      parts: [{ type: 'text', text: 'summary' }],
    });
    expect(db.sessions.setSummaryMessage(session.id, summary.id).summaryMessageId).toBe(summary.id);
    expect(db.sessions.get(session.id)?.messageCount).toBe(2);

    db.messages.delete(summary.id);
    expect(db.sessions.get(session.id)?.messageCount).toBe(1);
    expect(db.sessions.get(session.id)?.summaryMessageId).toBeUndefined();
    expect(db.messages.list(session.id).map((m) => m.id)).toEqual([first.id]);
    expect(() => db.messages.delete(summary.id)).toThrow(`message ${summary.id} not found`);
    expect(() => db.sessions.setSummaryMessage(session.id, 'no-such-message')).toThrow(/FOREIGN KEY constraint failed/);
  });
});
