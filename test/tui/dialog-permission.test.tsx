import { createTwoFilesPatch } from 'diff';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PermissionDecision, PermissionRequest } from '../../src/permission/types.js';
import { PermissionDialog, displayPath, permissionDialogSize } from '../../src/tui/dialogs/PermissionDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { buildKeymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';

const CWD = '/work/project';
const settle = () => new Promise((r) => setTimeout(r, 30));
const KEYS = {
  enter: '\r',
  right: '\u001b[C',
  left: '\u001b[D',
  tab: '\t',
  shiftTab: '\u001b[Z',
  down: '\u001b[B',
  up: '\u001b[A',
  esc: '\u001b',
  pgdown: '\u001b[6~',
  end: '\u001b[F',
  space: ' ',
};

function bashRequest(overrides: Partial<PermissionRequest> = {}): PermissionRequest {
  return {
    id: 'p1',
    sessionId: 's1',
    toolName: 'bash',
    action: 'execute',
    description: 'Execute command: git checkout -b feature',
    params: { command: 'git checkout -b feature' },
    path: CWD,
    scopes: ['git checkout *'],
    reasons: ['git checkout -b feature: not a read-only command'],
    createdAt: 0,
    ...overrides,
  };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(request: PermissionRequest, queued = 0) {
  const onDecide = vi.fn<(d: PermissionDecision) => void>();
  const r = render(
    <InputProvider>
      <PermissionDialog request={request} queued={queued} cwd={CWD} onDecide={onDecide} width={100} height={30} />
    </InputProvider>,
  );
  unmount = r.unmount;
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      r.stdin.write(k);
      await settle();
    }
  };
  return { ...r, onDecide, press, frame: () => r.lastFrame() ?? '' };
}

describe('permission dialog', () => {
  it('shows the tool, the path, the description, the command, why it asks and what a session grant covers', async () => {
    const d = show(bashRequest({ path: `${CWD}/src` }), 2);
    await settle();
    const frame = d.frame();
    expect(frame).toContain('Permission Required (+2 more waiting)');
    expect(frame).toContain('Tool: bash');
    expect(frame).toContain('Path: src');
    expect(frame).toContain('Execute command: git checkout -b feature');
    expect(frame).toMatch(/│ git checkout -b feature +│/);
    expect(frame).toContain('· git checkout -b feature: not a read-only command');
    expect(frame).toContain('Allow for session grants: git checkout *');
    expect(frame).toContain('›Allow (a)‹');
    expect(frame).toContain(' Allow for session (s) ');
    expect(frame).toContain(' Always in project (p) ');
    expect(frame).toContain(' Deny (d) ');
  });

  it.each([
    ['a', 'allow'],
    ['s', 'allow_session'],
    ['p', 'allow_always'],
    ['d', 'deny'],
    [KEYS.esc, 'deny'], // esc denies, as d
  ] as const)('answers %j with %s, once', async (key, decision) => {
    const d = show(bashRequest());
    await settle();
    await d.press(key, key, 'a');
    expect(d.onDecide.mock.calls).toEqual([[decision]]);
  });

  it.each([
    ['→ enter', [KEYS.right, KEYS.enter], 'allow_session'],
    ['→ → enter', [KEYS.right, KEYS.right, KEYS.enter], 'allow_always'],
    ['tab tab tab space', [KEYS.tab, KEYS.tab, KEYS.tab, KEYS.space], 'deny'],
    ['← enter (wraps to Deny)', [KEYS.left, KEYS.enter], 'deny'],
    ['shift+tab shift+tab enter', [KEYS.shiftTab, KEYS.shiftTab, KEYS.enter], 'allow_always'],
    ['enter (Allow is selected first)', [KEYS.enter], 'allow'],
  ] as const)('%s answers %s', async (_name, keys, decision) => {
    const d = show(bashRequest());
    await settle();
    await d.press(...keys);
    expect(d.onDecide.mock.calls).toEqual([[decision]]);
  });

  it('moves the selection with the arrows', async () => {
    const d = show(bashRequest());
    await settle();
    await d.press(KEYS.right, KEYS.right);
    expect(d.frame()).toContain('›Always in project (p)‹');
    expect(d.frame()).toContain(' Allow (a) ');
  });

  it('with no scopes says so and offers only Allow and Deny; s and p do nothing', async () => {
    const request = bashRequest({ scopes: [], reasons: ['could not analyse the command'] });
    let d = show(request);
    await settle();
    expect(d.frame()).toContain('This call only: nothing broader can be granted');
    expect(d.frame()).not.toContain('Allow for session grants');
    expect(d.frame()).toMatch(/│ ›Allow \(a\)‹  Deny \(d\) +│/);
    expect(d.frame()).not.toContain('for session (s)');
    expect(d.frame()).not.toContain('in project (p)');
    await d.press('s', 'p');
    expect(d.onDecide).not.toHaveBeenCalled();
    await d.press(KEYS.right, KEYS.enter);
    expect(d.onDecide.mock.calls).toEqual([['deny']]);
    d.unmount();

    d = show(request);
    await settle();
    await d.press(KEYS.right, KEYS.right, KEYS.enter);
    expect(d.onDecide.mock.calls).toEqual([['allow']]);
  });

  it('at 80 columns the four buttons, each with its key, fit on one row', async () => {
    const onDecide = vi.fn<(d: PermissionDecision) => void>();
    const r = render(
      <InputProvider>
        <PermissionDialog request={bashRequest()} queued={0} cwd={CWD} onDecide={onDecide} width={80} height={24} />
      </InputProvider>,
    );
    unmount = r.unmount;
    await settle();
    const rows = (r.lastFrame() ?? '').split('\n');
    expect(rows[0]).toHaveLength(78);
    expect(rows.filter((row) => row.includes('Deny (d)'))).toEqual([
      '│ ›Allow (a)‹  Allow for session (s)   Always in project (p)   Deny (d)      │',
    ]);
  });

  it('shows the keys in effect: a rebound answer names its new key', async () => {
    const { keymap } = buildKeymap([
      { file: '/p/.opencode.json', bindings: { 'permission.allow': 'y', 'permission.allow_session': 'none' } },
    ]);
    const onDecide = vi.fn<(d: PermissionDecision) => void>();
    const r = render(
      <KeymapContext.Provider value={keymap}>
        <InputProvider>
          <PermissionDialog request={bashRequest()} queued={0} cwd={CWD} onDecide={onDecide} width={100} height={30} />
        </InputProvider>
      </KeymapContext.Provider>,
    );
    unmount = r.unmount;
    await settle();
    expect(r.lastFrame()).toContain('›Allow (y)‹');
    expect(r.lastFrame()).toContain(' Allow for session ');
    r.stdin.write('a');
    await settle();
    r.stdin.write('s');
    await settle();
    expect(onDecide).not.toHaveBeenCalled();
    r.stdin.write('y');
    await settle();
    expect(onDecide.mock.calls).toEqual([['allow']]);
  });

  it('reads the whole-tool scope as every call of the tool', async () => {
    const d = show(
      bashRequest({ toolName: 'mcp_github_create_issue', scopes: ['*'], params: { repo: 'a/b', title: 'Bug' } }),
    );
    await settle();
    expect(d.frame()).toContain('Allow for session grants: every mcp_github_create_issue call');
  });

  it('shows an edit as its diff', async () => {
    const diff = createTwoFilesPatch(
      'src/a.ts',
      'src/a.ts',
      'const a = 1;\nconst b = 2;\n',
      'const a = 10;\nconst b = 2;\n',
    );
    const d = show(
      bashRequest({
        toolName: 'edit',
        action: 'write',
        description: 'Edit file: src/a.ts',
        params: { file_path: `${CWD}/src/a.ts`, diff },
        path: `${CWD}/src/a.ts`,
        scopes: ['src/a.ts'],
      }),
    );
    await settle();
    const lines = d.frame().split('\n');
    expect(lines.some((l) => /│ 1 +- const a = 1; +│/.test(l))).toBe(true);
    expect(lines.some((l) => /│ +1 \+ const a = 10; +│/.test(l))).toBe(true);
    expect(lines.some((l) => /│ 2 2 {3}const b = 2; +│/.test(l))).toBe(true);
    expect(d.frame()).toContain('Path: src/a.ts');
  });

  it('shows a fetch as its URL and an MCP call as its parameters in JSON', async () => {
    let d = show(
      bashRequest({
        toolName: 'fetch',
        params: { url: 'https://example.com/docs', format: 'text' },
        scopes: ['example.com'],
      }),
    );
    await settle();
    expect(d.frame()).toMatch(/│ https:\/\/example\.com\/docs +│/);
    expect(d.frame()).not.toContain('"format"');
    d.unmount();

    d = show(bashRequest({ toolName: 'github_create_issue', params: { repo: 'a/b', title: 'Bug' }, scopes: ['*'] }));
    await settle();
    expect(d.frame()).toMatch(/│ {3}"repo": "a\/b", +│/);
    expect(d.frame()).toMatch(/│ {3}"title": "Bug" +│/);
  });

  it('scrolls long content inside a fixed area, with more marks', async () => {
    const command = Array.from({ length: 40 }, (_, i) => `echo step-${String(i + 1).padStart(2, '0')}`).join('\n');
    const d = show(bashRequest({ params: { command } }));
    await settle();
    const before = d.frame();
    const height = before.split('\n').length;
    expect(before).toContain('echo step-01');
    expect(before).not.toContain('echo step-40');
    expect(before).toMatch(/↓ more \(\d+\)/);
    expect(before).not.toContain('↑ more');

    await d.press(KEYS.down);
    expect(d.frame()).not.toContain('echo step-01');
    expect(d.frame()).toContain('echo step-02');
    expect(d.frame()).toContain('↑ more (1)');

    await d.press('k');
    expect(d.frame()).toContain('echo step-01');

    await d.press(KEYS.end);
    const after = d.frame();
    expect(after).toContain('echo step-40');
    expect(after).not.toContain('↓ more');
    expect(after.split('\n').length).toBe(height);
    expect(d.onDecide).not.toHaveBeenCalled();
  });

  it('starts over when a new request replaces the old one', async () => {
    const onDecide = vi.fn<(d: PermissionDecision) => void>();
    const r = render(
      <InputProvider>
        <PermissionDialog request={bashRequest()} queued={1} cwd={CWD} onDecide={onDecide} width={100} height={30} />
      </InputProvider>,
    );
    unmount = r.unmount;
    await settle();
    r.stdin.write('a');
    await settle();
    r.rerender(
      <InputProvider>
        <PermissionDialog
          request={bashRequest({ id: 'p2', params: { command: 'rm -rf build' } })}
          queued={0}
          cwd={CWD}
          onDecide={onDecide}
          width={100}
          height={30}
        />
      </InputProvider>,
    );
    await settle();
    expect(r.lastFrame()).toContain('rm -rf build');
    r.stdin.write('d');
    await settle();
    expect(onDecide.mock.calls).toEqual([['allow'], ['deny']]);
  });
});

describe('permission dialog layout', () => {
  it('sizes by tool as the original, with floors', () => {
    expect(permissionDialogSize('bash', 200, 50)).toEqual({ width: 80, height: 20 });
    expect(permissionDialogSize('edit', 200, 50)).toEqual({ width: 160, height: 40 });
    expect(permissionDialogSize('github_create_issue', 200, 50)).toEqual({ width: 140, height: 25 });
    expect(permissionDialogSize('bash', 50, 12)).toEqual({ width: 48, height: 12 });
  });

  it('shows paths relative to the project, and absolute outside it', () => {
    expect(displayPath('/work/project', CWD)).toBe('.');
    expect(displayPath('/work/project/src/a.ts', CWD)).toBe('src/a.ts');
    expect(displayPath('/home/u/.bashrc', CWD)).toBe('/home/u/.bashrc');
  });
});
