/**
 * The turn_changes table (migration 0005) through the file store: a write belongs to the
 * person's message before its assistant message (notes never start a turn); a path keeps its state
 * before the turn's first write and after its last; a write after an undo ends redo. Real SQLite file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { tempDataDir } from './helpers.js';

let cleanup: () => void;
let db: Database;
let sessionId: string;

beforeEach(() => {
  const dir = tempDataDir();
  cleanup = dir.cleanup;
  db = openDatabase(dir.dataDir);
  sessionId = db.sessions.create({ title: 'turns' }).id;
});
afterEach(() => {
  db.close();
  cleanup();
});

const bytes = (text: string) => ({ bytes: Buffer.from(text), mode: 0o644 });
const user = (text: string, note?: 'undo') =>
  db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text, ...(note ? { note } : {}) }] });
const assistant = () => db.messages.create({ sessionId, role: 'assistant', parts: [] });
const write = (messageId: string, path: string, before: string | null, after: string | null) =>
  db.files.recordWrite(sessionId, path, before, after ?? '', {
    messageId,
    before: before === null ? null : bytes(before),
    after: after === null ? null : bytes(after),
  });
const rows = () =>
  db.files.turns
    .list(sessionId)
    .map((c) => [
      c.turnId,
      c.path,
      c.before && Buffer.from(c.before.bytes).toString(),
      c.after && Buffer.from(c.after.bytes).toString(),
      c.state,
    ]);

describe('turn changes', () => {
  it('keep the state before the first write of a turn and after its last, per path', () => {
    const prompt = user('go');
    const reply = assistant();
    write(reply.id, '/p/a.txt', 'one', 'two');
    const later = assistant();
    write(later.id, '/p/a.txt', 'two', 'three');
    write(later.id, '/p/b.txt', null, 'new');
    expect(rows()).toEqual([
      [prompt.id, '/p/a.txt', 'one', 'three', 'done'],
      [prompt.id, '/p/b.txt', null, 'new', 'done'],
    ]);
  });

  it("belong to the person's message, not to an undo note that came after it", () => {
    const first = user('first');
    write(assistant().id, '/p/a.txt', 'a', 'b');
    user('The user undid …', 'undo');
    const second = user('second');
    write(assistant().id, '/p/a.txt', 'a', 'c');
    expect(rows().map((r) => r[0])).toEqual([first.id, second.id]);
    expect(db.files.turns.lastDone(sessionId)?.turnId).toBe(second.id);
  });

  it("are not recorded for a write outside any turn (no person's message yet)", () => {
    write(assistant().id, '/p/a.txt', 'a', 'b');
    expect(rows()).toEqual([]);
    // the sidebar's text history still has it
    expect(db.files.versions(sessionId, '/p/a.txt').map((v) => v.content)).toEqual(['a', 'b']);
  });

  it('undone ones are dropped by the next recorded write: redo no longer applies', () => {
    const first = user('first');
    write(assistant().id, '/p/a.txt', 'a', 'b');
    const change = db.files.turns.lastDone(sessionId)!.changes[0]!;
    db.files.turns.setStates([{ id: change.id, state: 'undone' }]);
    expect(db.files.turns.lastUndone(sessionId)?.turnId).toBe(first.id);
    user('second');
    write(assistant().id, '/p/c.txt', null, 'c');
    expect(db.files.turns.lastUndone(sessionId)).toBeUndefined();
    expect(rows().map((r) => r[4])).toEqual(['dropped', 'done']);
  });
});
