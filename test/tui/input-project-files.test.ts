import { afterEach, describe, expect, it } from 'vitest';
import { listProjectFiles, projectFileLister, withFolders } from '../../src/tui/input/project-files.js';
import { withoutRipgrep } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, tempDir, writeTree } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

function project(): string {
  const dir = tempDir('proj');
  git(dir, 'init', '-q');
  writeTree(dir, {
    '.gitignore': 'dist/\n*.log\n',
    'README.md': '',
    'src/index.ts': '',
    'src/tui/Editor.tsx': '',
    'dist/out.js': '',
    'debug.log': '',
    '.env': '',
  });
  return dir;
}

const EXPECTED = ['README.md', 'src/', 'src/index.ts', 'src/tui/', 'src/tui/Editor.tsx'];

describe('project files for @ completion', () => {
  it('lists files and their folders, honouring .gitignore and leaving hidden files out (rg)', async () => {
    expect(await listProjectFiles(project())).toEqual(EXPECTED);
  });

  it('gives the same list without ripgrep', async () => {
    const dir = project();
    expect(await withoutRipgrep(() => listProjectFiles(dir))).toEqual(EXPECTED);
  });

  it('derives folders and sorts by depth, then name', () => {
    expect(withFolders(['b/c/d.ts', 'a.ts', 'b/a.ts'])).toEqual(['a.ts', 'b/', 'b/a.ts', 'b/c/', 'b/c/d.ts']);
  });

  it('reuses a listing for 30 s', async () => {
    const dir = project();
    let nowMs = 1_000_000;
    const list = projectFileLister(dir, 30_000, () => nowMs);
    expect(await list()).toEqual(EXPECTED);
    writeTree(dir, { 'NEW.md': '' });
    nowMs += 29_000;
    expect(await list()).toEqual(EXPECTED);
    nowMs += 2_000;
    expect(await list()).toEqual(['NEW.md', ...EXPECTED]);
  });
});
