/**
 * `opencode stats` and the `sessions` commands on a database they cannot read — one from a newer
 * opencode, or a file that is not a database — end with the one line `-p` gives for the same file and
 * exit code 1, not a stack trace (`stats` and `sessions undo` printed one).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';
import { cleanEnv, runCli } from '../support/cli.js';

function project(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-unreadable-'));
  mkdirSync(join(dir, '.opencode'));
  return { dir, file: join(dir, '.opencode', 'opencode.db') };
}

describe('opencode stats on a database it cannot read', () => {
  it("a newer opencode's database: one line naming the file and the upgrade, exit 1", async () => {
    const { dir, file } = project();
    openDatabase(join(dir, '.opencode')).close();
    const raw = new BetterSqlite3(file);
    raw.pragma('user_version = 999');
    raw.close();
    const run = await runCli(['stats'], { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toMatch(
      /^opencode: cannot open the session database: .+\.opencode\/opencode\.db: schema version 999 is newer than this opencode knows \(\d+\); upgrade opencode\n$/,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });

  it('a file that is not a database: one line, exit 1', async () => {
    const { dir, file } = project();
    writeFileSync(file, 'not a database, just text that is long enough to be read as a header\n'.repeat(20));
    const run = await runCli(['stats', '--json'], { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toBe('opencode: cannot open the session database: file is not a database\n');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });
});

describe('opencode sessions on a database it cannot read', () => {
  it.each([
    [['sessions', 'list']],
    [['sessions', 'show', 'abc']],
    [['sessions', 'delete', 'abc']],
    [['sessions', 'undo', 'abc']],
  ])("%j on a newer opencode's database: one line, exit 1", async (args) => {
    const { dir, file } = project();
    openDatabase(join(dir, '.opencode')).close();
    const raw = new BetterSqlite3(file);
    raw.pragma('user_version = 999');
    raw.close();
    const run = await runCli(args, { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toMatch(
      /^opencode: cannot open the session database: .+\.opencode\/opencode\.db: schema version 999 is newer than this opencode knows \(\d+\); upgrade opencode\n$/,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });

  it('sessions undo on a file that is not a database: one line, exit 1', async () => {
    const { dir, file } = project();
    writeFileSync(file, 'not a database, just text that is long enough to be read as a header\n'.repeat(20));
    const run = await runCli(['sessions', 'undo', 'abc'], { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toBe('opencode: cannot open the session database: file is not a database\n');
    expect(run.code).toBe(1);
  });
});
