/**
 * edit when old_string differs from the file only in tabs vs spaces or typographic vs ASCII quotes:
 * one such place is edited in the file's own style and the
 * result says a normalised match was used; several places are an error listing their lines.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

const MAIN_GO =
  'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println("hi", i)\n\t}\n}\n';

function file(name: string, text: string): string {
  const path = join(ws.dir, name);
  writeFileSync(path, text);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

describe('edit: tabs and spaces', () => {
  it('edits a tab-indented Go file from a space-indented old_string, keeping tabs, and says so', async () => {
    const path = file('main.go', MAIN_GO);
    const result = await runTool(
      editTool,
      {
        file_path: path,
        old_string: '    for i := 0; i < 3; i++ {\n        fmt.Println("hi", i)\n    }',
        new_string:
          '    for i := 0; i < 3; i++ {\n        if i%2 == 0 {\n            fmt.Println("even", i)\n        }\n    }',
      },
      ws.rec.ctx,
    );
    expect(readFileSync(path, 'utf8')).toBe(
      'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tif i%2 == 0 {\n\t\t\tfmt.Println("even", i)\n\t\t}\n\t}\n}\n',
    );
    expect(result.output).toBe(
      `<result>\nContent replaced in file: ${path}\n` +
        'old_string did not match exactly; it matched at line 6 after treating tabs and spaces in indentation as equal. ' +
        "The file's own indentation and characters were kept where you did not change them; check the result below.\n" +
        '</result>\n<snippet>\n' +
        '     4|\n     5|func main() {\n     6|\tfor i := 0; i < 3; i++ {\n' +
        '     7|\t\tif i%2 == 0 {\n     8|\t\t\tfmt.Println("even", i)\n     9|\t\t}\n    10|\t}\n    11|}\n' +
        '</snippet>\n',
    );
  });

  it('refuses an old_string that matches two places once indentation is normalised, listing both lines', async () => {
    const text = 'func a() {\n\tfmt.Println("hi")\n}\n\nfunc b() {\n\tfmt.Println("hi")\n}\n';
    const path = file('two.go', text);
    const result = await runTool(
      editTool,
      { file_path: path, old_string: '    fmt.Println("hi")', new_string: '    fmt.Println("bye")' },
      ws.rec.ctx,
    );
    expect(result).toEqual({
      output:
        'old_string appears 2 times in the file when treating tabs and spaces in indentation as equal (lines 2, 6). ' +
        'Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.',
      isError: true,
    });
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(ws.rec.permissions).toEqual([]);
  });

  it('accepts view output copied back verbatim, tabs included, as an exact match', async () => {
    const path = join(ws.dir, 'main.go');
    writeFileSync(path, MAIN_GO);
    const view = await runTool(viewTool, { file_path: path }, ws.rec.ctx);
    const copied = view.output
      .split('\n')
      .filter((l) => /^\s+[67]\|/.test(l))
      .map((l) => l.slice(l.indexOf('|') + 1))
      .join('\n');
    expect(copied).toBe('\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println("hi", i)');
    const result = await runTool(
      editTool,
      { file_path: path, old_string: copied, new_string: copied.replace('hi', 'ho') },
      ws.rec.ctx,
    );
    expect(result.output).not.toContain('did not match exactly');
    expect(readFileSync(path, 'utf8')).toBe(MAIN_GO.replace('"hi"', '"ho"'));
  });
});

describe('edit: typographic quotes', () => {
  it('keeps the curly quotes and dashes the model did not change', async () => {
    const path = file('README.md', '# Guide\n\ntitle: “Getting started”\nintro: It’s easy — just run it.\n');
    const result = await runTool(
      editTool,
      {
        file_path: path,
        old_string: 'title: "Getting started"\nintro: It\'s easy - just run it.',
        new_string: 'title: "Getting started fast"\nintro: It\'s easy - just run it twice.',
      },
      ws.rec.ctx,
    );
    expect(readFileSync(path, 'utf8')).toBe(
      '# Guide\n\ntitle: “Getting started fast”\nintro: It’s easy — just run it twice.\n',
    );
    expect(result.output).toContain(
      'old_string did not match exactly; it matched at line 3 after treating typographic quotes and dashes as ASCII.',
    );
  });
});
