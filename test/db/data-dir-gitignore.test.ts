/**
 * The data folder's .gitignore: written whenever it is missing, also when the person
 * made `.opencode/` first; it hides the database, its WAL/SHM, logs and state from git, and lets
 * `commands/`, `tools/` and `plugins/` through.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareDataDir } from '../../src/db/data-dir.js';
import { openDatabase } from '../../src/db/database.js';

const EXPECTED_GITIGNORE = [
  '# Written by opencode. The database (your prompts and file contents), its logs and state stay',
  '# out of git; the folders a team shares are let through.',
  '*',
  '!commands/',
  '!commands/**',
  '!tools/',
  '!tools/**',
  '!plugins/',
  '!plugins/**',
  '',
].join('\n');

function gitProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-datadir-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** `git status --porcelain -uall`: every untracked file, one a line */
const gitStatus = (dir: string) =>
  execFileSync('git', ['status', '--porcelain', '-uall'], { cwd: dir, encoding: 'utf8' });

describe("the data folder's .gitignore", () => {
  it('a new data folder gets it, mode 0700; git then sees only the shared folders (not even the .gitignore)', () => {
    const dir = gitProject();
    const dataDir = join(dir, '.opencode');
    const db = openDatabase(dataDir);
    db.sessions.create({ id: 's1', title: 'secret prompt' });
    db.close();
    expect(readFileSync(join(dataDir, '.gitignore'), 'utf8')).toBe(EXPECTED_GITIGNORE);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // what opencode and the person put there over time
    const files = [
      'opencode.db-wal',
      'opencode.db-shm',
      'mcp-git.log',
      'init',
      'state/shell-1.json',
      'commands/git/commit.md',
      'tools/deploy.yaml',
      'plugins/lint.ts',
    ];
    for (const rel of files) {
      mkdirSync(join(dataDir, rel, '..'), { recursive: true });
      writeFileSync(join(dataDir, rel), 'x');
    }
    expect(gitStatus(dir)).toBe(
      '?? .opencode/commands/git/commit.md\n?? .opencode/plugins/lint.ts\n?? .opencode/tools/deploy.yaml\n',
    );
  });

  it('is written when the person made .opencode/commands first', () => {
    const dir = gitProject();
    mkdirSync(join(dir, '.opencode', 'commands'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'commands', 'review.md'), 'Review $FILE\n');
    openDatabase(join(dir, '.opencode')).close();
    expect(readFileSync(join(dir, '.opencode', '.gitignore'), 'utf8')).toBe(EXPECTED_GITIGNORE);
    expect(gitStatus(dir)).toBe('?? .opencode/commands/review.md\n');
  });

  it("a .gitignore of the person's own is left as it is", () => {
    const dir = gitProject();
    mkdirSync(join(dir, '.opencode'));
    writeFileSync(join(dir, '.opencode', '.gitignore'), 'opencode.db*\n');
    prepareDataDir(join(dir, '.opencode'));
    expect(readFileSync(join(dir, '.opencode', '.gitignore'), 'utf8')).toBe('opencode.db*\n');
  });

  it('the "*" alone that earlier versions wrote (it hid commands/ too) is replaced', () => {
    const dir = gitProject();
    mkdirSync(join(dir, '.opencode'));
    writeFileSync(join(dir, '.opencode', '.gitignore'), '*\n');
    prepareDataDir(join(dir, '.opencode'));
    expect(readFileSync(join(dir, '.opencode', '.gitignore'), 'utf8')).toBe(EXPECTED_GITIGNORE);
  });

  it('is written again when it was deleted', () => {
    const dir = gitProject();
    const dataDir = join(dir, '.opencode');
    prepareDataDir(dataDir);
    execFileSync('rm', [join(dataDir, '.gitignore')]);
    prepareDataDir(dataDir);
    expect(readFileSync(join(dataDir, '.gitignore'), 'utf8')).toBe(EXPECTED_GITIGNORE);
  });
});
