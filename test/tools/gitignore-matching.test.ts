import { describe, expect, it } from 'vitest';
import { Gitignore } from '../../src/tools/gitignore.js';

describe('gitignore matching (as ripgrep does it)', () => {
  const ig = Gitignore.parse(
    [
      '# a comment',
      '',
      'node_modules',
      'dist/',
      '/root-only.txt',
      'docs/*.md',
      '!docs/keep.md',
      '*.log   ',
      'trailing\\ ',
      '\\#hash',
      '\\!bang',
      'gen-{a,b}.ts',
      'deep/**/x.ts',
    ].join('\r\n'),
  );

  it.each([
    ['node_modules', true, 'ignore'],
    ['a/b/node_modules', true, 'ignore'],
    ['dist', true, 'ignore'],
    ['dist', false, undefined],
    ['root-only.txt', false, 'ignore'],
    ['sub/root-only.txt', false, undefined],
    ['docs/a.md', false, 'ignore'],
    ['docs/sub/a.md', false, undefined],
    ['docs/keep.md', false, 'whitelist'],
    ['x/y.log', false, 'ignore'],
    ['trailing ', false, 'ignore'],
    ['#hash', false, 'ignore'],
    ['!bang', false, 'ignore'],
    ['gen-b.ts', false, 'ignore'],
    ['deep/x.ts', false, 'ignore'],
    ['deep/1/2/x.ts', false, 'ignore'],
    ['src/index.ts', false, undefined],
  ])('%s (folder: %s) → %s', (path, isDir, expected) => {
    expect(ig.match(path, isDir)).toBe(expected);
  });

  it('does not test parent folders: a path inside an ignored folder is undecided, as in rg', () => {
    expect(ig.match('node_modules/react/index.js', false)).toBeUndefined();
  });

  it('lets the last matching rule win', () => {
    const last = Gitignore.parse('!a.txt\na.txt\n');
    expect(last.match('a.txt', false)).toBe('ignore');
    expect(Gitignore.parse('*.txt\n!a.txt\n').match('a.txt', false)).toBe('whitelist');
  });
});
