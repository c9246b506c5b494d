import { describe, expect, it } from 'vitest';
import { globToRegExp, namesHiddenEntries, patternWords, splitTopLevelCommas } from '../../src/tools/glob-pattern.js';

const matches = (pattern: string, path: string) => globToRegExp(pattern).test(path);

describe('glob patterns', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**/*.ts', 'lib/src/a.ts', false],
    ['src/**', 'src/x/y', true],
    ['**', 'any/thing', true],
    ['a**b.ts', 'aXXb.ts', true],
    ['a**b.ts', 'a/b.ts', false],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['{src,lib}/**/*.{ts,js}', 'lib/x/a.js', true],
    ['{a,{b,c}}.txt', 'c.txt', true],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['[!abc].txt', 'd.txt', true],
    ['[a-c]x', 'bx', true],
    ['file(1).txt', 'file(1).txt', true],
    ['a+b$.txt', 'a+b$.txt', true],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'a.txt', false],
    ['{unclosed', '{unclosed', true],
    ['[unclosed', '[unclosed', true],
    ['closed}', 'closed}', true],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it('splits include lists at top-level commas only', () => {
    expect(splitTopLevelCommas('*.ts, *.{js,jsx},')).toEqual(['*.ts', '*.{js,jsx}']);
  });

  it('knows when a pattern names hidden entries', () => {
    expect(namesHiddenEntries('.github/**')).toBe(true);
    expect(namesHiddenEntries('**/.env')).toBe(true);
    expect(namesHiddenEntries('{src,.config}/*')).toBe(true);
    expect(namesHiddenEntries('**/*.ts')).toBe(false);
    expect(namesHiddenEntries('../x/*.ts')).toBe(false);
  });

  it('gives the literal words of a pattern', () => {
    expect([...patternWords('node_modules/{zod,react}/**/*.js')]).toEqual([
      'node_modules',
      'zod',
      'react',
      '**',
      '*.js',
    ]);
  });
});
