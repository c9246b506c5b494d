/**
 * Issue 14: which session the TUI reopens. Migration 0004 adds `sessions.tui_used_at`; a database
 * from before it counts its top-level sessions that are not `-p` runs as used in the TUI when last
 * updated. The store finds the last one used there, the latest of any kind (`--continue`), and
 * sessions by id prefix. Real SQLite files.
 */
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, migrations, openDatabase } from '../../src/db/index.js';
import { prepareDataDir } from '../../src/db/data-dir.js';
import { findSession, SessionLookupError } from '../../src/cli/session-ref.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
beforeEach(() => ({ dataDir, cleanup } = tempDataDir()));
afterEach(() => cleanup());

describe('migration 0004 (sessions.tui_used_at)', () => {
  it('counts the existing TUI sessions as used there when last updated; -p runs and sub-agent sessions not', () => {
    prepareDataDir(dataDir);
    const file = path.join(dataDir, 'opencode.db');
    const before = new BetterSqlite3(file);
    migrate(before, file, migrations.slice(0, 3));
    const insert = before.prepare(
      'INSERT INTO sessions (id, parent_session_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    insert.run('tui-old', null, 'Fix the build', 1_000, 5_000);
    insert.run('tui-new', null, 'New Session', 2_000, 6_000);
    insert.run('task', 'tui-new', 'Task: look around', 2_500, 9_000);
    insert.run('p-run', null, 'Non-interactive: explain the build', 3_000, 8_000);
    before.close();

    const db = openDatabase(dataDir);
    try {
      const rows = db.connection.prepare('SELECT id, tui_used_at FROM sessions ORDER BY id').all();
      expect(rows).toEqual([
        { id: 'p-run', tui_used_at: null },
        { id: 'task', tui_used_at: null },
        { id: 'tui-new', tui_used_at: 6_000 },
        { id: 'tui-old', tui_used_at: 5_000 },
      ]);
      // the TUI reopens the last TUI session, not the later -p run; --continue takes the latest top-level one
      expect(db.sessions.lastUsedInTui()?.id).toBe('tui-new');
      expect(db.sessions.latest()?.id).toBe('p-run');
      expect(db.sessions.get('tui-old')?.tuiUsedAt).toBe(5_000);
      expect(db.sessions.get('p-run')?.tuiUsedAt).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('SessionStore: TUI use and lookups', () => {
  it('markUsedInTui makes a session the one the TUI reopens, without changing its updatedAt', () => {
    const db = openDatabase(dataDir);
    try {
      const a = db.sessions.create({ title: 'A' });
      const b = db.sessions.create({ title: 'Non-interactive: b' });
      expect(db.sessions.lastUsedInTui()).toBeUndefined();
      db.sessions.markUsedInTui(b.id, 10_000);
      db.sessions.markUsedInTui(a.id, 20_000);
      expect(db.sessions.lastUsedInTui()?.id).toBe(a.id);
      db.sessions.markUsedInTui(b.id, 30_000);
      expect(db.sessions.lastUsedInTui()?.id).toBe(b.id);
      expect(db.sessions.get(b.id)?.updatedAt).toBe(b.updatedAt);
      expect(() => db.sessions.markUsedInTui('missing')).toThrow('session missing not found');
    } finally {
      db.close();
    }
  });

  it('findSession takes a whole id or a unique prefix; an unknown or ambiguous one says what to do', () => {
    const db = openDatabase(dataDir);
    try {
      for (const id of ['abc111', 'abc222', 'abd333', 'ab']) db.sessions.create({ id, title: id });
      expect(findSession(db, 'abc1').id).toBe('abc111');
      expect(findSession(db, ' abd ').id).toBe('abd333');
      // a whole id wins over being the prefix of others
      expect(findSession(db, 'ab').id).toBe('ab');
      expect(() => findSession(db, 'abc')).toThrow(
        new SessionLookupError('session id abc is ambiguous: it starts abc111, abc222; give more of the id'),
      );
      expect(() => findSession(db, 'zz')).toThrow(
        new SessionLookupError('no session zz; `opencode sessions list` shows them'),
      );
      expect(() => findSession(db, '  ')).toThrow(
        new SessionLookupError('the session id is empty; `opencode sessions list` shows them'),
      );
      // LIKE wildcards in what was typed are plain characters
      expect(() => findSession(db, 'a%')).toThrow(
        new SessionLookupError('no session a%; `opencode sessions list` shows them'),
      );
    } finally {
      db.close();
    }
  });
});
