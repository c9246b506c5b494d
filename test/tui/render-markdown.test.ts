import chalk from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffStats, renderDiff } from '../../src/tui/render/diff.js';
import { highlightCode, highlighterReady, languageForPath, loadHighlighter } from '../../src/tui/render/highlight.js';
import { renderMarkdown, safeStreamingPrefix } from '../../src/tui/render/markdown.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

describe('renderMarkdown', () => {
  it('drops heading marks and separates blocks with one blank line', () => {
    expect(renderMarkdown('# Title\n\nSome **bold** and *italic* and `code`.\n\n## Next', 40, theme)).toEqual([
      'Title',
      '',
      'Some bold and italic and code.',
      '',
      'Next',
    ]);
  });

  it('wraps paragraphs to the width', () => {
    expect(renderMarkdown('one two three four five six seven', 10, theme)).toEqual([
      'one two',
      'three four',
      'five six',
      'seven',
    ]);
  });

  it('draws bullet and numbered lists with nesting and a hanging indent', () => {
    const md = '- first item that wraps around\n  - nested\n- second\n\n3. three\n4. four';
    expect(renderMarkdown(md, 16, theme)).toEqual([
      '• first item',
      '  that wraps',
      '  around',
      '  • nested',
      '• second',
      '',
      '3. three',
      '4. four',
    ]);
  });

  it('shows task list boxes', () => {
    expect(renderMarkdown('- [x] done\n- [ ] todo', 20, theme)).toEqual(['• [x] done', '• [ ] todo']);
  });

  it('indents fenced code by 2, keeps its indentation and wraps long lines under it', () => {
    const md = '```ts\nfunction f() {\n\treturn "a long string value";\n}\n```';
    expect(renderMarkdown(md, 24, theme)).toEqual([
      '  function f() {',
      '      return "a long',
      '      string value";',
      '  }',
    ]);
  });

  it('draws links with their url, quotes, rules, tables and html as text', () => {
    const md =
      'See [docs](https://x.dev) or <https://y.dev>.\n\n> quoted\n\n---\n\n| name | n |\n|---|--:|\n| a | 10 |\n| bb | 2 |\n\n<div>raw</div>';
    expect(renderMarkdown(md, 20, theme)).toEqual([
      'See docs',
      '(https://x.dev) or',
      'https://y.dev.',
      '',
      '│ quoted',
      '',
      '─'.repeat(20),
      '',
      'name │  n',
      '─────┼───',
      'a    │ 10',
      'bb   │  2',
      '',
      '<div>raw</div>',
    ]);
  });

  it('decodes the common HTML entities in prose', () => {
    expect(renderMarkdown('a &amp; b &lt;c&gt;', 20, theme)).toEqual(['a & b <c>']);
  });

  it('gives nothing for empty text', () => {
    expect(renderMarkdown('  \n', 20, theme)).toEqual([]);
  });
});

describe('safeStreamingPrefix', () => {
  it('shows the unfinished last line, unless it may become a fence', () => {
    expect(safeStreamingPrefix('Hello **wor')).toBe('Hello **wor');
    expect(safeStreamingPrefix('Line one\nLine **tw')).toBe('Line one\nLine **tw');
    expect(safeStreamingPrefix('Line one\n``')).toBe('Line one');
  });

  it('closes an open code fence with the same fence', () => {
    expect(safeStreamingPrefix('Intro\n```ts\nconst a = 1;\nconst b')).toBe('Intro\n```ts\nconst a = 1;\nconst b\n```');
    expect(safeStreamingPrefix('~~~~\nx\n')).toBe('~~~~\nx\n~~~~');
    expect(safeStreamingPrefix('  ```\n  x\n')).toBe('  ```\n  x\n  ```');
  });

  it('leaves closed fences alone, and a shorter fence does not close a longer one', () => {
    expect(safeStreamingPrefix('```\na\n```\nafter\n')).toBe('```\na\n```\nafter');
    expect(safeStreamingPrefix('````\n```\nx\n')).toBe('````\n```\nx\n````');
  });

  it('renders a streaming open fence as a code block whose lines stay when the fence closes', () => {
    const streaming = 'Run this:\n\n```sh\nnpm install\nnpm te';
    const finished = 'Run this:\n\n```sh\nnpm install\nnpm test\n```\n\nDone.';
    const partial = renderMarkdown(safeStreamingPrefix(streaming), 40, theme);
    expect(partial).toEqual(['Run this:', '', '  npm install', '  npm te']);
    const full = renderMarkdown(finished, 40, theme);
    expect(full).toEqual(['Run this:', '', '  npm install', '  npm test', '', 'Done.']);
    // the complete lines stay where they were; only the line being written grows
    expect(full.slice(0, partial.length - 1)).toEqual(partial.slice(0, -1));
  });
});

describe('highlighting', () => {
  let level: typeof chalk.level;
  beforeAll(async () => {
    level = chalk.level;
    chalk.level = 3;
    await loadHighlighter();
  });

  it('draws code uncoloured until the grammars are loaded, off the path to the first frame', () => {
    expect(highlighterReady()).toBe(true);
  });
  afterAll(() => {
    chalk.level = level;
  });

  const keyword = '\u001b[38;2;92;156;245m'; // syntaxKeyword #5c9cf5
  const number = '\u001b[38;2;209;154;102m'; // syntaxNumber #d19a66
  const str = '\u001b[38;2;127;216;143m'; // syntaxString #7fd88f
  const comment = '\u001b[38;2;128;128;128m'; // syntaxComment #808080
  const fn = '\u001b[38;2;250;178;131m'; // syntaxFunction #fab283
  const end = '\u001b[39m';

  it('colours keywords, numbers, strings and comments with the theme', () => {
    expect(highlightCode('const x = 1; // n', 'ts', theme)).toBe(
      `${keyword}const${end} x = ${number}1${end}; ${comment}// n${end}`,
    );
    expect(highlightCode('s = "hi"', 'python', theme)).toBe(`s = ${str}"hi"${end}`);
  });

  it('colours function names, and keeps one line per input line in a multi-line comment', () => {
    const out = highlightCode('/* a\nb */\nfunc f() {}', 'go', theme);
    expect(out.split('\n')).toEqual([
      `${comment}/* a${end}`,
      `${comment}b */${end}`,
      `${keyword}func${end} ${fn}f${end}() {}`,
    ]);
  });

  it('leaves code plain for an unknown or missing language', () => {
    expect(highlightCode('const x = 1', 'klingon', theme)).toBe('const x = 1');
    expect(highlightCode('const x = 1', undefined, theme)).toBe('const x = 1');
  });

  it('highlights a fenced code block in markdown, indented by 2', () => {
    expect(renderMarkdown('```js\nreturn 42\n```', 40, theme)).toEqual([`  ${keyword}return${end} ${number}42${end}`]);
  });

  it('colours added and removed diff lines with their backgrounds', () => {
    const lines = renderDiff('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 40, theme);
    expect(lines[3]).toBe(
      '\u001b[38;2;136;136;136m  1 \u001b[39m\u001b[48;2;48;58;48m\u001b[38;2;127;216;143m+ b\u001b[39m\u001b[49m',
    );
    expect(diffStats('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n')).toEqual({ additions: 1, removals: 1 });
  });
});

describe('languageForPath', () => {
  it('maps extensions and known file names', () => {
    expect(
      [
        'a.ts',
        'b.TSX',
        'c.go',
        'd.py',
        'e.rs',
        'f.sh',
        'g.md',
        'h.json',
        'i.yml',
        'j.html',
        'Makefile',
        'k.unknown',
        'noext',
      ].map(languageForPath),
    ).toEqual([
      'typescript',
      'typescript',
      'go',
      'python',
      'rust',
      'bash',
      'markdown',
      'json',
      'yaml',
      'xml',
      'makefile',
      undefined,
      undefined,
    ]);
  });
});

describe('deeply nested lists on a narrow screen', () => {
  it('stop indenting when little room is left: every item keeps its text, no blank rows', () => {
    let md = '';
    for (let level = 0; level < 30; level++) md += `${'  '.repeat(level)}- level ${level}\n`;
    const lines = renderMarkdown(md, 40, theme);
    expect(lines.filter((l) => l.trim() === '')).toEqual([]);
    for (let level = 0; level < 30; level++) expect(lines.some((l) => l.includes(`level ${level}`))).toBe(true);
    expect(lines.length).toBe(30);
  });
});
