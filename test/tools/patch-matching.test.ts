import { describe, expect, it } from 'vitest';
import {
  applyHunks,
  closestWindow,
  findAnchor,
  findContext,
  HunkMismatchError,
  MAX_PATCH_FUZZ,
} from '../../src/tools/patch-apply.js';
import { parsePatch } from '../../src/tools/patch-parse.js';

/** The hunks of a one-file Update patch whose body is `lines`. */
function hunks(...lines: string[]) {
  const [op] = parsePatch(['*** Begin Patch', '*** Update File: f', ...lines, '*** End Patch'].join('\n'));
  if (op.kind !== 'update') throw new Error('not an update');
  return op.hunks;
}

function mismatch(text: string, body: string[]): HunkMismatchError {
  try {
    applyHunks(text, hunks(...body));
  } catch (err) {
    if (err instanceof HunkMismatchError) return err;
    throw err;
  }
  throw new Error('expected a HunkMismatchError');
}

describe('patch matching: fuzz levels', () => {
  const file = 'a\n  b  \nc\n';

  it('an exact match costs 0', () => {
    expect(applyHunks('a\nb\nc\n', hunks('@@', ' a', '-b', '+B', ' c'))).toEqual({
      text: 'a\nB\nc\n',
      lineSources: [0, 1, 2],
      fuzz: 0,
      loose: [],
    });
  });

  it("a match with trailing whitespace ignored costs 1, and keeps the file's context lines", () => {
    expect(applyHunks(file, hunks('@@', ' a', '   b', '-c', '+C'))).toEqual({
      text: 'a\n  b  \nC\n',
      lineSources: [0, 1, 2],
      fuzz: 1,
      loose: [{ hunk: 1, patchLine: 3, fuzz: 1, reason: 'matched at line 1 only with trailing whitespace ignored' }],
    });
  });

  it('a match with indentation ignored costs 100', () => {
    const result = applyHunks(file, hunks('@@', ' a', ' b', '-c'));
    expect(result.text).toBe('a\n  b  \n');
    expect(result.fuzz).toBe(100);
    expect(result.loose[0].reason).toBe('matched at line 1 only with indentation and trailing whitespace ignored');
  });

  it('an anchor found only with whitespace ignored costs 1', () => {
    const result = applyHunks('  def f():\n    x = 1\n', hunks('@@ def f():', '-    x = 1', '+    x = 2'));
    expect(result).toEqual({
      text: '  def f():\n    x = 2\n',
      lineSources: [0, 1],
      fuzz: 1,
      loose: [
        { hunk: 1, patchLine: 3, fuzz: 1, reason: 'its @@ line matched only with whitespace ignored, at line 1' },
      ],
    });
  });

  it('an End-of-File hunk found away from the end costs 10,000', () => {
    const result = applyHunks('x\ny\nz\n', hunks('@@', '-x', '+X', '*** End of File'));
    expect(result.text).toBe('X\ny\nz\n');
    expect(result.fuzz).toBe(10_000);
    expect(result.loose[0].reason).toBe(
      'is marked "*** End of File" but matched at line 1, not at the end of the file',
    );
  });

  it("the limit is the original's 3", () => {
    expect(MAX_PATCH_FUZZ).toBe(3);
  });
});

describe('patch matching: placement', () => {
  it('an End-of-File hunk matches at the end of a file that ends with a newline (the original never did)', () => {
    expect(applyHunks('x\nend\nx\nend\n', hunks('@@', ' end', '+after', '*** End of File'))).toEqual({
      text: 'x\nend\nx\nend\nafter\n',
      lineSources: [0, 1, 2, 3, undefined],
      fuzz: 0,
      loose: [],
    });
  });

  it('lines added by an End-of-File hunk with no context go at the end, before the final newline', () => {
    expect(applyHunks('a\nb\n', hunks('@@', '+c', '*** End of File')).text).toBe('a\nb\nc\n');
  });

  it('a file without a final newline keeps it that way', () => {
    expect(applyHunks('a\nb', hunks('@@', ' a', '-b', '+B')).text).toBe('a\nB');
  });

  it('lines added to an empty file end with a newline', () => {
    expect(applyHunks('', hunks('@@', '+first')).text).toBe('first\n');
  });

  it('removing every line gives an empty file', () => {
    expect(applyHunks('a\nb\n', hunks('@@', '-a', '-b')).text).toBe('');
  });

  it('the anchor picks the occurrence after it', () => {
    const text = 'function a() {\n  return 1;\n}\nfunction b() {\n  return 1;\n}\n';
    expect(applyHunks(text, hunks('@@ function b() {', '-  return 1;', '+  return 2;')).text).toBe(
      'function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\n',
    );
  });

  it('hunks apply in order, each searched after the previous one', () => {
    const text = 'x\n1\nx\n2\nx\n';
    expect(applyHunks(text, hunks('@@', ' 1', '-x', '+A', '@@', '-x', '+B')).text).toBe('x\n1\nA\n2\nB\n');
  });

  it('an anchor already passed keeps the position (two hunks in one function)', () => {
    const text = 'def f():\n  a = 1\n  b = 2\n';
    expect(
      applyHunks(text, hunks('@@ def f():', '-  a = 1', '+  a = 10', '@@ def f():', '-  b = 2', '+  b = 20')).text,
    ).toBe('def f():\n  a = 10\n  b = 20\n');
  });

  it('the helpers report indexes and fuzz', () => {
    expect(findContext(['a', 'b', 'a', 'b'], ['a', 'b'], 0, true)).toEqual({ index: 2, fuzz: 0 });
    expect(findContext(['a', 'b '], ['b'], 0, false)).toEqual({
      index: 1,
      fuzz: 1,
      loosely: 'with trailing whitespace ignored',
    });
    expect(findContext(['a'], ['zzz'], 0, false)).toBeUndefined();
    expect(findAnchor(['x', 'def f():', 'y'], 'def f():', 0)).toEqual({ index: 2, fuzz: 0 });
    expect(findAnchor(['x'], 'nope', 0)).toBeUndefined();
  });
});

describe('patch matching: a hunk that is not in the file', () => {
  const file = [
    'import os',
    '',
    'def load(path):',
    '    with open(path) as f:',
    '        return f.read()',
    '',
    'def save():',
    '    pass',
    '',
  ].join('\n');

  it('names the hunk and shows the closest lines of the file with line numbers', () => {
    const err = mismatch(file, [
      '@@',
      ' def load(path):',
      '-    with open(path, "r") as f:',
      '+    with open(path, "rb") as f:',
      '         return f.read()',
    ]);
    expect(err.hunk).toBe(1);
    expect(err.patchLine).toBe(3);
    expect(err.message).toBe(
      'hunk 1 (patch line 3): its context and removed lines were not found in the file.\n' +
        'The closest lines in the file (line 3):\n' +
        '     3|def load(path):\n' +
        '     4|    with open(path) as f:\n' +
        '     5|        return f.read()',
    );
  });

  it('says where the search started for a later hunk', () => {
    const err = mismatch(file, ['@@', ' import os', '@@', '-def sav():']);
    expect(err.hunk).toBe(2);
    expect(err.message).toBe(
      'hunk 2 (patch line 5): its context and removed lines were not found in the file after line 1.\n' +
        'The closest lines in the file (line 7):\n' +
        '     7|def save():',
    );
  });

  it('says when the hunks are out of file order', () => {
    const err = mismatch(file, ['@@', ' def save():', '@@', '-import os']);
    expect(err.message).toBe(
      'hunk 2 (patch line 5): its context and removed lines occur at line 1, before where the previous hunk ended (line 7). ' +
        'Hunks of one file must follow the order of the file, and must not overlap.',
    );
  });

  it('refuses an anchor that is not in the file (the original ignored it)', () => {
    const err = mismatch(file, ['@@ def lod(path):', '-    pass']);
    expect(err.message).toBe(
      'hunk 1 (patch line 3): the @@ line "def lod(path):" is not in the file.\n' +
        'The closest lines in the file (line 3):\n' +
        '     3|def load(path):',
    );
  });

  it('says so when nothing in the file resembles the hunk', () => {
    expect(mismatch('aaaa\n', ['@@', '-zzzz']).message).toBe(
      'hunk 1 (patch line 3): its context and removed lines were not found in the file. No lines of the file resemble them.',
    );
    expect(mismatch('', ['@@', '-zzzz']).message).toBe(
      'hunk 1 (patch line 3): its context and removed lines were not found in the file. The file is empty.',
    );
  });

  it('closestWindow scores each window by line similarity', () => {
    expect(closestWindow(['alpha', 'beta', 'gamma', 'delta'], ['gamma', 'delt'])).toEqual({
      index: 2,
      score: 1 + (2 * 3) / (4 + 3),
    });
  });
});
