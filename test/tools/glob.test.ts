import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globTool, resolveSearch } from '../../src/tools/glob.js';
import { bothWays, isAlive, sleepingRipgrep, withEnv, withoutRipgrep } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

/**
 * A project under /tmp/…/bin/build/app (every ancestor name is on the original's skip list), with
 * root and nested .gitignore files, a rule in the parent folder, skipped folders, hidden files and
 * symbolic links (one looping back to the root).
 */
function project(options: { git: boolean }): string {
  const app = tempDir('bin', 'build', 'app');
  writeTree(app, {
    '.gitignore': 'ignored.ts\ncache/\n*.gen.ts\n!keep.gen.ts\n',
    'src/index.ts': '',
    'src/util/strings.ts': '',
    'src/util/strings.test.ts': '',
    'src/components/Button.tsx': '',
    'src/a.gen.ts': '',
    'src/keep.gen.ts': '',
    'ignored.ts': '',
    'cache/c.ts': '',
    'sub/.gitignore': 'local.ts\n',
    'sub/local.ts': '',
    'sub/kept.ts': '',
    'node_modules/zod/index.ts': '',
    'build/out.ts': '',
    'vendor/lib/v.ts': '',
    '.github/workflows/ci.yml': '',
    '.env': '',
    'config/.env': '',
    '.hidden/h.ts': '',
    'from-parent.ts': '',
    'README.md': '',
  });
  // a rule in the parent folder applies outside a repository (ripgrep reads ignore files up to /);
  // inside one, as in git, rules above the repository do not
  writeFileSync(join(dirname(app), '.gitignore'), 'from-parent.ts\n');
  const shared = join(dirname(app), 'shared');
  writeTree(shared, { 's.ts': '' });
  symlinkSync(shared, join(app, 'linked'));
  symlinkSync('..', join(app, 'src', 'loop'));
  if (options.git) git(app, 'init', '-q');
  return app;
}

async function glob(dir: string, input: Record<string, unknown>) {
  return runTool(globTool, input, toolContext(dir));
}

for (const withGit of [true, false]) {
  describe(`glob in a ${withGit ? 'git repository' : 'folder without git'}`, () => {
    const app = project({ git: withGit });
    const abs = (...rels: string[]) => rels.map((r) => join(app, r)).join('\n');

    it('lists matches shortest first, honouring .gitignore files and skipping hidden and build folders', async () => {
      const { ripgrep, fallback } = await bothWays(() => glob(app, { pattern: '**/*.ts' }));
      const files = [
        'linked/s.ts',
        'sub/kept.ts',
        'src/index.ts',
        'src/keep.gen.ts',
        'src/util/strings.ts',
        'src/util/strings.test.ts',
      ];
      if (withGit) files.splice(3, 0, 'from-parent.ts');
      expect(ripgrep).toEqual({
        output: abs(...files),
        isError: false,
        metadata: { number_of_files: files.length, truncated: false },
      });
      expect(fallback).toEqual(ripgrep);
    });

    it('matches alternatives', async () => {
      const { ripgrep, fallback } = await bothWays(() => glob(app, { pattern: 'src/**/*.{ts,tsx}' }));
      expect(ripgrep.output).toBe(
        abs(
          'src/index.ts',
          'src/keep.gen.ts',
          'src/util/strings.ts',
          'src/util/strings.test.ts',
          'src/components/Button.tsx',
        ),
      );
      expect(fallback).toEqual(ripgrep);
    });

    it('matches *.ts only directly in the search folder', async () => {
      const { ripgrep, fallback } = await bothWays(() => glob(app, { pattern: '*.ts' }));
      if (withGit) expect(ripgrep.output).toBe(abs('from-parent.ts'));
      else
        expect(ripgrep).toEqual({
          output: 'No files found',
          isError: false,
          metadata: { number_of_files: 0, truncated: false },
        });
      expect(fallback).toEqual(ripgrep);
    });

    it('reaches hidden files when the pattern names them', async () => {
      const github = await bothWays(() => glob(app, { pattern: '.github/**' }));
      expect(github.ripgrep.output).toBe(abs('.github/workflows/ci.yml'));
      expect(github.fallback).toEqual(github.ripgrep);
      const env = await bothWays(() => glob(app, { pattern: '**/.env' }));
      expect(env.ripgrep.output).toBe(abs('.env', 'config/.env'));
      expect(env.fallback).toEqual(env.ripgrep);
    });

    it('reaches a skipped folder when the pattern names it', async () => {
      const { ripgrep, fallback } = await bothWays(() => glob(app, { pattern: 'vendor/**/*.ts' }));
      expect(ripgrep.output).toBe(abs('vendor/lib/v.ts'));
      expect(fallback).toEqual(ripgrep);
    });

    it('searches a path given relative to the working directory', async () => {
      const { ripgrep, fallback } = await bothWays(() => glob(app, { pattern: '*.ts', path: 'src/util' }));
      expect(ripgrep.output).toBe(abs('src/util/strings.ts', 'src/util/strings.test.ts'));
      expect(fallback).toEqual(ripgrep);
    });
  });
}

describe('glob limits and errors', () => {
  it('returns the 100 shortest paths and says the results were cut', async () => {
    const dir = tempDir('p');
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`f/${i}.txt`] = '';
    writeTree(dir, files);
    const { ripgrep, fallback } = await bothWays(() => glob(dir, { pattern: 'f/*.txt' }));
    const expected = Array.from({ length: 100 }, (_, i) => join(dir, `f/${i}.txt`)).join('\n');
    expect(ripgrep).toEqual({
      output: `${expected}\n\n(Results are truncated. Consider using a more specific path or pattern.)`,
      isError: false,
      metadata: { number_of_files: 100, truncated: true },
    });
    expect(fallback).toEqual(ripgrep);
  });

  it('does not call exactly 100 results truncated', async () => {
    const dir = tempDir('p');
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`${i}.txt`] = '';
    writeTree(dir, files);
    const r = await glob(dir, { pattern: '*.txt' });
    expect(r.metadata).toEqual({ number_of_files: 100, truncated: false });
  });

  it('reports a missing folder', async () => {
    const dir = tempDir('p');
    const r = await glob(dir, { pattern: '*', path: 'missing' });
    expect(r).toEqual({ output: `Path does not exist: ${join(dir, 'missing')}`, isError: true, metadata: undefined });
  });

  it('makes an absolute pattern inside the root relative, and searches from the fixed part of one outside', () => {
    expect(resolveSearch('/p', undefined, '/p/src/**/*.ts')).toEqual({ root: '/p', pattern: 'src/**/*.ts' });
    expect(resolveSearch('/p', undefined, './src/*.ts')).toEqual({ root: '/p', pattern: 'src/*.ts' });
    expect(resolveSearch('/p', 'x', '/q/lib/*.js')).toEqual({ root: '/q/lib', pattern: '*.js' });
    expect(resolveSearch('/p', undefined, '/q/lib/a.js')).toEqual({ root: '/q/lib', pattern: 'a.js' });
  });

  it('reports a cancelled search as cancelled, with rg and with the fallback', async () => {
    const dir = tempDir('p');
    writeTree(dir, { 'a.ts': '' });
    const abort = new AbortController();
    abort.abort();
    const ctx = toolContext(dir, { signal: abort.signal });
    const cancelled = { output: 'Tool execution canceled by user', isError: true };
    expect(await runTool(globTool, { pattern: '**' }, ctx)).toEqual(cancelled);
    expect(await withoutRipgrep(() => runTool(globTool, { pattern: '**' }, ctx))).toEqual(cancelled);
  });

  it('kills the running rg when the call is aborted', async () => {
    const dir = tempDir('p');
    const fake = sleepingRipgrep(dir);
    const abort = new AbortController();
    await withEnv({ OPENCODE_RIPGREP_PATH: fake.path }, async () => {
      const running = runTool(globTool, { pattern: '**' }, toolContext(dir, { signal: abort.signal }));
      await waitFor(() => existsSync(join(dir, 'rg.pid')));
      abort.abort();
      expect(await running).toEqual({ output: 'Tool execution canceled by user', isError: true });
    });
    await waitFor(() => !isAlive(fake.pid()));
  });

  it('keeps its description short', () => {
    expect(globTool.description.length).toBeLessThanOrEqual(1200);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
