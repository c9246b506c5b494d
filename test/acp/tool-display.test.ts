/**
 * How each built-in tool's call looks in the editor: one example per row of TOOL_DISPLAY, plus the
 * cases of a call still streaming, a tool we do not know, and a patch's diffs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_DISPLAY, toolDisplay } from '../../src/acp/tool-display.js';

const cwd = '/work/project';

describe('toolDisplay: one example per built-in tool', () => {
  const rows: [string, Record<string, unknown>, { kind: string; title: string; locations: unknown[] }][] = [
    [
      'view',
      { file_path: 'src/a.ts', offset: 40 },
      {
        kind: 'read',
        title: 'Read src/a.ts (from line 41)',
        locations: [{ path: '/work/project/src/a.ts', line: 41 }],
      },
    ],
    [
      'edit',
      { file_path: '/work/project/src/a.ts', old_string: 'x', new_string: 'y' },
      { kind: 'edit', title: 'Edit src/a.ts', locations: [{ path: '/work/project/src/a.ts' }] },
    ],
    [
      'write',
      { file_path: '/etc/hosts.new', content: '' },
      { kind: 'edit', title: 'Write /etc/hosts.new', locations: [{ path: '/etc/hosts.new' }] },
    ],
    [
      'patch',
      { patch_text: '*** Begin Patch\n*** Add File: b.txt\n+hi\n*** End Patch' },
      { kind: 'edit', title: 'Apply patch to 1 file', locations: [{ path: '/work/project/b.txt' }] },
    ],
    ['bash', { command: 'npm test\n  -- --run' }, { kind: 'execute', title: '`npm test -- --run`', locations: [] }],
    ['grep', { pattern: 'TODO', path: 'src' }, { kind: 'search', title: 'grep "TODO" in src', locations: [] }],
    ['glob', { pattern: '**/*.ts' }, { kind: 'search', title: 'Find **/*.ts', locations: [] }],
    ['ls', {}, { kind: 'search', title: 'List the project', locations: [] }],
    [
      'sourcegraph',
      { query: 'repo:x foo' },
      { kind: 'search', title: 'Search Sourcegraph: repo:x foo', locations: [] },
    ],
    ['fetch', { url: 'https://example.com' }, { kind: 'fetch', title: 'Fetch https://example.com', locations: [] }],
    [
      'agent',
      { prompt: 'find where the config\nis loaded' },
      { kind: 'think', title: 'Task: find where the config is loaded', locations: [] },
    ],
    [
      'diagnostics',
      { file_path: 'src/a.ts' },
      { kind: 'read', title: 'Diagnostics of src/a.ts', locations: [{ path: '/work/project/src/a.ts' }] },
    ],
  ];
  it.each(rows)('%s', (name, input, expected) => {
    expect(toolDisplay(name, JSON.stringify(input), cwd)).toMatchObject(expected);
  });
  it('covers every row of the table', () => {
    expect(rows.map(([name]) => name).sort()).toEqual(Object.keys(TOOL_DISPLAY).sort());
  });
});

describe('toolDisplay: edge cases', () => {
  it('a call whose input is still streaming is titled by its name', () => {
    expect(toolDisplay('edit', '{"file_path": "src/a', cwd)).toEqual({
      kind: 'edit',
      title: 'edit',
      locations: [],
      content: [],
    });
  });

  it('a tool not in the table (MCP, custom) is `other`, titled by its name', () => {
    expect(toolDisplay('github_create_issue', '{"title":"x"}', cwd)).toEqual({
      kind: 'other',
      title: 'github_create_issue',
      locations: [],
      content: [],
    });
  });

  it('an edit shows the replaced text; creating a file has no old text', () => {
    expect(
      toolDisplay('edit', JSON.stringify({ file_path: 'a.ts', old_string: 'one', new_string: 'two' }), cwd).content,
    ).toEqual([{ type: 'diff', path: '/work/project/a.ts', oldText: 'one', newText: 'two' }]);
    expect(
      toolDisplay('edit', JSON.stringify({ file_path: 'a.ts', old_string: '', new_string: 'new file' }), cwd).content,
    ).toEqual([{ type: 'diff', path: '/work/project/a.ts', oldText: null, newText: 'new file' }]);
  });

  it("a write shows the file's whole text before and after", () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-display-'));
    writeFileSync(join(dir, 'a.txt'), 'before\n');
    expect(toolDisplay('write', JSON.stringify({ file_path: 'a.txt', content: 'after\n' }), dir).content).toEqual([
      { type: 'diff', path: join(dir, 'a.txt'), oldText: 'before\n', newText: 'after\n' },
    ]);
    expect(toolDisplay('write', JSON.stringify({ file_path: 'new.txt', content: 'x' }), dir).content).toEqual([
      { type: 'diff', path: join(dir, 'new.txt'), oldText: null, newText: 'x' },
    ]);
  });

  it('a patch gives one diff per file: added, updated (its changed lines), moved', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: new.txt',
      '+hello',
      '*** Update File: src/a.ts',
      '*** Move to: src/b.ts',
      '@@',
      ' keep',
      '-old line',
      '+new line',
      '*** End Patch',
    ].join('\n');
    const display = toolDisplay('patch', JSON.stringify({ patch_text: patch }), cwd);
    expect(display.title).toBe('Apply patch to 3 files');
    expect(display.locations).toEqual([
      { path: '/work/project/new.txt' },
      { path: '/work/project/src/a.ts' },
      { path: '/work/project/src/b.ts' },
    ]);
    expect(display.content).toEqual([
      { type: 'diff', path: '/work/project/new.txt', oldText: null, newText: 'hello\n' },
      { type: 'diff', path: '/work/project/src/b.ts', oldText: 'old line', newText: 'new line' },
    ]);
  });

  it('a very long command is cut to 120 characters', () => {
    const title = toolDisplay('bash', JSON.stringify({ command: `echo ${'x'.repeat(300)}` }), cwd).title;
    expect(title).toHaveLength(120);
    expect(title.endsWith('…')).toBe(true);
  });
});
