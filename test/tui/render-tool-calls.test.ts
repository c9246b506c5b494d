import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import {
  parseToolInput,
  patchFileNames,
  toolKeyParam,
  toolProgressLabel,
  toolTitle,
} from '../../src/tui/render/tool-view.js';
import type { ToolCallPart, ToolResultPart } from '../../src/message.js';
import type { ChatItem, ToolCallView } from '../../src/tui/state/chat-item.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;
const CWD = '/home/me/project';

function call(id: string, name: string, input: unknown, finished = true): ToolCallPart {
  return { type: 'tool_call', id, name, input: typeof input === 'string' ? input : JSON.stringify(input), finished };
}

function result(
  call: ToolCallPart,
  content: string,
  metadata?: Record<string, unknown>,
  isError = false,
): ToolResultPart {
  return { type: 'tool_result', toolCallId: call.id, name: call.name, content, metadata, isError };
}

/** An assistant item whose only parts are the views' calls. */
function assistant(tools: ToolCallView[], id = 'a1'): ChatItem {
  return {
    id,
    version: '1',
    role: 'assistant',
    streaming: false,
    tools,
    message: {
      id,
      sessionId: 's',
      role: 'assistant',
      seq: 2,
      createdAt: 0,
      updatedAt: 0,
      parts: tools.map((t) => t.call),
    },
  };
}

const render = (tools: ToolCallView[], width = 60) =>
  renderChatItem(assistant(tools), { width, showThinking: false, cwd: CWD }, theme);

describe('tool call names and key parameters', () => {
  it("uses the friendly names and each tool's key parameter", () => {
    const cases: [string, unknown, string][] = [
      ['bash', { command: 'npm test\n  -- --watch' }, 'Bash  npm test -- --watch'],
      ['edit', { file_path: `${CWD}/src/app.ts`, old_string: 'a', new_string: 'b' }, 'Edit  src/app.ts'],
      ['write', { file_path: '/etc/hosts', content: '' }, 'Write  /etc/hosts'],
      ['view', { file_path: `${CWD}/README.md`, offset: 10, limit: 50 }, 'View  README.md (offset=10, limit=50)'],
      ['glob', { pattern: '**/*.ts', path: `${CWD}/src` }, 'Glob  **/*.ts (path=src)'],
      ['grep', { pattern: 'TODO', include: '*.ts' }, 'Grep  TODO (include=*.ts)'],
      ['ls', {}, 'List  .'],
      ['fetch', { url: 'https://example.com', format: 'text' }, 'Fetch  https://example.com'],
      ['sourcegraph', { query: 'repo:x lang:go' }, 'Sourcegraph  repo:x lang:go'],
      ['agent', { prompt: 'Find where\nthe config loads' }, 'Task  Find where the config loads'],
      [
        'patch',
        {
          patch_text:
            '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** End Patch',
        },
        'Patch  src/a.ts, src/b.ts',
      ],
      ['diagnostics', { file_path: `${CWD}/src/app.ts` }, 'Diagnostics  src/app.ts'],
    ];
    for (const [name, input, expected] of cases) {
      const c = call('c', name, input);
      expect(render([{ call: c, result: result(c, '') }])[0]).toBe(`● ${expected}`);
    }
  });

  it('names MCP tools `server › tool` with their input as compact JSON', () => {
    const c = call('m', 'github_create_issue', '{\n  "title": "Bug",\n  "labels": ["x"]\n}');
    const view: ToolCallView = { call: c, mcpServer: 'github' };
    expect(toolTitle(view)).toBe('github › create_issue');
    expect(toolKeyParam(view)).toBe('{"title":"Bug","labels":["x"]}');
    expect(render([view])).toEqual([
      '● github › create_issue  {"title":"Bug","labels":["x"]}',
      '  Waiting for response...',
    ]);
  });

  it('reads the key parameter from input that is still streaming', () => {
    expect(parseToolInput('{"command": "git status && echo \\"hi')).toEqual({ command: 'git status && echo "hi' });
    expect(parseToolInput('{"file_path":"/a/b.ts","offset":3,"old_string":"x\\')).toEqual({
      file_path: '/a/b.ts',
      offset: 3,
      old_string: 'x',
    });
    expect(parseToolInput('{"opts":{"path":"inner"},"path":"outer"')).toEqual({});
    expect(parseToolInput('')).toEqual({});
    expect(parseToolInput('[1,2]')).toEqual({});
    const c = call('b', 'bash', '{"command":"npm run bu', false);
    expect(render([{ call: c }])).toEqual(['● Bash  npm run bu', '  Building command...']);
  });

  it('finds the files of a patch, each once', () => {
    expect(
      patchFileNames(
        '*** Begin Patch\n*** Update File: a.ts\n*** Move to: c.ts\n*** Delete File: b.ts\n*** Update File: a.ts\n',
      ),
    ).toEqual(['a.ts', 'b.ts']);
  });

  it('labels a call by stage: preparing while its input streams, running once complete', () => {
    const labels = (name: string) => [
      toolProgressLabel({ call: call('x', name, '{', false) }),
      toolProgressLabel({ call: call('x', name, '{}') }),
    ];
    expect(labels('bash')).toEqual(['Building command...', 'Running command...']);
    expect(labels('view')).toEqual(['Reading file...', 'Reading file...']);
    expect(labels('edit')).toEqual(['Preparing edit...', 'Writing file...']);
    expect(labels('write')).toEqual(['Writing file...', 'Writing file...']);
    expect(labels('fetch')).toEqual(['Fetching from URL...', 'Fetching from URL...']);
    expect(labels('glob')).toEqual(['Finding files...', 'Finding files...']);
    expect(labels('grep')).toEqual(['Searching content...', 'Searching content...']);
    expect(labels('ls')).toEqual(['Listing directory...', 'Listing directory...']);
    expect(labels('sourcegraph')).toEqual(['Searching code...', 'Searching code...']);
    expect(labels('patch')).toEqual(['Preparing patch...', 'Writing file...']);
    expect(labels('agent')).toEqual(['Preparing prompt...', 'Waiting for response...']);
    expect(labels('some_mcp_tool')).toEqual(['Waiting for response...', 'Waiting for response...']);
  });
});

describe('tool call bodies', () => {
  it("shows the last 10 lines of a running bash command's output", () => {
    const c = call('b', 'bash', { command: 'npm test' });
    const progress = Array.from({ length: 14 }, (_, i) => `test ${i + 1} ok`).join('\n') + '\n';
    expect(render([{ call: c, progress }])).toEqual([
      '● Bash  npm test',
      ...Array.from({ length: 10 }, (_, i) => `  test ${i + 5} ok`),
    ]);
    expect(render([{ call: c }])).toEqual(['● Bash  npm test', '  Running command...']);
  });

  it("shows a finished bash command's output as a code block, cut at 10 lines", () => {
    const c = call('b', 'bash', { command: 'seq 13' });
    const output = Array.from({ length: 13 }, (_, i) => String(i + 1)).join('\n');
    expect(render([{ call: c, result: result(c, output) }])).toEqual([
      '● Bash  seq 13',
      ...Array.from({ length: 10 }, (_, i) => `  ${i + 1}`),
      '  … (3 more lines)',
    ]);
  });

  it('shows a finished edit as its diff', () => {
    const c = call('e', 'edit', { file_path: `${CWD}/src/app.ts`, old_string: 'b', new_string: 'B' });
    const diff = formatPatch(
      structuredPatch('a/src/app.ts', 'b/src/app.ts', 'a\nb\nc\n', 'a\nB\nc\n', undefined, undefined, { context: 3 }),
      FILE_HEADERS_ONLY,
    );
    const r = result(c, '<result>\nContent replaced in file\n</result>\n', { diff, additions: 1, removals: 1 });
    expect(render([{ call: c, result: r }])).toEqual([
      '● Edit  src/app.ts',
      '  src/app.ts',
      '  @@ -1,3 +1,3 @@',
      '  1 1   a',
      '  2   - b',
      '    2 + B',
      '  3 3   c',
    ]);
  });

  it('cuts a long diff at 10 lines with "… (N more lines)"', () => {
    const c = call('w', 'write', { file_path: `${CWD}/n.txt`, content: '' });
    const after = Array.from({ length: 20 }, (_, i) => `n${i}`).join('\n') + '\n';
    const diff = formatPatch(
      structuredPatch('a/n.txt', 'b/n.txt', '', after, undefined, undefined, { context: 3 }),
      FILE_HEADERS_ONLY,
    );
    const lines = render([{ call: c, result: result(c, 'ok', { diff }) }]);
    expect(lines.length).toBe(12);
    expect(lines.slice(9)).toEqual(['      7 + n6', '      8 + n7', '  … (12 more lines)']);
  });

  it('shows a viewed file as a code block of its content', () => {
    const c = call('v', 'view', { file_path: `${CWD}/src/app.ts` });
    const content = 'import x from "y";\n\nexport const a = 1;';
    const r = result(c, '<file>\n     1|import x from "y";\n     2|\n     3|export const a = 1;\n</file>\n', {
      file_path: `${CWD}/src/app.ts`,
      content,
    });
    expect(render([{ call: c, result: r }])).toEqual([
      '● View  src/app.ts',
      '  import x from "y";',
      '',
      '  export const a = 1;',
    ]);
    // without metadata.content the lines come from the numbered result text
    const bare = result(c, '<file>\n     1|import x from "y";\n     2|\n     3|export const a = 1;\n</file>\n', {
      file_path: `${CWD}/src/app.ts`,
    });
    expect(render([{ call: c, result: bare }])).toEqual([
      '● View  src/app.ts',
      '  import x from "y";',
      '',
      '  export const a = 1;',
    ]);
  });

  it('shows errors as text, cut at 10 lines', () => {
    const c = call('g', 'grep', { pattern: '(' });
    expect(render([{ call: c, result: result(c, 'invalid regex: missing )', undefined, true) }])).toEqual([
      '● Grep  (',
      '  invalid regex: missing )',
    ]);
  });

  it('shows plain results muted and wrapped under the call', () => {
    const c = call('l', 'glob', { pattern: '*.md' });
    expect(render([{ call: c, result: result(c, 'README.md\nCHANGELOG.md') }], 30)).toEqual([
      '● Glob  *.md',
      '  README.md',
      '  CHANGELOG.md',
    ]);
  });

  it("nests a sub-agent's tool calls under the Task call, without its text", () => {
    const v1 = call('c1', 'glob', { pattern: '**/*.ts', path: `${CWD}/src` });
    const v2 = call('c2', 'view', { file_path: `${CWD}/src/config.ts` });
    const child = assistant([{ call: v1, result: result(v1, 'src/config.ts') }, { call: v2 }], 'sub1');
    child.message.parts.unshift({ type: 'text', text: 'Let me look.' });
    const task = call('t', 'agent', { prompt: 'Find where the config loads' });
    expect(render([{ call: task, children: [child] }])).toEqual([
      '● Task  Find where the config loads',
      '  ● Glob  **/*.ts (path=src)',
      '  ● View  src/config.ts',
      '  Waiting for response...',
    ]);
    const answer = result(task, 'The config loads in **src/config.ts**.');
    expect(render([{ call: task, children: [child], result: answer }])).toEqual([
      '● Task  Find where the config loads',
      '  ● Glob  **/*.ts (path=src)',
      '  ● View  src/config.ts',
      '  The config loads in src/config.ts.',
    ]);
  });

  it('separates calls with a blank line and keeps every line within the width', () => {
    const a = call('a', 'bash', { command: 'echo ' + 'x'.repeat(80) });
    const b = call('b', 'ls', { path: CWD });
    const lines = render([{ call: a, result: result(a, 'y'.repeat(50)) }, { call: b }], 20);
    expect(lines).toEqual([
      '● Bash  echo xxxxxxx',
      '  yyyyyyyyyyyyyyyyyy',
      '  yyyyyyyyyyyyyyyyyy',
      '  yyyyyyyyyyyyyy',
      '',
      '● List  .',
      '  Listing directory.',
    ]);
  });
});
