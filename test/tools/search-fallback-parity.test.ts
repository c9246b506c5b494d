import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/tools/glob.js';
import { searchFiles } from '../../src/tools/grep.js';
import { bothWays } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, git, setAge, tempDir, writeTree } from '../support/temp-tree.js';

afterAll(cleanupTempDirs);

/** A deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['src', 'lib', 'gen', 'out', 'build', '.cache', 'docs', 'a b', 'node_modules', 'x:y'];
const FILES = ['index.ts', 'util.js', 'README.md', '.env', 'data.bin', 'keep.log', 'notes.txt', 'a.gen.ts', 'Main.TS'];
const RULES = [
  '*.log',
  '!keep.log',
  'gen/',
  '/out',
  'docs/**/*.md',
  '**/tmp',
  '*.gen.ts',
  '!src/a.gen.ts',
  '.cache',
  'node_modules',
  'lib/*.js',
  '{a,b}*.txt',
  'build/',
  '!build/',
  'notes.txt',
  '!.env',
  'Main.TS',
];

/** A tree of random folders and files with random ignore files (.gitignore, .ignore, nested) at several levels. */
function randomTree(seed: number): string {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const dir = tempDir('bin', `seed-${seed}`);
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < 120; i++) {
    const depth = Math.floor(rnd() * 4);
    const parts = Array.from({ length: depth }, () => pick(NAMES));
    const name = pick(FILES);
    const rel = [...parts, name].join('/');
    const body = rnd() < 0.5 ? `line one\nneedle ${i}\n` : `nothing ${i}\n`;
    files[rel] = name === 'data.bin' ? Buffer.from(`needle\0${i}`) : body;
  }
  for (const at of ['', 'src/', 'lib/', 'docs/', 'src/lib/']) {
    for (const kind of ['.gitignore', '.ignore']) {
      if (rnd() < 0.6) files[`${at}${kind}`] = Array.from({ length: 3 }, () => pick(RULES)).join('\n') + '\n';
    }
  }
  // rules above the searched folder, which apply outside a repository only
  files['../.gitignore'] = `${pick(RULES)}\n${pick(RULES)}\n`;
  writeTree(dir, files);
  Object.keys(files).forEach((rel, i) => setAge(dir, rel, i));
  if (rnd() < 0.5) git(dir, 'init', '-q');
  // a nested repository ends the outer repository's rules
  for (const sub of ['src', 'lib']) if (rnd() < 0.3 && existsSync(join(dir, sub))) git(join(dir, sub), 'init', '-q');
  symlinkSync(join(dir, 'src'), join(dir, 'src-link'));
  return dir;
}

describe('rg and the Node fallback select the same files', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`glob and grep agree on random tree ${seed}`, async () => {
      const dir = randomTree(seed);
      const signal = new AbortController().signal;
      for (const pattern of ['**', '**/*.ts', '**/.env', 'src/**', 'node_modules/**/*', '**/*.{md,txt}']) {
        const { ripgrep, fallback } = await bothWays(() => findFiles(dir, pattern, signal, 10_000));
        expect({ pattern, files: fallback.files }).toEqual({ pattern, files: ripgrep.files });
      }
      for (const query of [
        { pattern: 'needle', literal: false },
        { pattern: 'needle \\d+$', literal: false },
        { pattern: 'needle', literal: false, include: '*.{ts,js}' },
        { pattern: 'line one', literal: true, include: '*.md,*.txt' },
      ]) {
        const { ripgrep, fallback } = await bothWays(() => searchFiles(dir, query, signal, 10_000));
        expect({ query, matches: fallback.matches }).toEqual({ query, matches: ripgrep.matches });
      }
    });
  }
});
