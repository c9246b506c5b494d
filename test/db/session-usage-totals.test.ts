import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, openDatabase, type Database } from '../../src/db/index.js';
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

describe('session usage', () => {
  it('sums token counts and cost over calls, and keeps only the last context size', () => {
    const session = db.sessions.create({ title: 'usage' });
    db.sessions.addUsage(session.id, { input: 1000, output: 200, cacheWrite: 3000, cacheRead: 0 }, 0.0105, 4200);
    const after = db.sessions.addUsage(
      session.id,
      { input: 50, output: 300, cacheWrite: 0, cacheRead: 4000 },
      0.0057,
      4350,
    );
    expect(after).toMatchObject({
      promptTokens: 1050,
      completionTokens: 500,
      cacheWriteTokens: 3000,
      cacheReadTokens: 4000,
      contextTokens: 4350,
    });
    expect(after.costUsd).toBeCloseTo(0.0162, 10);
    expect(db.sessions.get(session.id)).toEqual(after);
  });

  it('starts every total at zero', () => {
    const session = db.sessions.create({ title: 'fresh', id: 'fixed-id' });
    expect(session).toEqual({
      id: 'fixed-id',
      title: 'fresh',
      messageCount: 0,
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      contextTokens: 0,
      costUsd: 0,
      createdAt: session.createdAt,
      updatedAt: session.createdAt,
    });
    expect(session.createdAt).toBeGreaterThan(1_600_000_000_000); // milliseconds, not seconds
  });

  it('rejects negative counts and unknown sessions', () => {
    const session = db.sessions.create({ title: 'x' });
    expect(() => db.sessions.addUsage(session.id, { input: -1, output: 0, cacheWrite: 0, cacheRead: 0 }, 0, 0)).toThrow(
      /CHECK constraint failed/,
    );
    expect(db.sessions.get(session.id)?.promptTokens).toBe(0);
    expect(() => db.sessions.addUsage('nope', { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 }, 0, 0)).toThrow(
      NotFoundError,
    );
  });
});

describe('session listing and titles', () => {
  it('lists top-level sessions newest first and children oldest first', () => {
    const a = db.sessions.create({ title: 'a' });
    const b = db.sessions.create({ title: 'b' });
    const c = db.sessions.create({ title: 'c' });
    db.sessions.create({ title: 'task 1', parentSessionId: b.id, id: 'toolu_1' });
    db.sessions.create({ title: 'task 2', parentSessionId: b.id, id: 'toolu_2' });
    expect(db.sessions.list().map((s) => s.title)).toEqual(['c', 'b', 'a']);
    expect(db.sessions.listChildren(b.id).map((s) => [s.id, s.parentSessionId])).toEqual([
      ['toolu_1', b.id],
      ['toolu_2', b.id],
    ]);
    expect(db.sessions.listChildren(a.id)).toEqual([]);
    expect(db.sessions.updateTitle(c.id, 'renamed').title).toBe('renamed');
    expect(db.sessions.get(c.id)?.title).toBe('renamed');
    expect(() => db.sessions.updateTitle('nope', 'x')).toThrow('session nope not found');
  });

  it('refuses a duplicate id and a missing parent', () => {
    db.sessions.create({ title: 'one', id: 'same' });
    expect(() => db.sessions.create({ title: 'two', id: 'same' })).toThrow(/UNIQUE constraint failed: sessions.id/);
    expect(() => db.sessions.create({ title: 'orphan', parentSessionId: 'ghost' })).toThrow(
      /FOREIGN KEY constraint failed/,
    );
  });

  it('gives random UUIDs by default', () => {
    const ids = new Set(Array.from({ length: 20 }, () => db.sessions.create({ title: 't' }).id));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
