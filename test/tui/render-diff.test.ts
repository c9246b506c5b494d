import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffStats, renderDiff } from '../../src/tui/render/diff.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

/** A diff as the write tools make it (src/tools/diff.ts). */
function unified(path: string, before: string, after: string): string {
  return formatPatch(
    structuredPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 }),
    FILE_HEADERS_ONLY,
  );
}

const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const after = before.replace('line 2\n', 'line two\n').replace('line 11\n', 'line 11\nline 11.5\n');

describe('renderDiff', () => {
  it('draws the file header, hunk headers and old/new line numbers', () => {
    expect(renderDiff(unified('src/app.ts', before, after), 80, theme)).toEqual([
      'src/app.ts',
      '@@ -1,5 +1,5 @@',
      ' 1  1   line 1',
      ' 2    - line 2',
      '    2 + line two',
      ' 3  3   line 3',
      ' 4  4   line 4',
      ' 5  5   line 5',
      '@@ -9,4 +9,5 @@',
      ' 9  9   line 9',
      '10 10   line 10',
      '11 11   line 11',
      '   12 + line 11.5',
      '12 13   line 12',
    ]);
  });

  it('separates hunks that are far apart', () => {
    const long = Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const changed = long.replace('l2\n', 'L2\n').replace('l28\n', 'L28\n');
    expect(renderDiff(unified('x.txt', long, changed), 80, theme)).toEqual([
      'x.txt',
      '@@ -1,5 +1,5 @@',
      ' 1  1   l1',
      ' 2    - l2',
      '    2 + L2',
      ' 3  3   l3',
      ' 4  4   l4',
      ' 5  5   l5',
      '@@ -25,6 +25,6 @@',
      '25 25   l25',
      '26 26   l26',
      '27 27   l27',
      '28    - l28',
      '   28 + L28',
      '29 29   l29',
      '30 30   l30',
    ]);
  });

  it('cuts at maxLines with a final "… N more lines" line', () => {
    const lines = renderDiff(unified('src/app.ts', before, after), 80, theme, { maxLines: 5 });
    expect(lines).toEqual(['src/app.ts', '@@ -1,5 +1,5 @@', ' 1  1   line 1', ' 2    - line 2', '… 10 more lines']);
  });

  it('leaves a diff that fits maxLines whole', () => {
    const diff = unified('a.txt', 'a\n', 'b\n');
    expect(renderDiff(diff, 80, theme, { maxLines: 5 })).toEqual(['a.txt', '@@ -1,1 +1,1 @@', '1   - a', '  1 + b']);
  });

  it('cuts long lines to the width', () => {
    const diff = unified('a.txt', 'short\n', 'a much longer line than the width\n');
    expect(renderDiff(diff, 16, theme)).toEqual(['a.txt', '@@ -1,1 +1,1 @@', '1   - short', '  1 + a much lon']);
  });

  it('names a new file, a renamed file, and marks a missing final newline', () => {
    const created = '--- /dev/null\n+++ b/new.ts\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n';
    expect(renderDiff(created, 80, theme)).toEqual([
      'new.ts',
      '@@ -0,0 +1,1 @@',
      '  1 + x',
      '      No newline at end of file',
    ]);
    const renamed = '--- a/old.ts\n+++ b/new.ts\n@@ -1 +1 @@\n-a\n+b\n';
    expect(renderDiff(renamed, 80, theme)[0]).toBe('old.ts → new.ts');
  });

  it('draws one header per file of a multi-file patch', () => {
    const patch = unified('a.txt', 'a\n', 'A\n') + unified('b.txt', 'b\n', 'B\n');
    expect(renderDiff(patch, 80, theme).filter((l) => !l.startsWith('@@') && !/^\s*\d/.test(l))).toEqual([
      'a.txt',
      'b.txt',
    ]);
  });

  it('reads removed lines that look like file headers as removed lines', () => {
    const diff = unified('notes.md', '-- a\n--- b\nc\n', 'c\n');
    expect(renderDiff(diff, 80, theme)).toEqual([
      'notes.md',
      '@@ -1,3 +1,1 @@',
      '1   - -- a',
      '2   - --- b',
      '3 1   c',
    ]);
    expect(diffStats(diff)).toEqual({ additions: 0, removals: 2 });
  });

  it('gives no lines for an empty diff', () => {
    expect(renderDiff('', 80, theme)).toEqual([]);
  });
});

describe('diffStats', () => {
  it('counts added and removed lines, not the file headers', () => {
    expect(diffStats(unified('src/app.ts', before, after))).toEqual({ additions: 2, removals: 1 });
  });
});
