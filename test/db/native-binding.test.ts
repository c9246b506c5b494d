/**
 * The database opens better-sqlite3's addon by its path (`nativeBinding`), skipping the `bindings`
 * package's search at every start: the path is the addon's file in better-sqlite3's build.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';
import { nativeBinding } from '../../src/db/native-binding.js';

describe("better-sqlite3's addon", () => {
  it('is named by its path in the package, and a database opens with it', () => {
    const addon = join(
      import.meta.dirname,
      '..',
      '..',
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    expect(existsSync(addon)).toBe(true);
    expect(nativeBinding()).toEqual({ nativeBinding: addon });
    const dir = mkdtempSync(join(tmpdir(), 'opencode-native-binding-'));
    try {
      const db = openDatabase(dir);
      expect(db.connection.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
