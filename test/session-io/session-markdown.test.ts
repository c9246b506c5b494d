/**
 * The markdown export as pure functions: a tool output holding ``` cannot close its fence,
 * a long output is cut in the middle, and how a reply ended is said; the tool-call summaries follow
 * their table, one example per row.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/db/session-store.js';
import type { Message, MessagePart } from '../../src/message.js';
import { formatSessionMarkdown, MARKDOWN_OUTPUT_MAX_CHARS } from '../../src/session-io/markdown.js';
import {
  EMPTY_OUTPUT_MARKER,
  TOOL_SUBJECT_FIELD,
  toolCallLine,
  toolResultLine,
} from '../../src/session-io/tool-summary.js';

const session: Session = {
  id: 's1',
  title: 'Fix `add` *now*',
  messageCount: 3,
  promptTokens: 10,
  completionTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  contextTokens: 15,
  costUsd: 0.5,
  createdAt: 0,
  updatedAt: 0,
};
let seq = 0;
const message = (role: Message['role'], parts: MessagePart[]): Message => ({
  id: `m${++seq}`,
  sessionId: 's1',
  role,
  parts,
  seq,
  createdAt: 0,
  updatedAt: 0,
});

describe('markdown export', () => {
  it('fences a tool output longer than any backtick run in it, cuts a long output, and notes a canceled reply', () => {
    const output = 'before\n```\ninside\n````\nafter';
    const long = `${'a'.repeat(MARKDOWN_OUTPUT_MAX_CHARS)}${'b'.repeat(10)}`;
    const md = formatSessionMarkdown({
      session,
      messages: [
        message('user', [{ type: 'text', text: 'go' }]),
        message('assistant', [
          { type: 'tool_call', id: 't1', name: 'bash', input: '{"command":"cat x"}', finished: true },
          { type: 'tool_call', id: 't2', name: 'view', input: 'not json', finished: true },
          { type: 'finish', reason: 'tool_use', time: 0 },
        ]),
        message('tool', [
          { type: 'tool_result', toolCallId: 't1', name: 'bash', content: output, isError: false },
          { type: 'tool_result', toolCallId: 't2', name: 'view', content: long, isError: true },
        ]),
        message('assistant', [{ type: 'finish', reason: 'canceled', time: 0 }]),
      ],
    });
    expect(md.startsWith('# Fix \\`add\\` \\*now\\*\n')).toBe(true);
    expect(md).toContain(`Output:\n\n\`\`\`\`\`\n${output}\n\`\`\`\`\`\n`);
    expect(md).toContain('<details><summary>view: not json — error, 1 line: ');
    expect(md).toContain(
      `Error:\n\n\`\`\`\n${'a'.repeat(MARKDOWN_OUTPUT_MAX_CHARS / 2)}\n… 10 characters cut …\n${'a'.repeat(MARKDOWN_OUTPUT_MAX_CHARS / 2 - 10)}${'b'.repeat(10)}\n\`\`\`\n`,
    );
    expect(md.endsWith('*[canceled]*\n')).toBe(true);
  });
});

describe('tool-call summaries', () => {
  const examples: Record<string, [Record<string, unknown>, string]> = {
    bash: [{ command: 'npm test', timeout: 1000 }, 'bash: npm test'],
    edit: [{ file_path: 'src/app.ts', old_string: 'a', new_string: 'b' }, 'edit: src/app.ts'],
    write: [{ file_path: 'README.md', content: '# x' }, 'write: README.md'],
    view: [{ file_path: 'src/app.ts', offset: 2 }, 'view: src/app.ts'],
    glob: [{ pattern: '**/*.ts', path: 'src' }, 'glob: **/*.ts'],
    grep: [{ pattern: 'TODO', include: '*.ts' }, 'grep: TODO'],
    ls: [{ path: 'src' }, 'ls: src'],
    fetch: [{ url: 'https://example.com', format: 'text' }, 'fetch: https://example.com'],
    sourcegraph: [{ query: 'repo:foo bar' }, 'sourcegraph: repo:foo bar'],
    patch: [{ patch_text: '*** Begin Patch\n*** Update File: a' }, 'patch: *** Begin Patch'],
    diagnostics: [{ file_path: 'src/app.ts' }, 'diagnostics: src/app.ts'],
    agent: [{ prompt: 'find the config loader' }, 'agent: find the config loader'],
  };

  it('has an example for every row of the table', () => {
    expect(Object.keys(examples).sort()).toEqual(Object.keys(TOOL_SUBJECT_FIELD).sort());
  });

  it.each(Object.entries(examples))('%s', (name, [input, line]) => {
    expect(toolCallLine({ name, input: JSON.stringify(input) })).toBe(line);
  });

  it('an unlisted tool shows its first text field; a call without one its name', () => {
    expect(toolCallLine({ name: 'github_create_issue', input: JSON.stringify({ count: 2, title: 'Bug' }) })).toBe(
      'github_create_issue: Bug',
    );
    expect(toolCallLine({ name: 'ls', input: '{}' })).toBe('ls');
  });

  it('a result line gives errors, lines and the first line', () => {
    expect(toolResultLine({ content: 'FAIL test/add.test.ts\n  expected 3\n', isError: true })).toBe(
      'error, 2 lines: FAIL test/add.test.ts',
    );
    expect(toolResultLine({ content: '', isError: false })).toBe('no output');
  });

  it("a bash run that printed nothing is 'no output', not '1 line: no output' (EMPTY_OUTPUT_MARKER, a row each)", () => {
    expect(Object.keys(EMPTY_OUTPUT_MARKER)).toEqual(['bash']);
    expect(toolResultLine({ name: 'bash', content: 'no output', isError: false })).toBe('no output');
    expect(
      toolResultLine({ name: 'bash', content: 'no output\n(the working directory is now /repo/src)', isError: false }),
    ).toBe('no output (the working directory is now /repo/src)');
    // printed something, or failed: counted as before
    expect(toolResultLine({ name: 'bash', content: 'no output\nreally', isError: false })).toBe('2 lines: no output');
    expect(toolResultLine({ name: 'bash', content: 'Exit code 1', isError: true })).toBe('error, 1 line: Exit code 1');
    // another tool's result that happens to read "no output" is that tool's output
    expect(toolResultLine({ name: 'view', content: 'no output', isError: false })).toBe('1 line: no output');
  });

  it("a result's first line is its content, not the wrapper the model gets (<file>, <result>)", () => {
    expect(
      toolResultLine({ content: '<result>\nReplaced 1 occurrence in src/add.js\n</result>', isError: false }),
    ).toBe('3 lines: Replaced 1 occurrence in src/add.js');
    expect(toolResultLine({ content: '<file>\n     1|export const a = 1;\n</file>', isError: false })).toBe(
      '3 lines: 1|export const a = 1;',
    );
  });
});

describe('undo and redo notes', () => {
  it('read as notes, not as the person writing', () => {
    const md = formatSessionMarkdown({
      session,
      messages: [
        message('user', [{ type: 'text', text: 'go' }]),
        message('user', [
          { type: 'text', text: "The user undid the last turn's file changes: a.ts restored.", note: 'undo' },
        ]),
      ],
    });
    expect(md).toContain('## Note (files undone or redone)\n\n');
    expect(md.match(/## You/g)).toHaveLength(1);
  });
});
