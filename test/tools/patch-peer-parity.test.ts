/**
 * Cases where our patch tool disagreed with codex's apply_patch: a hunk of added lines
 * only, line endings of kept lines next to removed identical ones, and markers with spaces around
 * them (codex scenarios 016, 017, 018, 020). Each asserts the exact bytes on disk.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchTool } from '../../src/tools/patch.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

/** writes `content` at `name` (in the temp dir) and marks it read, as view would */
function readFile(name: string, content: string): string {
  const path = join(ws.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

async function applyPatch(text: string) {
  return runTool(patchTool, { patch_text: text }, ws.rec.ctx);
}

describe('patch: a hunk of added lines only', () => {
  it('with a bare @@ goes at the end of the file, as codex appends it (scenario 016)', async () => {
    const path = readFile('input.txt', 'line1\nline2\n');
    const result = await applyPatch(
      ['*** Begin Patch', '*** Update File: input.txt', '@@', '+added line 1', '+added line 2', '*** End Patch'].join(
        '\n',
      ),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('line1\nline2\nadded line 1\nadded line 2\n');
  });

  it('with no @@ at all goes at the end too, before nothing else', async () => {
    const path = readFile('a.txt', 'one\ntwo');
    await applyPatch(['*** Begin Patch', '*** Update File: a.txt', '+three', '*** End Patch'].join('\n'));
    // the file had no final newline: the added line follows the last one, and still none after it
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\nthree');
  });

  it('after an earlier hunk goes at the end of the file, not where that hunk ended', async () => {
    const path = readFile('b.txt', 'a\nb\nc\nd\n');
    await applyPatch(
      ['*** Begin Patch', '*** Update File: b.txt', '@@', '-a', '+A', '@@', '+e', '*** End Patch'].join('\n'),
    );
    expect(readFileSync(path, 'utf8')).toBe('A\nb\nc\nd\ne\n');
  });

  it('with an @@ line goes right after that line', async () => {
    const path = readFile('c.py', 'def f():\n    pass\ndef g():\n    pass\n');
    await applyPatch(
      ['*** Begin Patch', '*** Update File: c.py', '@@ def g():', '+    """doc"""', '*** End Patch'].join('\n'),
    );
    expect(readFileSync(path, 'utf8')).toBe('def f():\n    pass\ndef g():\n    """doc"""\n    pass\n');
  });

  it('in a CRLF file gets CRLF', async () => {
    const path = readFile('d.txt', 'x\r\ny\r\n');
    await applyPatch(['*** Begin Patch', '*** Update File: d.txt', '@@', '+z', '*** End Patch'].join('\n'));
    expect(readFileSync(path, 'utf8')).toBe('x\r\ny\r\nz\r\n');
  });
});

describe('patch: every kept line keeps its own line ending', () => {
  it('same\\r\\nsame\\n, first removed, second kept: stays same\\n', async () => {
    const path = readFile('same.txt', 'same\r\nsame\n');
    const result = await applyPatch(
      ['*** Begin Patch', '*** Update File: same.txt', '@@', '-same', ' same', '*** End Patch'].join('\n'),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('same\n');
  });

  it('same\\nsame\\r\\n, second removed, first kept: stays same\\n', async () => {
    const path = readFile('same2.txt', 'same\nsame\r\n');
    await applyPatch(
      ['*** Begin Patch', '*** Update File: same2.txt', '@@', ' same', '-same', '*** End Patch'].join('\n'),
    );
    expect(readFileSync(path, 'utf8')).toBe('same\n');
  });

  it("in a mixed file: a replaced line keeps the removed one's ending, a new line gets the dominant one", async () => {
    const path = readFile('mixed.txt', 'a\r\nb\nc\r\nd\r\n');
    await applyPatch(
      ['*** Begin Patch', '*** Update File: mixed.txt', '@@', ' a', '-b', '+B', '+B2', ' c', '*** End Patch'].join(
        '\n',
      ),
    );
    // B2 replaces b (paired from the end) and keeps its \n; B is new and takes the dominant \r\n
    expect(readFileSync(path, 'utf8')).toBe('a\r\nB\r\nB2\nc\r\nd\r\n');
  });

  it("removing one of repeated identical lines in a mixed file leaves the other lines' endings alone", async () => {
    const path = readFile('rep.txt', 'x\nx\r\nx\ny\r\n');
    await applyPatch(
      ['*** Begin Patch', '*** Update File: rep.txt', '@@', ' x', '-x', ' x', ' y', '*** End Patch'].join('\n'),
    );
    expect(readFileSync(path, 'utf8')).toBe('x\nx\ny\r\n');
  });
});

describe('patch: markers with spaces around them', () => {
  it('a file header indented by two spaces (codex scenario 017)', async () => {
    const path = readFile('foo.txt', 'old\n');
    const result = await applyPatch(
      ['*** Begin Patch', '  *** Update File: foo.txt', '@@', '-old', '+new', '*** End Patch', ''].join('\n'),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('new\n');
  });

  it('" *** Begin Patch" and "*** End Patch " (scenario 018)', async () => {
    const path = readFile('file.txt', 'one\n');
    await applyPatch(
      [' *** Begin Patch', '*** Update File: file.txt', '@@', '-one', '+two', '*** End Patch ', ''].join('\n'),
    );
    expect(readFileSync(path, 'utf8')).toBe('two\n');
  });

  it('"*** Begin Patch " and " *** End Patch" after a hunk line (scenario 020)', async () => {
    const path = readFile('file.txt', 'one\n');
    const result = await applyPatch(
      ['*** Begin Patch ', '*** Update File: file.txt', '@@', '-one', '+two', ' *** End Patch', ''].join('\n'),
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('two\n');
  });

  it('padded headers after an Add and a Delete, with trailing spaces', async () => {
    readFile('gone.txt', 'bye\n');
    const path = readFile('kept.txt', 'k\n');
    await applyPatch(
      [
        '*** Begin Patch',
        ' *** Add File: new.txt  ',
        '+hello',
        '\t*** Delete File: gone.txt ',
        '   *** Update File: kept.txt',
        '-k',
        '+K',
        ' *** End Patch',
      ].join('\n'),
    );
    expect(readFileSync(join(ws.dir, 'new.txt'), 'utf8')).toBe('hello\n');
    expect(() => readFileSync(join(ws.dir, 'gone.txt'))).toThrow(/ENOENT/);
    expect(readFileSync(path, 'utf8')).toBe('K\n');
  });
});
