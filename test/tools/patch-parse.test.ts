import { describe, expect, it } from 'vitest';
import { parsePatch, PatchParseError } from '../../src/tools/patch-parse.js';

/** the patch text from its lines */
const patch = (...lines: string[]) => lines.join('\n');

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (err) {
    if (err instanceof PatchParseError) return err;
    throw err;
  }
  throw new Error('expected a PatchParseError');
}

describe('patch parsing: headers', () => {
  it('reads an Update with one hunk, its context, removed and added lines', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      ' keep',
      '-old',
      '+new',
      ' after',
      '*** End Patch',
    );
    expect(parsePatch(text)).toEqual([
      {
        kind: 'update',
        path: 'src/a.ts',
        hunks: [
          {
            oldLines: ['keep', 'old', 'after'],
            chunks: [{ oldIndex: 1, removed: ['old'], added: ['new'] }],
            endOfFile: false,
            line: 3,
          },
        ],
        line: 2,
      },
    ]);
  });

  it('reads "*** Move to:" right after the Update header', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: a.ts',
      '*** Move to: lib/b.ts',
      '@@',
      '-x',
      '+y',
      '*** End Patch',
    );
    expect(parsePatch(text)).toEqual([
      {
        kind: 'update',
        path: 'a.ts',
        moveTo: 'lib/b.ts',
        hunks: [
          { oldLines: ['x'], chunks: [{ oldIndex: 0, removed: ['x'], added: ['y'] }], endOfFile: false, line: 4 },
        ],
        line: 2,
      },
    ]);
  });

  it('reads a Move with no hunk (a pure rename)', () => {
    const text = patch('*** Begin Patch', '*** Update File: a.ts', '*** Move to: b.ts', '*** End Patch');
    expect(parsePatch(text)).toEqual([{ kind: 'update', path: 'a.ts', moveTo: 'b.ts', hunks: [], line: 2 }]);
  });

  it('reads an Add as its lines joined, ending with a newline', () => {
    const text = patch('*** Begin Patch', '*** Add File: new.txt', '+one', '+', '+  three', '*** End Patch');
    expect(parsePatch(text)).toEqual([{ kind: 'add', path: 'new.txt', content: 'one\n\n  three\n', line: 2 }]);
  });

  it('reads an Add with no lines as an empty file', () => {
    expect(parsePatch(patch('*** Begin Patch', '*** Add File: empty.txt', '*** End Patch'))).toEqual([
      { kind: 'add', path: 'empty.txt', content: '', line: 2 },
    ]);
  });

  it('reads a Delete, and several files in patch order', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Delete File: old.txt',
      '*** Add File: b.txt',
      '+b',
      '*** Update File: c.txt',
      '-c',
      '+C',
      '*** End Patch',
    );
    expect(parsePatch(text).map((op) => [op.kind, op.path, op.line])).toEqual([
      ['delete', 'old.txt', 2],
      ['add', 'b.txt', 3],
      ['update', 'c.txt', 5],
    ]);
  });

  it('trims the text, reads CRLF as LF, trims paths and allows blank lines between file sections', () => {
    const text =
      '\n\n  *** Begin Patch\r\n*** Delete File:  a.txt  \r\n\r\n*** Delete File: b.txt\r\n*** End Patch\r\n\n';
    expect(parsePatch(text)).toEqual([
      { kind: 'delete', path: 'a.txt', line: 2 },
      { kind: 'delete', path: 'b.txt', line: 4 },
    ]);
  });

  it('accepts text after "*** Begin Patch" on the first line (the original checks the prefix)', () => {
    expect(parsePatch(patch('*** Begin Patch v2', '*** Delete File: a', '*** End Patch'))).toHaveLength(1);
  });
});

describe('patch parsing: hunks', () => {
  it('takes the text after "@@ " as the anchor, and "@@" alone as none', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: a.py',
      '@@ def f():',
      '-  x = 1',
      '+  x = 2',
      '@@',
      ' y',
      '+z',
      '*** End Patch',
    );
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks).toEqual([
      {
        anchor: 'def f():',
        oldLines: ['  x = 1'],
        chunks: [{ oldIndex: 0, removed: ['  x = 1'], added: ['  x = 2'] }],
        endOfFile: false,
        line: 3,
      },
      { oldLines: ['y'], chunks: [{ oldIndex: 1, removed: [], added: ['z'] }], endOfFile: false, line: 6 },
    ]);
  });

  it('takes a unified-diff hunk header ("@@ -1,3 +1,4 @@ …") as a bare @@, not as an anchor', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: a',
      '@@ -10,3 +10,3 @@ func main() {',
      '-a',
      '+b',
      '*** End Patch',
    );
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks[0].anchor).toBeUndefined();
  });

  it('splits a hunk into chunks at context lines, and keeps a removal run with its additions', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: a',
      '@@',
      ' 1',
      '-2',
      '+two',
      '-3',
      ' 4',
      '+4.5',
      ' 5',
      '*** End Patch',
    );
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks[0]).toEqual({
      oldLines: ['1', '2', '3', '4', '5'],
      chunks: [
        { oldIndex: 1, removed: ['2', '3'], added: ['two'] },
        { oldIndex: 4, removed: [], added: ['4.5'] },
      ],
      endOfFile: false,
      line: 3,
    });
  });

  it('takes an empty line, and a line without a prefix, as context (the original is lenient here)', () => {
    const text = patch('*** Begin Patch', '*** Update File: a', '@@', '', 'no prefix', '-x', '*** End Patch');
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks[0].oldLines).toEqual(['', 'no prefix', 'x']);
  });

  it('lets the first hunk of a file leave out its @@', () => {
    const text = patch('*** Begin Patch', '*** Update File: a', ' x', '-y', '*** End Patch');
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks).toEqual([
      { oldLines: ['x', 'y'], chunks: [{ oldIndex: 1, removed: ['y'], added: [] }], endOfFile: false, line: 3 },
    ]);
  });

  it('marks a hunk followed by "*** End of File"', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: a',
      '@@',
      ' last',
      '+appended',
      '*** End of File',
      '*** End Patch',
    );
    const [op] = parsePatch(text);
    expect(op.kind === 'update' && op.hunks).toEqual([
      { oldLines: ['last'], chunks: [{ oldIndex: 1, removed: [], added: ['appended'] }], endOfFile: true, line: 3 },
    ]);
  });
});

describe('patch parsing: errors name the line', () => {
  it('refuses a text that does not start with "*** Begin Patch"', () => {
    expect(parseError(patch('*** Update File: a', '*** End Patch')).message).toBe(
      'a patch must start with a line "*** Begin Patch" and end with a line "*** End Patch"',
    );
  });

  it('refuses a text whose last line is not "*** End Patch"', () => {
    expect(parseError(patch('*** Begin Patch', '*** Delete File: a')).message).toBe(
      'a patch must start with a line "*** Begin Patch" and end with a line "*** End Patch"',
    );
  });

  it('refuses an unknown line between file sections', () => {
    const err = parseError(patch('*** Begin Patch', '*** Delete File: a', 'stray', '*** End Patch'));
    expect(err.line).toBe(3);
    expect(err.message).toBe(
      'line 3: unknown line: "stray". Expected "*** Update File:", "*** Add File:", "*** Delete File:" or "*** End Patch"',
    );
  });

  it('refuses an Add line without "+"', () => {
    expect(parseError(patch('*** Begin Patch', '*** Add File: n', '+a', 'b', '*** End Patch')).message).toBe(
      'line 4: every line of an added file must start with "+" (an empty line is "+"); got "b"',
    );
  });

  it('refuses a duplicate path', () => {
    const text = patch('*** Begin Patch', '*** Update File: a', '-x', '*** Delete File: a', '*** End Patch');
    expect(parseError(text).message).toBe(
      'line 4: duplicate path a (already in the patch at line 2); put all changes to one file in one section',
    );
  });

  it('refuses a header without a path', () => {
    expect(parseError(patch('*** Begin Patch', '*** Delete File: ', '*** End Patch')).message).toBe(
      'line 2: "*** Delete File:" without a path',
    );
  });

  it('refuses a second hunk without @@ (after "*** End of File")', () => {
    const text = patch('*** Begin Patch', '*** Update File: a', '-x', '*** End of File', ' y', '*** End Patch');
    expect(parseError(text).message).toBe('line 5: expected "@@" to start the next hunk, or a file header; got " y"');
  });

  it('refuses an unknown "***" line inside an Update', () => {
    const text = patch('*** Begin Patch', '*** Update File: a', '-x', '*** Bogus', '*** End Patch');
    expect(parseError(text).message).toBe(
      'line 4: expected "@@" to start the next hunk, or a file header; got "*** Bogus"',
    );
  });

  it('refuses text after an early "*** End Patch"', () => {
    const text = patch('*** Begin Patch', '*** Delete File: a', '*** End Patch', '*** Delete File: b', '*** End Patch');
    expect(parseError(text).message).toBe('line 3: "*** End Patch" before the end of the patch text');
  });
});
