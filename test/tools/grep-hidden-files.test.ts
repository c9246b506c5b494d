/**
 * grep searches hidden files and folders (`.github/workflows/*.yml` was never found),
 * still honouring .gitignore (a hidden file ignored stays out) and never looking inside `.git`;
 * rg and the Node fallback give the same answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { grepTool, searchFiles } from '../../src/tools/grep.js';
import { bothWays } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, setAge, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

/** A project with a hidden workflow folder, a hidden file, a gitignored hidden file and folder, and a real .git. */
function project(): string {
  const dir = tempDir('grep-hidden');
  const files: Record<string, string> = {
    '.github/workflows/ci.yml': 'run: npm test # needle\n',
    '.env.example': 'TOKEN=needle\n',
    'src/a.ts': 'const needle = 1;\n',
    '.env': 'SECRET=needle\n',
    '.cache/tmp.txt': 'needle cached\n',
    '.gitignore': '.env\n.cache/\n',
  };
  writeTree(dir, files);
  git(dir, 'init', '-q');
  // git's own files hold the word too: a description, a ref name in a config comment
  writeTree(dir, { '.git/description': 'needle in git\n', '.git/info/exclude': '# needle\n' });
  Object.keys(files).forEach((rel, i) => setAge(dir, rel, 60 * (i + 1)));
  return dir;
}

describe('grep: hidden files and folders', () => {
  it('finds .github/workflows and dot-files, leaves out gitignored ones and .git, rg and fallback alike', async () => {
    const dir = project();
    const signal = new AbortController().signal;
    const { ripgrep, fallback } = await bothWays(() =>
      searchFiles(dir, { pattern: 'needle', literal: false }, signal, 100),
    );
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.matches.map((m) => m.path.slice(dir.length + 1))).toEqual([
      '.github/workflows/ci.yml',
      '.env.example',
      'src/a.ts',
    ]);
  });

  it('an include glob for YAML finds the workflow', async () => {
    const dir = project();
    const { ripgrep, fallback } = await bothWays(() =>
      runTool(grepTool, { pattern: 'needle', include: '*.yml' }, toolContext(dir)),
    );
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.output).toBe(
      `Found 1 matches\n${dir}/.github/workflows/ci.yml:\n  Line 1: run: npm test # needle\n`,
    );
  });

  it('a .git file (a worktree or submodule pointer) is skipped like the folder', async () => {
    const dir = tempDir('grep-hidden-worktree');
    writeTree(dir, { 'sub/.git': 'gitdir: ../needle\n', 'sub/x.txt': 'needle\n' });
    const signal = new AbortController().signal;
    const { ripgrep, fallback } = await bothWays(() =>
      searchFiles(dir, { pattern: 'needle', literal: false }, signal, 100),
    );
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.matches.map((m) => m.path.slice(dir.length + 1))).toEqual(['sub/x.txt']);
  });
});
