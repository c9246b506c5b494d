/**
 * edit on Windows line endings: old_string written with \n matches a
 * CRLF file, the written text uses the file's endings, and in a mixed file every line outside the
 * change keeps its own ending. Exact bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

async function viewThenEdit(name: string, bytes: string, oldString: string, newString: string) {
  const path = join(ws.dir, name);
  writeFileSync(path, bytes);
  await runTool(viewTool, { file_path: path }, ws.rec.ctx);
  const result = await runTool(editTool, { file_path: path, old_string: oldString, new_string: newString }, ws.rec.ctx);
  return { path, result, bytes: readFileSync(path, 'latin1') };
}

describe('edit: CRLF files', () => {
  it('matches an old_string written with \\n and writes the new lines with \\r\\n', async () => {
    const { path, result, bytes } = await viewThenEdit(
      'Program.cs',
      'class P {\r\n  static void Main() {\r\n    Run();\r\n  }\r\n}\r\n',
      '  static void Main() {\n    Run();\n  }',
      '  static void Main() {\n    Setup();\n    Run();\n  }',
    );
    expect(result.isError).toBe(false);
    expect(bytes).toBe('class P {\r\n  static void Main() {\r\n    Setup();\r\n    Run();\r\n  }\r\n}\r\n');
    // the model, the history and the diff see the text with \n only
    expect(ws.rec.history).toEqual([
      {
        sessionId: 'session-1',
        path,
        before: 'class P {\n  static void Main() {\n    Run();\n  }\n}\n',
        after: 'class P {\n  static void Main() {\n    Setup();\n    Run();\n  }\n}\n',
      },
    ]);
    expect(result.metadata).toMatchObject({ additions: 1, removals: 0 });
  });

  it('also accepts an old_string sent with \\r\\n', async () => {
    const { bytes } = await viewThenEdit('a.txt', 'one\r\ntwo\r\nthree\r\n', 'one\r\ntwo', 'one\r\n2');
    expect(bytes).toBe('one\r\n2\r\nthree\r\n');
  });

  it('keeps a file without a final line break without one', async () => {
    const { bytes } = await viewThenEdit('a.txt', 'one\r\ntwo', 'two', 'two\nthree');
    expect(bytes).toBe('one\r\ntwo\r\nthree');
  });
});

describe('edit: mixed line endings', () => {
  const MIXED = 'a\r\nb\nc\r\nd\r\ne\n';

  it('changes one line: its ending stays, every other line is byte-identical', async () => {
    const { bytes } = await viewThenEdit('m.txt', MIXED, 'b', 'B');
    expect(bytes).toBe('a\r\nB\nc\r\nd\r\ne\n');
  });

  it('adds lines with the dominant ending (CRLF here), the rest untouched', async () => {
    const { bytes } = await viewThenEdit('m.txt', MIXED, 'd\n', 'd\nd2\nd3\n');
    expect(bytes).toBe('a\r\nb\nc\r\nd\r\nd2\r\nd3\r\ne\n');
  });

  it('deletes a line without touching the endings of its neighbours', async () => {
    const { bytes } = await viewThenEdit('m.txt', MIXED, 'c\n', '');
    expect(bytes).toBe('a\r\nb\nd\r\ne\n');
  });
});
