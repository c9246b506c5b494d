/**
 * More of codex's apply_patch scenarios, tried after the first parity fixes: lines
 * that differ from the file only in look-alike punctuation or spaces (codex's `seek_sequence` last
 * pass: `"` for `“`, `-` for `—`, a space for a no-break space), a patch wrapped in a shell heredoc
 * (codex's lenient parser), removing the last line of a file without a final newline (the kept
 * line lost its own break), and added-only hunks, End-of-File markers, CRLF files and files without a
 * final newline where we already agreed. Each asserts the exact bytes on disk or the exact refusal.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiLookalikeLine } from '../../src/tools/patch-apply.js';
import { patchTool } from '../../src/tools/patch.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

/** writes `content` at `name` and marks it read, as view would */
function readFile(name: string, content: string): string {
  const path = join(ws.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

const update = (name: string, ...hunk: string[]) =>
  ['*** Begin Patch', `*** Update File: ${name}`, ...hunk, '*** End Patch'].join('\n');
const apply = (text: string) => runTool(patchTool, { patch_text: text }, ws.rec.ctx);

describe('patch: look-alike punctuation and spaces', () => {
  it.each([
    [
      'curly quotes and an em dash in a context line',
      'x = “a” — y\nz\n',
      ['@@', ' x = "a" - y', '-z', '+Z'],
      'x = “a” — y\nZ\n',
    ],
    [
      'curly quotes in a removed line: the added line is written as given',
      'x = “a”\n',
      ['@@', '-x = "a"', '+x = "b"'],
      'x = "b"\n',
    ],
    ['a no-break space in the file', 'a\u00a0b\nc\n', ['@@', '-a b', '+ab'], 'ab\nc\n'],
    [
      'a typographic apostrophe and a minus sign',
      'it’s 3 − 1\nend\n',
      ['@@', " it's 3 - 1", '-end', '+END'],
      'it’s 3 − 1\nEND\n',
    ],
    [
      'an @@ anchor with curly quotes',
      'say(“hi”):\n  pass\n',
      ['@@ say("hi"):', '-  pass', '+  return'],
      'say(“hi”):\n  return\n',
    ],
    ['in a CRLF file the endings stay', 'q = ‘x’\r\nr\r\n', ['@@', " q = 'x'", '-r', '+R'], 'q = ‘x’\r\nR\r\n'],
    [
      'three such hunks in one file',
      '“a”\n1\n“b”\n2\n“c”\n3\n',
      ['@@', ' "a"', '-1', '+one', '@@', ' "b"', '-2', '+two', '@@', ' "c"', '-3', '+three'],
      '“a”\none\n“b”\ntwo\n“c”\nthree\n',
    ],
  ])('%s', async (_name, content, hunk, expected) => {
    const path = readFile('f.txt', content);
    const result = await apply(update('f.txt', ...hunk));
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(expected);
  });

  it('an exact match elsewhere wins over a look-alike one earlier', async () => {
    const path = readFile('g.txt', 'k = “v”\nk = "v"\n');
    await apply(update('g.txt', '@@', '-k = "v"', '+k = 1'));
    expect(readFileSync(path, 'utf8')).toBe('k = “v”\nk = 1\n');
  });

  it('asciiLookalikeLine maps each kind', () => {
    expect(asciiLookalikeLine('“a” ‘b’ – — − \u00a0\u2003\u202f\u3000x')).toBe('"a" \'b\' - - -     x');
  });
});

describe('patch: a shell heredoc around the patch', () => {
  it.each([["<<'EOF'"], ['<<EOF'], ['<<"EOF"'], ["<< 'EOF'"]])('%s … EOF is taken off', async (start) => {
    const path = readFile('h.txt', 'a\n');
    const result = await apply(
      [start, '*** Begin Patch', '*** Update File: h.txt', '@@', '-a', '+b', '*** End Patch', 'EOF'].join('\n'),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('b\n');
  });

  it('another heredoc word is still refused', async () => {
    const path = readFile('h.txt', 'a\n');
    const result = await apply(
      ["<<'END'", '*** Begin Patch', '*** Update File: h.txt', '@@', '-a', '+b', '*** End Patch', 'END'].join('\n'),
    );
    expect(result).toMatchObject({
      isError: true,
      output:
        'failed to parse patch: a patch must start with a line "*** Begin Patch" and end with a line "*** End Patch"',
    });
    expect(readFileSync(path, 'utf8')).toBe('a\n');
  });
});

describe('patch: a Move line with spaces around it, as the header it belongs to', () => {
  it('"  *** Move to: b.txt  " moves the file', async () => {
    readFile('a.txt', 'a\n');
    const result = await apply(
      ['*** Begin Patch', '*** Update File: a.txt', '  *** Move to: b.txt  ', '@@', '-a', '+A', '*** End Patch'].join(
        '\n',
      ),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(join(ws.dir, 'b.txt'), 'utf8')).toBe('A\n');
    expect(existsSync(join(ws.dir, 'a.txt'))).toBe(false);
  });
});

describe('patch: added-only hunks, End of File, CRLF and no final newline (agreeing with codex)', () => {
  it.each([
    ['an added-only hunk marked End of File', 'a\nb\n', ['@@', '+c', '*** End of File'], 'a\nb\nc\n'],
    ['an added-only hunk in a CRLF file without a final newline', 'a\r\nb', ['@@', '+c'], 'a\r\nb\r\nc'],
    ['an added-only hunk in an empty file', '', ['@@', '+c'], 'c\n'],
    ['two added-only hunks, in order at the end', 'a\n', ['@@', '+b', '@@', '+c'], 'a\nb\nc\n'],
    [
      'an added-only hunk after an @@ anchor in a CRLF file',
      'def f():\r\n    pass\r\n',
      ['@@ def f():', '+    x = 1'],
      'def f():\r\n    x = 1\r\n    pass\r\n',
    ],
    [
      'an End of File hunk takes the last of two equal lines',
      'a\nb\na\n',
      ['@@', '-a', '+A', '*** End of File'],
      'a\nb\nA\n',
    ],
    [
      'the last line of a file without a final newline removed: the kept line keeps its break (git, codex)',
      'a\nb',
      ['@@', ' a', '-b'],
      'a\n',
    ],
    ['the same in a CRLF file', 'a\r\nb', ['@@', '-b'], 'a\r\n'],
    ['the last two removed, the first kept', 'a\nb\nc', ['@@', ' a', '-b', '-c'], 'a\n'],
    ['the last line replaced: still no final newline', 'a\nb', ['@@', '-b', '+B'], 'a\nB'],
    ['every line removed', 'a\nb', ['@@', '-a', '-b'], ''],
    [
      'an @@ anchor with trailing spaces',
      'def g():\n    pass\n',
      ['@@ def g():   ', '-    pass', '+    return 1'],
      'def g():\n    return 1\n',
    ],
  ])('%s', async (_name, content, hunk, expected) => {
    const path = readFile('f.txt', content);
    const result = await apply(update('f.txt', ...hunk));
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(expected);
  });

  it('Move to keeps CRLF and removes the old path; Delete of a missing file and Add of an existing one are refused', async () => {
    readFile('m.txt', 'a\r\nb\r\n');
    const moved = await apply(
      ['*** Begin Patch', '*** Update File: m.txt', '*** Move to: sub/n.txt', '@@', '-a', '+A', '*** End Patch'].join(
        '\n',
      ),
    );
    expect(moved.isError).toBe(false);
    expect(readFileSync(join(ws.dir, 'sub', 'n.txt'), 'utf8')).toBe('A\r\nb\r\n');
    expect(existsSync(join(ws.dir, 'm.txt'))).toBe(false);

    const deleted = await apply('*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch');
    expect(deleted).toMatchObject({ isError: true, output: `file not found: ${join(ws.dir, 'nope.txt')}` });
    readFile('e.txt', 'a\n');
    const added = await apply('*** Begin Patch\n*** Add File: e.txt\n+b\n*** End Patch');
    expect(added).toMatchObject({
      isError: true,
      output: `file already exists and cannot be added: ${join(ws.dir, 'e.txt')}`,
    });
    expect(readFileSync(join(ws.dir, 'e.txt'), 'utf8')).toBe('a\n');
  });
});
