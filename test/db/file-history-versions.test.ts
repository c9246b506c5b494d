import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import type { FileHistory } from '../../src/tools/file-history.js';
import { tempDataDir } from './helpers.js';

let dataDir: string;
let cleanup: () => void;
let db: Database;
let sessionId: string;
const FILE = '/project/src/app.ts';

beforeEach(() => {
  ({ dataDir, cleanup } = tempDataDir());
  db = openDatabase(dataDir);
  sessionId = db.sessions.create({ title: 'edits' }).id;
});
afterEach(() => {
  db.close();
  cleanup();
});

const history = (path = FILE) => db.files.versions(sessionId, path).map((v) => [v.version, v.content]);

describe('file history', () => {
  it('stores an empty initial version for a created file, then each write as v1, v2, …', () => {
    const store: FileHistory = db.files;
    store.recordWrite(sessionId, FILE, null, 'a\nb\n');
    store.recordWrite(sessionId, FILE, 'a\nb\n', 'a\nb\nc\n');
    expect(history()).toEqual([
      ['initial', ''],
      ['v1', 'a\nb\n'],
      ['v2', 'a\nb\nc\n'],
    ]);
    expect(db.files.latest(sessionId, FILE)?.content).toBe('a\nb\nc\n');
  });

  it('stores the pre-edit content as initial for an existing file', () => {
    expect(db.files.record(sessionId, FILE, 'old\n', 'new\n').map((v) => v.version)).toEqual(['initial', 'v1']);
    expect(history()).toEqual([
      ['initial', 'old\n'],
      ['v1', 'new\n'],
    ]);
  });

  it('stores a hand edit made between two writes as its own version first', () => {
    db.files.recordWrite(sessionId, FILE, 'one\n', 'one\ntwo\n');
    // the person edited the file in their editor: the disk no longer matches v1
    db.files.recordWrite(sessionId, FILE, 'ONE\ntwo\n', 'ONE\ntwo\nthree\n');
    expect(history()).toEqual([
      ['initial', 'one\n'],
      ['v1', 'one\ntwo\n'],
      ['v2', 'ONE\ntwo\n'],
      ['v3', 'ONE\ntwo\nthree\n'],
    ]);
  });

  it('stores the remaining text when content is deleted, and an empty version when the file is deleted', () => {
    db.files.recordWrite(sessionId, FILE, 'keep\ndrop\nkeep too\n', 'keep\nkeep too\n');
    db.files.recordWrite(sessionId, FILE, 'keep\nkeep too\n', '');
    expect(history()).toEqual([
      ['initial', 'keep\ndrop\nkeep too\n'],
      ['v1', 'keep\nkeep too\n'],
      ['v2', ''],
    ]);
    // recreated after deletion: the disk (absent) matches the empty version, so no intermediate version
    db.files.recordWrite(sessionId, FILE, null, 'back\n');
    expect(history().slice(3)).toEqual([['v3', 'back\n']]);
  });

  it('stores no new version when the write changes nothing', () => {
    db.files.recordWrite(sessionId, FILE, 'same\n', 'same\n');
    db.files.recordWrite(sessionId, FILE, 'same\n', 'same\n');
    expect(history()).toEqual([['initial', 'same\n']]);
    expect(db.files.changes(sessionId)).toEqual([]);
  });

  it('orders versions by number, not by name or time (v10 after v9)', () => {
    let content = '';
    for (let i = 1; i <= 11; i++) {
      const next = `${content}line ${i}\n`;
      db.files.recordWrite(sessionId, FILE, content || null, next);
      content = next;
    }
    expect(db.files.versions(sessionId, FILE).map((v) => v.version)).toEqual([
      'initial',
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
      'v6',
      'v7',
      'v8',
      'v9',
      'v10',
      'v11',
    ]);
    expect(db.files.latest(sessionId, FILE)?.version).toBe('v11');
  });

  it('keeps sessions apart and reports changes per file, initial against latest, by lines', () => {
    const other = db.sessions.create({ title: 'other' }).id;
    db.files.recordWrite(sessionId, '/p/b.ts', 'x\ny\nz\n', 'x\nY\nz\nw\n');
    db.files.recordWrite(sessionId, '/p/b.ts', 'x\nY\nz\nw\n', 'x\nY\nz\nw\nv\n');
    db.files.recordWrite(sessionId, '/p/a.ts', null, 'new\nfile\n');
    db.files.recordWrite(sessionId, '/p/gone.ts', 'one\ntwo\nthree\n', '');
    db.files.recordWrite(other, '/p/a.ts', 'other\n', 'other session\n');

    expect(db.files.changes(sessionId)).toEqual([
      { path: '/p/a.ts', additions: 2, removals: 0 },
      { path: '/p/b.ts', additions: 3, removals: 1 },
      { path: '/p/gone.ts', additions: 0, removals: 3 },
    ]);
    expect(db.files.changes(other)).toEqual([{ path: '/p/a.ts', additions: 1, removals: 1 }]);
    expect(db.files.listBySession(sessionId).map((v) => `${v.path}@${v.version}`)).toEqual([
      '/p/a.ts@initial',
      '/p/a.ts@v1',
      '/p/b.ts@initial',
      '/p/b.ts@v1',
      '/p/b.ts@v2',
      '/p/gone.ts@initial',
      '/p/gone.ts@v1',
    ]);
    expect(db.files.latest(other, '/p/b.ts')).toBeUndefined();
  });

  it('reports a storage failure to onError instead of failing the tool write', () => {
    const errors: string[] = [];
    const other = openDatabase(dataDir, { onFileHistoryError: (err) => errors.push((err as Error).message) });
    expect(() => other.files.recordWrite('no-such-session', FILE, null, 'x')).not.toThrow();
    expect(errors).toEqual(['FOREIGN KEY constraint failed']);
    expect(() => other.files.record('no-such-session', FILE, null, 'x')).toThrow('FOREIGN KEY constraint failed');
    other.close();
  });

  it('numbers versions without clashes when two connections write the same file', () => {
    const second = openDatabase(dataDir);
    let content = 'start\n';
    for (let i = 0; i < 10; i++) {
      const next = `${content}${i}\n`;
      (i % 2 ? second : db).files.recordWrite(sessionId, FILE, content, next);
      content = next;
    }
    second.close();
    expect(db.files.versions(sessionId, FILE).map((v) => v.version)).toEqual([
      'initial',
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
      'v6',
      'v7',
      'v8',
      'v9',
      'v10',
    ]);
    expect(db.files.latest(sessionId, FILE)?.content).toBe(content);
  });
});
