import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lsTool, projectTree } from '../../src/tools/ls.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

/** A project in a folder named `build` under one named `bin` (under /tmp): all three are on the original's skip lists. */
function project(): string {
  const dir = tempDir('bin', 'build');
  writeTree(dir, {
    'README.md': '# app\n',
    'src/index.ts': '',
    'src/util/strings.ts': '',
    'src/util/__pycache__/x.pyc': '',
    'src/native.so': '',
    'src/.eslintrc': '',
    'node_modules/zod/index.js': '',
    'dist/index.js': '',
    'bin/tool': '',
    '.git/HEAD': '',
    '.env': 'SECRET=1',
    '.DS_Store': '',
    'tmp/scratch.txt': '',
    'main.pyc': '',
  });
  mkdirSync(join(dir, 'docs'));
  return dir;
}

describe('ls', () => {
  it('prints the tree relative to the listed folder, even one named build under bin in /tmp', async () => {
    const dir = project();
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(r.output).toBe(
      [
        `- ${dir}/`,
        '  - README.md',
        '  - docs/',
        '  - src/',
        '    - index.ts',
        '    - util/',
        '      - strings.ts',
        '  - tmp/',
        '    - scratch.txt',
        '',
      ].join('\n'),
    );
    expect(r.metadata).toEqual({ number_of_files: 8, truncated: false });
    expect(r.isError).toBe(false);
  });

  it('lists a relative path against the working directory', async () => {
    const dir = project();
    const r = await runTool(lsTool, { path: 'src' }, toolContext(dir));
    expect(r.output).toBe(`- ${dir}/src/\n  - index.ts\n  - util/\n    - strings.ts\n`);
  });

  it('leaves out names matching the ignore globs', async () => {
    const dir = project();
    const r = await runTool(lsTool, { path: dir, ignore: ['*.md', 'util', 'tm?'] }, toolContext('/'));
    expect(r.output).toBe(`- ${dir}/\n  - docs/\n  - src/\n    - index.ts\n`);
  });

  it('sorts names in code-unit order with files and folders mixed, as the original walk did', async () => {
    const dir = tempDir('p');
    writeTree(dir, { 'b.txt': '', 'a/x.txt': '', 'C.txt': '', 'a.txt': '' });
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(r.output).toBe(`- ${dir}/\n  - C.txt\n  - a/\n    - x.txt\n  - a.txt\n  - b.txt\n`);
  });

  it('lists a symbolic link as a file and does not follow it', async () => {
    const dir = tempDir('p');
    writeTree(dir, { 'real/a.txt': '' });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(r.output).toBe(`- ${dir}/\n  - link\n  - real/\n    - a.txt\n`);
  });

  it('stops at 1000 entries and says so first', async () => {
    const dir = tempDir('p');
    const files: Record<string, string> = {};
    for (let i = 0; i < 1001; i++) files[`f${String(i).padStart(4, '0')}.txt`] = '';
    writeTree(dir, files);
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(r.metadata).toEqual({ number_of_files: 1000, truncated: true });
    expect(
      r.output.startsWith(
        `There are more than 1000 files in the directory. Use a more specific path or use the Glob tool to find specific files. The first 1000 files and directories are included below:\n\n- ${dir}/\n  - f0000.txt\n`,
      ),
    ).toBe(true);
    expect(r.output.endsWith('  - f0999.txt\n')).toBe(true);
  });

  it('does not call exactly 1000 entries truncated', async () => {
    const dir = tempDir('p');
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`f${i}.txt`] = '';
    writeTree(dir, files);
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(r.metadata).toEqual({ number_of_files: 1000, truncated: false });
    expect(r.output.startsWith(`- ${dir}/\n`)).toBe(true);
  });

  it('reports a missing path', async () => {
    const dir = tempDir('p');
    const r = await runTool(lsTool, { path: 'nope' }, toolContext(dir));
    expect(r).toEqual({ output: `path does not exist: ${join(dir, 'nope')}`, isError: true, metadata: undefined });
  });

  it('reports a file given as the path', async () => {
    const dir = tempDir('p');
    writeTree(dir, { 'a.txt': '' });
    const r = await runTool(lsTool, { path: 'a.txt' }, toolContext(dir));
    expect(r.output).toBe(`path is not a directory: ${join(dir, 'a.txt')}`);
  });

  it('renders the same tree for the system prompt', async () => {
    const dir = project();
    const r = await runTool(lsTool, {}, toolContext(dir));
    expect(projectTree(dir)).toBe(r.output);
  });

  it('keeps its description short', () => {
    expect(lsTool.description.length).toBeLessThanOrEqual(1200);
  });
});
