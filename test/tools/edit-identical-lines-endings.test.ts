/**
 * edit in a file whose identical lines differ only in their line ending
 * (`same\r\nsame\n`): removing one of them leaves the kept one with its
 * own ending. The edit knows where it replaced, so the endings follow the place, not a line diff
 * (which paired the kept line with the removed one and gave it the removed one's `\r\n`). Exact bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { lineSourcesOfSpans } from '../../src/tools/text-document.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

async function viewThenEdit(bytes: string, oldString: string, newString: string, replaceAll = false) {
  const path = join(ws.dir, 'f.txt');
  writeFileSync(path, bytes);
  await runTool(viewTool, { file_path: path }, ws.rec.ctx);
  const result = await runTool(
    editTool,
    { file_path: path, old_string: oldString, new_string: newString, replace_all: replaceAll },
    ws.rec.ctx,
  );
  expect(result.isError).toBe(false);
  return readFileSync(path, 'latin1');
}

describe('edit: identical lines with different endings', () => {
  it.each([
    ['remove the first of two (old_string with both breaks)', 'same\r\nsame\n', 'same\nsame\n', 'same\n', 'same\n'],
    ['remove the first of two (old_string up to the second line)', 'same\r\nsame\n', 'same\nsame', 'same', 'same\n'],
    ['remove the first, anchored by the line before', 'x\r\nsame\r\nsame\ny\n', 'x\nsame', 'x', 'x\r\nsame\ny\n'],
    ['remove the second, anchored by the line after', 'x\r\nsame\r\nsame\ny\n', 'same\ny', 'y', 'x\r\nsame\r\ny\n'],
    ['remove the first of two LF-then-CRLF', 'a\nsame\nsame\r\nb\r\n', 'a\nsame\n', 'a\n', 'a\nsame\r\nb\r\n'],
    ['remove a line between two identical ones', 'k\r\nmid\nk\n', 'mid\n', '', 'k\r\nk\n'],
    [
      'replace the first of two identical lines in place',
      'same\r\nsame\n',
      'same\nsame',
      'SAME\nsame',
      'SAME\r\nsame\n',
    ],
    [
      'insert between two identical lines: both keep theirs, the new one gets the dominant',
      'same\nsame\r\nz\r\n',
      'same\nsame',
      'same\nnew\nsame',
      'same\nnew\r\nsame\r\nz\r\n',
    ],
    [
      'a change inside the second of two identical lines',
      'same\r\nsame\n',
      'same\nsame',
      'same\nSAME',
      'same\r\nSAME\n',
    ],
  ])('%s', async (_name, bytes, oldString, newString, expected) => {
    expect(await viewThenEdit(bytes, oldString, newString)).toBe(expected);
  });

  it('replace_all removes each `drop` line; every kept line keeps its ending', async () => {
    expect(await viewThenEdit('keep\r\ndrop\nkeep\ndrop\r\nkeep\r\n', 'drop\n', '', true)).toBe(
      'keep\r\nkeep\nkeep\r\n',
    );
  });
});

describe('lineSourcesOfSpans', () => {
  it.each([
    ['no spans: every line its own', 'a\nb\n', [], [0, 1, 2]],
    ['a change inside a line', 'a\nb\nc', [{ start: 2, end: 3, replacement: 'B' }], [0, 1, 2]],
    ['a removed break', 'a\nb\nc', [{ start: 1, end: 3, replacement: '' }], [1, 2]],
    [
      'two breaks where one was: the first is new',
      'a\nb',
      [{ start: 0, end: 2, replacement: 'x\ny\n' }],
      [undefined, 0, 1],
    ],
    ['a deletion at the start keeps the shared end', 's\ns\n', [{ start: 0, end: 4, replacement: 's\n' }], [1, 2]],
    [
      'an insertion keeps the breaks on both sides',
      's\ns',
      [{ start: 0, end: 3, replacement: 's\nn\ns' }],
      [0, undefined, 1],
    ],
  ])('%s', (_name, text, spans, expected) => {
    expect(lineSourcesOfSpans(text, spans)).toEqual(expected);
  });
});
