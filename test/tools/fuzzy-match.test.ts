/**
 * old_string matching, as pure functions: exact first, then
 * tabs = spaces in indentation and typographic = ASCII quotes and dashes, applied in the file's style.
 */
import { describe, expect, it } from 'vitest';
import { replaceText, toAsciiLookalikes } from '../../src/tools/fuzzy-match.js';

const GO = 'package main\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println("hi", i)\n\t}\n}\n';

describe('replaceText: exact', () => {
  it('replaces the one occurrence and reports its line', () => {
    expect(replaceText('a\nb\nc\n', 'b', 'B', false)).toEqual({
      status: 'replaced',
      text: 'a\nB\nc\n',
      count: 1,
      lines: [2],
      normalised: [],
      spans: [{ start: 2, end: 3, replacement: 'B' }],
    });
  });

  it('lists the lines of several occurrences', () => {
    expect(replaceText('x\ny\nx\n', 'x', 'z', false)).toEqual({ status: 'ambiguous', lines: [1, 3], normalised: [] });
  });

  it('replaces all with replaceAll, taking new_string literally', () => {
    expect(replaceText('x\ny\nx\n', 'x', '$&', true)).toMatchObject({
      status: 'replaced',
      text: '$&\ny\n$&\n',
      count: 2,
    });
  });

  it('prefers an exact match to a normalised one elsewhere', () => {
    const text = '\tfoo()\n    foo()\n';
    expect(replaceText(text, '    foo()', '    bar()', false)).toMatchObject({
      text: '\tfoo()\n    bar()\n',
      normalised: [],
    });
  });
});

describe('replaceText: tabs and spaces in indentation', () => {
  it('matches a space-indented old_string in a tab-indented file and keeps the tabs', () => {
    const oldString = '    for i := 0; i < 3; i++ {\n        fmt.Println("hi", i)\n    }';
    const newString =
      '    for i := 0; i < 3; i++ {\n        if i%2 == 0 {\n            fmt.Println("even", i)\n        }\n    }';
    expect(replaceText(GO, oldString, newString, false)).toEqual({
      status: 'replaced',
      text: 'package main\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tif i%2 == 0 {\n\t\t\tfmt.Println("even", i)\n\t\t}\n\t}\n}\n',
      count: 1,
      lines: [4],
      normalised: ['indentation'],
      spans: [
        {
          start: GO.indexOf('\tfor'),
          end: GO.indexOf('\t}\n}') + 2,
          replacement: '\tfor i := 0; i < 3; i++ {\n\t\tif i%2 == 0 {\n\t\t\tfmt.Println("even", i)\n\t\t}\n\t}',
        },
      ],
    });
  });

  it('matches 2-space indentation against tabs (tab width 2)', () => {
    const result = replaceText(
      GO,
      '  for i := 0; i < 3; i++ {\n    fmt.Println("hi", i)',
      '  for i := 0; i < 3; i++ {\n    log(i)',
      false,
    );
    expect(result).toMatchObject({ status: 'replaced', text: GO.replace('fmt.Println("hi", i)', 'log(i)') });
  });

  it('matches a tab-indented old_string in a space-indented file and writes spaces', () => {
    const py = 'def f():\n    if x:\n        return 1\n';
    expect(replaceText(py, '\tif x:\n\t\treturn 1', '\tif x:\n\t\treturn 2\n\treturn 3', false)).toMatchObject({
      text: 'def f():\n    if x:\n        return 2\n    return 3\n',
      normalised: ['indentation'],
    });
  });

  it('lets whitespace-only lines match whatever whitespace the file has on them', () => {
    const text = '\ta()\n\t\n\tb()\n';
    expect(replaceText(text, '    a()\n\n    b()', '    a()\n\n    c()', false)).toMatchObject({
      text: '\ta()\n\t\n\tc()\n',
    });
  });

  it('does not match an indented old_string inside a deeper indentation', () => {
    expect(replaceText('\t\tx := 1\n', '    x := 1', '    x := 2', false)).toMatchObject({
      status: 'replaced',
      text: '\t\tx := 2\n',
    });
    expect(replaceText('\t\t\tx := 1\n', '    x := 1', '    x := 2', false)).toEqual({ status: 'not-found' });
  });

  it('reports every line of an ambiguous normalised match', () => {
    const text = 'func a() {\n\tfmt.Println("hi")\n}\n\nfunc b() {\n\tfmt.Println("hi")\n}\n';
    expect(replaceText(text, '    fmt.Println("hi")', '    fmt.Println("bye")', false)).toEqual({
      status: 'ambiguous',
      lines: [2, 6],
      normalised: ['indentation'],
    });
  });

  it('replaces every normalised match with replaceAll', () => {
    const text = 'func a() {\n\tfmt.Println("hi")\n}\n\nfunc b() {\n\tfmt.Println("hi")\n}\n';
    expect(replaceText(text, '    fmt.Println("hi")', '    fmt.Println("bye")', true)).toMatchObject({
      text: text.replaceAll('"hi"', '"bye"'),
      count: 2,
      lines: [2, 6],
    });
  });

  it('finds nothing when the text itself differs', () => {
    expect(replaceText(GO, '    for j := 0; j < 3; j++ {', 'x', false)).toEqual({ status: 'not-found' });
  });
});

describe('replaceText: typographic quotes and dashes', () => {
  const doc = 'title: “Getting started”\nintro: It’s easy — just run it.\n';

  it('matches ASCII quotes against curly ones and keeps the curly ones the model did not change', () => {
    expect(
      replaceText(
        doc,
        'title: "Getting started"\nintro: It\'s easy - just run it.',
        'title: "Getting started fast"\nintro: It\'s easy - just run it.',
        false,
      ),
    ).toEqual({
      status: 'replaced',
      text: 'title: “Getting started fast”\nintro: It’s easy — just run it.\n',
      count: 1,
      lines: [1],
      normalised: ['quotes'],
      spans: [
        {
          start: 0,
          end: doc.length - 1,
          replacement: 'title: “Getting started fast”\nintro: It’s easy — just run it.',
        },
      ],
    });
  });

  it('matches curly quotes in old_string against ASCII ones in the file', () => {
    expect(replaceText('say("hi")\n', 'say(“hi”)', 'say(“hello”)', false)).toMatchObject({
      text: 'say("hello")\n',
      normalised: ['quotes'],
    });
  });

  it('matches a fragment in the middle of a line', () => {
    expect(replaceText('x = ‘a’ + y\n', "'a'", "'b'", false)).toMatchObject({ text: 'x = ‘b’ + y\n' });
  });

  it('reports both normalisations when both were needed', () => {
    expect(replaceText('\tmsg := “hi”\n', '    msg := "hi"', '    msg := "hello"', false)).toMatchObject({
      text: '\tmsg := “hello”\n',
      normalised: ['indentation', 'quotes'],
    });
  });

  it('maps every look-alike to one ASCII character', () => {
    expect(toAsciiLookalikes('‘’‚‛′“”„‟″‐‑‒–—−')).toBe(`'''''"""""------`);
  });
});
