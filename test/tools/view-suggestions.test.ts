/**
 * view of a missing file suggests up to 3 similar paths: the original's
 * same-folder rule first, then the same name with another extension, a typo in the name, and the same
 * name elsewhere in the project.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editDistance, similarPaths } from '../../src/tools/path-suggestions.js';
import { viewTool } from '../../src/tools/view.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

function project(files: Record<string, string>): string {
  const dir = tempDir('project');
  writeTree(dir, files);
  return dir;
}

async function notFound(dir: string, filePath: string): Promise<string> {
  const r = await runTool(viewTool, { file_path: filePath }, toolContext(dir));
  expect(r.isError).toBe(true);
  return r.output;
}

describe('view: "did you mean" for a missing file', () => {
  it('a typo in the name (utils.ts for util.ts)', async () => {
    const dir = project({ 'src/util.ts': '', 'src/index.ts': '' });
    expect(await notFound(dir, 'src/utils.ts')).toBe(
      `File not found: ${join(dir, 'src/utils.ts')}\n\nDid you mean one of these?\n${join(dir, 'src/util.ts')}`,
    );
  });

  it('the same name with another extension (app.js for app.ts)', async () => {
    const dir = project({ 'app.ts': '', 'apq.rs': '', 'main.ts': '' });
    expect(await notFound(dir, 'app.js')).toBe(
      `File not found: ${join(dir, 'app.js')}\n\nDid you mean one of these?\n${join(dir, 'app.ts')}\n${join(dir, 'apq.rs')}`,
    );
  });

  it('the same name in another folder of the project, also when the folder asked for is missing', async () => {
    const dir = project({
      'src/lib/parser.ts': '',
      'test/parser.ts': '',
      'node_modules/x/parser.ts': '',
      '.gitignore': 'node_modules/\n',
    });
    expect(await notFound(dir, 'src/parser.ts')).toBe(
      `File not found: ${join(dir, 'src/parser.ts')}\n\nDid you mean one of these?\n${join(dir, 'test/parser.ts')}\n${join(dir, 'src/lib/parser.ts')}`,
    );
    expect(await notFound(dir, 'lib/parser.ts')).toBe(
      `File not found: ${join(dir, 'lib/parser.ts')}\n\nDid you mean one of these?\n${join(dir, 'test/parser.ts')}\n${join(dir, 'src/lib/parser.ts')}`,
    );
  });

  it("the original's rule comes first, then a typo; at most 3 are listed (docs/README is left out)", async () => {
    const dir = project({ 'README.md': '', 'readme.txt': '', 'READ.md': '', 'docs/README': '' });
    expect(await similarPaths(join(dir, 'README'), dir)).toEqual([
      join(dir, 'README.md'),
      join(dir, 'readme.txt'),
      join(dir, 'READ.md'),
    ]);
  });

  it('nothing alike: no list', async () => {
    const dir = project({ 'a.ts': '' });
    expect(await notFound(dir, 'zzzzzz.go')).toBe(`File not found: ${join(dir, 'zzzzzz.go')}`);
  });

  it('a path outside the project gets only same-folder suggestions', async () => {
    const outside = project({ 'notes.txt': '' });
    const dir = project({ 'notes.txt': '' });
    expect(await similarPaths(join(outside, 'notes.md'), dir)).toEqual([join(outside, 'notes.txt')]);
  });
});

describe('edit distance', () => {
  it.each([
    ['util.ts', 'utils.ts', 1],
    ['confg.ts', 'config.ts', 1],
    ['pakcage.json', 'package.json', 1],
    ['abc', 'xyz', 3],
  ])('%s → %s: %i', (a, b, d) => {
    expect(editDistance(a, b, 5)).toBe(d);
  });

  it('stops past the limit', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });
});
