/**
 * The mode book beside the snapshot repository: only modes that differ from git's default
 * are kept, the file round-trips raw names and every bit of 0o7777, another process's write is read
 * back, and a file changed in the snapshot's second stays to be looked at again.
 */
import { chmodSync, lstatSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMode, ModeBook } from '../../src/undo/snapshot-modes.js';

describe('defaultMode', () => {
  it.each([
    [0o644, 0o644],
    [0o600, 0o644],
    [0o755, 0o755],
    [0o4750, 0o755],
    [0o011, 0o644],
  ])('%o: %o', (mode, expected) => expect(defaultMode(mode)).toBe(expected));
});

describe('the mode book', () => {
  it('keeps only modes git would get wrong, and reads back raw names and all of 0o7777', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-modes-'));
    const file = join(dir, 'book');
    const names = {
      'plain.txt': 0o644,
      'run.sh': 0o755,
      'key.pem': 0o600,
      'caf\xe9.txt': 0o6751,
      'sticky.txt': 0o1640,
    };
    const book = new ModeBook(file);
    book.load();
    for (const [name, mode] of Object.entries(names)) {
      const path = Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(name, 'latin1')]);
      writeFileSync(path, 'x');
      chmodSync(path, mode);
      // a snapshot ten seconds later: not a file changed in its second
      book.note(name, Buffer.from(name, 'latin1'), lstatSync(path), Math.floor(Date.now() / 1000) + 10);
    }
    const kept = { 'key.pem': 0o600, 'caf\xe9.txt': 0o6751, 'sticky.txt': 0o1640 };
    expect(Object.fromEntries(book.commit())).toEqual(kept);
    expect(book.recent()).toEqual([]);
    expect(readFileSync(file).includes(Buffer.from('6751 caf\xe9.txt\0', 'latin1'))).toBe(true);

    // another process reads the same
    const other = new ModeBook(file);
    other.load();
    expect(Object.fromEntries(other.commit())).toEqual(kept);
    // and a change it writes is read back by the first
    other.note('key.pem', Buffer.from('key.pem'), undefined, 0);
    other.commit();
    book.load();
    expect(Object.fromEntries(book.commit())).toEqual({ 'caf\xe9.txt': 0o6751, 'sticky.txt': 0o1640 });
  });

  it('keeps a file changed in the second of the snapshot to look at again, until a later second', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-modes-'));
    writeFileSync(join(dir, 'a.txt'), 'a');
    const stats = lstatSync(join(dir, 'a.txt'));
    const book = new ModeBook(join(dir, 'book'));
    const second = Math.floor(stats.ctimeMs / 1000);
    book.note('a.txt', Buffer.from('a.txt'), stats, second);
    expect(book.recent()).toEqual([{ key: 'a.txt', raw: Buffer.from('a.txt') }]);
    book.note('a.txt', Buffer.from('a.txt'), stats, second + 1);
    expect(book.recent()).toEqual([]);
  });
});
