import { symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/glob.js';
import { grepTool } from '../../src/tools/grep.js';
import { SEARCH_ENGINES, searchEngine } from '../../src/tools/ripgrep.js';
import { withEnv, withoutRipgrep } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

describe('SEARCH_ENGINES: the engine per tool and core count', () => {
  // one example per row of the table
  it.each([
    { job: 'glob', cores: 1, engine: { engine: 'node' } },
    { job: 'glob', cores: 2, engine: { engine: 'node' } },
    { job: 'glob', cores: 8, engine: { engine: 'rg', args: [] } },
    { job: 'grep', cores: 2, engine: { engine: 'rg', args: [] } },
  ] as const)('$job on $cores cores → $engine', ({ job, cores, engine }) => {
    expect(searchEngine(job, cores)).toEqual(engine);
  });

  it('has a row for every job at any core count', () => {
    for (const job of ['glob', 'grep'] as const)
      expect(SEARCH_ENGINES.some((r) => r.job === job && r.maxCores === Infinity)).toBe(true);
  });

  it('OPENCODE_RIPGREP_THREADS and OPENCODE_RIPGREP_PATH override the table; a bad value says what to set', async () => {
    await withEnv({ OPENCODE_RIPGREP_THREADS: '3' }, async () =>
      expect(searchEngine('glob', 2)).toEqual({ engine: 'rg', args: ['-j3'] }),
    );
    await withEnv({ OPENCODE_RIPGREP_THREADS: 'default' }, async () =>
      expect(searchEngine('glob', 2)).toEqual({ engine: 'rg', args: [] }),
    );
    await withEnv({ OPENCODE_RIPGREP_PATH: '/opt/rg' }, async () =>
      expect(searchEngine('glob', 2)).toEqual({ engine: 'rg', args: [] }),
    );
    await withEnv({ OPENCODE_RIPGREP_THREADS: 'two' }, async () =>
      expect(() => searchEngine('grep')).toThrow(
        'OPENCODE_RIPGREP_THREADS must be a whole number from 1 to 999 (rg -jN) or "default", got "two"; unset it to let opencode choose',
      ),
    );
  });
});

/**
 * A git project of 600 files in 30 folders (3 levels), with ignored files, a hidden folder, a
 * skipped folder and a symbolic link: enough entries for rg's threads to interleave its output.
 * Every 7th file holds the needle; mtimes are spread so grep's newest-first order is exercised.
 */
function bigProject(): string {
  const root = tempDir('threads');
  const files: Record<string, string> = { '.gitignore': 'ignored/\n*.log\n' };
  for (let i = 0; i < 600; i++) {
    const dir = `pkg${i % 5}/mod${i % 6}/part${i % 2}`;
    files[`${dir}/f${i}.${i % 3 === 0 ? 'md' : 'ts'}`] =
      i % 7 === 0 ? `export const x${i} = 'needle';\n` : `export const x${i} = ${i};\n`;
  }
  Object.assign(files, {
    'ignored/a.ts': 'needle',
    'pkg0/x.log': 'needle',
    '.hidden/h.ts': 'needle',
    'node_modules/dep/d.ts': 'needle',
  });
  writeTree(root, files);
  let t = 1_700_000_000;
  for (const rel of Object.keys(files)) utimesSync(join(root, rel), t, (t += 7));
  symlinkSync(join(root, 'pkg1'), join(root, 'linked'));
  git(root, 'init', '-q');
  return root;
}

describe('every thread count and the Node fallback give the same result', () => {
  const root = bigProject();
  const ctx = toolContext(root);
  const cases = [
    { tool: globTool, input: { pattern: '**/*.ts' }, count: 'number_of_files' },
    { tool: globTool, input: { pattern: '**/*' }, count: 'number_of_files' },
    { tool: globTool, input: { pattern: '**/*.ts', path: 'linked' }, count: 'number_of_files' },
    { tool: grepTool, input: { pattern: 'needle' }, count: 'number_of_matches' },
    { tool: grepTool, input: { pattern: 'needle', include: '*.md' }, count: 'number_of_matches' },
  ] as const;

  it.each(cases)('$tool.name $input', async ({ tool, input, count }) => {
    const run = () => runTool(tool, input, ctx);
    const fallback = await withoutRipgrep(run);
    expect(fallback.isError).toBe(false);
    expect(Number(fallback.metadata?.[count])).toBeGreaterThan(10);
    for (const threads of ['1', '2', '4', 'default']) {
      const viaRg = await withEnv({ OPENCODE_RIPGREP_THREADS: threads }, run);
      expect({ threads, ...viaRg }).toEqual({ threads, ...fallback });
    }
    // and the table's own choice on this machine
    expect(await run()).toEqual(fallback);
  });
});
