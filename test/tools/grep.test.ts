import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep.js';
import { bothWays, isAlive, sleepingRipgrep, withEnv, withoutRipgrep } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, setAge, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

/** Writes `files` under a fresh folder in /tmp/…/bin/build, the first file newest, each next one a minute older. */
function tree(files: Record<string, string | Buffer>): string {
  const dir = tempDir('bin', 'build', 'app');
  writeTree(dir, files);
  Object.keys(files).forEach((rel, i) => setAge(dir, rel, 60 * (i + 1)));
  return dir;
}

function grep(dir: string, input: Record<string, unknown>) {
  return runTool(grepTool, input, toolContext(dir));
}

/** Runs the same call with rg and with the fallback, expects the same result, and returns it. */
async function grepBoth(dir: string, input: Record<string, unknown>) {
  const { ripgrep, fallback } = await bothWays(() => grep(dir, input));
  expect(fallback).toEqual(ripgrep);
  return ripgrep;
}

describe('grep', () => {
  it('groups matching lines by file, most recently modified file first', async () => {
    const dir = tree({
      'a.ts': 'const needle = 1;\n',
      'b.ts': 'x\nneedle here\nneedle again\n',
      'c.ts': 'nothing\n',
    });
    expect(await grepBoth(dir, { pattern: 'needle' })).toEqual({
      output: `Found 3 matches\n${dir}/a.ts:\n  Line 1: const needle = 1;\n\n${dir}/b.ts:\n  Line 2: needle here\n  Line 3: needle again\n`,
      isError: false,
      metadata: { number_of_matches: 3, truncated: false },
    });
  });

  it('accepts a pattern that starts with a dash', async () => {
    const dir = tree({ 'notes.md': 'run rm -rf build\nsafe\n' });
    expect((await grepBoth(dir, { pattern: '-rf' })).output).toBe(
      `Found 1 matches\n${dir}/notes.md:\n  Line 1: run rm -rf build\n`,
    );
  });

  it('searches exact text with literal_text, and a regex without it', async () => {
    const dir = tree({ 'x.js': 'call a.b(c)\ncall axb(c)\n' });
    expect((await grepBoth(dir, { pattern: 'a.b(c)', literal_text: true })).output).toBe(
      `Found 1 matches\n${dir}/x.js:\n  Line 1: call a.b(c)\n`,
    );
    expect((await grepBoth(dir, { pattern: 'a.b\\(c\\)' })).metadata).toEqual({
      number_of_matches: 2,
      truncated: false,
    });
  });

  it('searches only files whose name matches include', async () => {
    const dir = tree({
      'a.ts': 'needle\n',
      'b.tsx': 'needle\n',
      'c.js': 'needle\n',
      'd.md': 'needle\n',
      'sub/e.ts': 'needle\n',
    });
    const tsFiles = `Found 3 matches\n${dir}/a.ts:\n  Line 1: needle\n\n${dir}/b.tsx:\n  Line 1: needle\n\n${dir}/sub/e.ts:\n  Line 1: needle\n`;
    expect((await grepBoth(dir, { pattern: 'needle', include: '*.{ts,tsx}' })).output).toBe(tsFiles);
    expect((await grepBoth(dir, { pattern: 'needle', include: '**/*.{ts,tsx}' })).output).toBe(tsFiles);
    expect((await grepBoth(dir, { pattern: 'needle', include: '*.js,*.md' })).metadata).toEqual({
      number_of_matches: 2,
      truncated: false,
    });
  });

  it('skips a binary file and still reports the text file beside it', async () => {
    const dir = tree({
      'text.txt': 'the needle\n',
      'image.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3]), Buffer.from('needle\n')]),
      // a NUL byte far past the first read buffer still marks the file binary, dropping its early match
      'late.bin': Buffer.concat([Buffer.from(`needle first\n${'y'.repeat(100)}\n`.repeat(2000)), Buffer.from([0])]),
      'late-one.bin': Buffer.concat([Buffer.from(`needle\n${'z'.repeat(200_000)}\n`), Buffer.from([0])]),
    });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 1 matches\n${dir}/text.txt:\n  Line 1: the needle\n`,
    );
  });

  it('cuts matched lines at 2000 characters', async () => {
    const dir = tree({ 'min.js': `needle${'x'.repeat(5000)}\n` });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 1 matches\n${dir}/min.js:\n  Line 1: needle${'x'.repeat(1994)}...\n`,
    );
  });

  it('handles a minified file whose one line is megabytes long', async () => {
    const dir = tree({ 'bundle.min.js': `${'x'.repeat(8_000_000)}needle\n` });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 1 matches\n${dir}/bundle.min.js:\n  Line 1: ${'x'.repeat(2000)}...\n`,
    );
  });

  it('returns at most 100 lines and says the results were cut', async () => {
    const dir = tree({ 'many.txt': 'needle\n'.repeat(150) });
    const r = await grepBoth(dir, { pattern: 'needle' });
    expect(r.metadata).toEqual({ number_of_matches: 100, truncated: true });
    const lines = Array.from({ length: 100 }, (_, i) => `  Line ${i + 1}: needle\n`).join('');
    expect(r.output).toBe(
      `Found 100 matches\n${dir}/many.txt:\n${lines}\n(Results are truncated. Consider using a more specific path or pattern.)`,
    );
  });

  it('does not call exactly 100 matches truncated', async () => {
    const dir = tree({ 'many.txt': 'needle\n'.repeat(100) });
    expect((await grepBoth(dir, { pattern: 'needle' })).metadata).toEqual({ number_of_matches: 100, truncated: false });
  });

  it('fills the 100 from the newest files first', async () => {
    const dir = tree({
      'new.txt': 'needle\n'.repeat(40),
      'mid.txt': 'needle\n'.repeat(40),
      'old.txt': 'needle\n'.repeat(40),
    });
    const r = await grepBoth(dir, { pattern: 'needle' });
    expect(r.metadata).toEqual({ number_of_matches: 100, truncated: true });
    expect(r.output).toContain(`${dir}/old.txt:\n  Line 1: needle\n`);
    expect(r.output).toContain('  Line 20: needle\n\n(Results are truncated.');
    expect(r.output).not.toContain('Line 21: needle\n\n(Results');
  });

  it('says so when nothing matches', async () => {
    const dir = tree({ 'a.txt': 'hay\n' });
    expect(await grepBoth(dir, { pattern: 'needle' })).toEqual({
      output: 'No files found',
      isError: false,
      metadata: { number_of_matches: 0, truncated: false },
    });
  });

  it('prints paths that contain colons whole', async () => {
    const dir = tree({ 'a:b:1.txt': 'x:2:needle\n' });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 1 matches\n${dir}/a:b:1.txt:\n  Line 1: x:2:needle\n`,
    );
  });

  it('drops the CR of CRLF lines, and like rg does not let $ match before it', async () => {
    const dir = tree({ 'win.txt': 'a needle\r\nneedle\r\n' });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 2 matches\n${dir}/win.txt:\n  Line 1: a needle\n  Line 2: needle\n`,
    );
    expect((await grepBoth(dir, { pattern: 'needle$' })).output).toBe('No files found');
  });

  it('searches a single file given as the path, even an ignored one', async () => {
    const dir = tree({ '.gitignore': 'secret.txt\n', 'secret.txt': 'needle\n', 'other.txt': 'needle\n' });
    expect((await grepBoth(dir, { pattern: 'needle', path: 'secret.txt' })).output).toBe(
      `Found 1 matches\n${dir}/secret.txt:\n  Line 1: needle\n`,
    );
  });

  it('reports a bad regex as an error, with rg and with the fallback', async () => {
    const dir = tree({ 'a.txt': 'a(b\n' });
    const { ripgrep, fallback } = await bothWays(() => grep(dir, { pattern: 'a(b' }));
    expect(ripgrep.isError).toBe(true);
    expect(ripgrep.output).toContain('unclosed group');
    expect(fallback.isError).toBe(true);
    expect(fallback.output).toMatch(/^Invalid regex pattern: /);
  });

  it('reports a missing path', async () => {
    const dir = tree({});
    expect(await grep(dir, { pattern: 'x', path: 'nope' })).toEqual({
      output: `Path does not exist: ${join(dir, 'nope')}`,
      isError: true,
      metadata: undefined,
    });
  });

  it('reports a cancelled search as cancelled, with rg and with the fallback', async () => {
    const dir = tree({ 'a.txt': 'needle\n' });
    const abort = new AbortController();
    abort.abort();
    const ctx = toolContext(dir, { signal: abort.signal });
    const cancelled = { output: 'Tool execution canceled by user', isError: true };
    expect(await runTool(grepTool, { pattern: 'needle' }, ctx)).toEqual(cancelled);
    expect(await withoutRipgrep(() => runTool(grepTool, { pattern: 'needle' }, ctx))).toEqual(cancelled);
  });

  it('kills the running rg when the call is aborted', async () => {
    const dir = tree({ 'a.txt': 'needle\n' });
    const fake = sleepingRipgrep(tempDir('fake'));
    const abort = new AbortController();
    await withEnv({ OPENCODE_RIPGREP_PATH: fake.path }, async () => {
      const running = runTool(grepTool, { pattern: 'needle' }, toolContext(dir, { signal: abort.signal }));
      await waitFor(() => existsSync(join(fake.path, '..', 'rg.pid')));
      abort.abort();
      expect(await running).toEqual({ output: 'Tool execution canceled by user', isError: true });
    });
    await waitFor(() => !isAlive(fake.pid()));
  });

  it('stops the fallback walk when the call is aborted', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`d${i % 30}/f${i}.txt`] = `line\n`.repeat(200);
    const dir = tree(files);
    const abort = new AbortController();
    const running = withoutRipgrep(() =>
      runTool(grepTool, { pattern: 'needle' }, toolContext(dir, { signal: abort.signal })),
    );
    setTimeout(() => abort.abort(), 5);
    expect(await running).toEqual({ output: 'Tool execution canceled by user', isError: true });
  });

  it('keeps its description short', () => {
    expect(grepTool.description.length).toBeLessThanOrEqual(1200);
  });
});

describe('grep with .gitignore, rg and fallback alike', () => {
  for (const withGit of [true, false]) {
    it(`honours root and nested .gitignore files and searches hidden files (${withGit ? 'git repository' : 'no git'})`, async () => {
      const dir = tree({
        'src/a.ts': 'needle a\n',
        'src/gen/out.ts': 'needle gen\n',
        'lib/b.js': 'needle b\n',
        'lib/local.js': 'needle local\n',
        'ignored.txt': 'needle ignored\n',
        '.hidden.txt': 'needle hidden\n',
        '.config/c.txt': 'needle config\n',
        'node_modules/m/index.js': 'needle module\n',
        '.gitignore': 'ignored.txt\nnode_modules/\ngen/\n',
        'lib/.gitignore': 'local.js\n',
      });
      if (withGit) git(dir, 'init', '-q');
      expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
        `Found 4 matches\n${dir}/src/a.ts:\n  Line 1: needle a\n\n${dir}/lib/b.js:\n  Line 1: needle b\n\n` +
          `${dir}/.hidden.txt:\n  Line 1: needle hidden\n\n${dir}/.config/c.txt:\n  Line 1: needle config\n`,
      );
      // an include glob is a file type for rg: it keeps .gitignore
      expect((await grepBoth(dir, { pattern: 'needle', include: '*.txt' })).output).toBe(
        `Found 2 matches\n${dir}/.hidden.txt:\n  Line 1: needle hidden\n\n${dir}/.config/c.txt:\n  Line 1: needle config\n`,
      );
      // searching inside an ignored folder lists its files, as rg does
      expect((await grepBoth(dir, { pattern: 'needle', path: 'node_modules' })).output).toBe(
        `Found 1 matches\n${dir}/node_modules/m/index.js:\n  Line 1: needle module\n`,
      );
    });
  }

  it('applies .git/info/exclude in a git repository', async () => {
    const dir = tree({ 'a.txt': 'needle\n', 'b.txt': 'needle\n' });
    git(dir, 'init', '-q');
    writeTree(dir, { '.git/info/exclude': 'b.txt\n' });
    expect((await grepBoth(dir, { pattern: 'needle' })).output).toBe(
      `Found 1 matches\n${dir}/a.txt:\n  Line 1: needle\n`,
    );
  });

  it('takes include globs with a slash as root-relative paths', async () => {
    const dir = tree({ 'src/a.ts': 'needle\n', 'test/a.ts': 'needle\n' });
    expect((await grepBoth(dir, { pattern: 'needle', include: 'src/**/*.ts' })).output).toBe(
      `Found 1 matches\n${dir}/src/a.ts:\n  Line 1: needle\n`,
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
