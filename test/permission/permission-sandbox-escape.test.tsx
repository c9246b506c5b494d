/**
 * "Run outside the sandbox": offered only for a request the tool marks `sandboxEscape` (the command
 * cannot work inside the sandbox, or just failed because of it), in the TUI's dialog and as an ACP
 * option; choosing it resolves the grant with `outsideSandbox: true` for that call only. A call the
 * rules allow still reaches the person then, since only they can let it out; `-p` never picks it.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decisionOf, permissionOptions } from '../../src/acp/permission-options.js';
import { permissionChoices } from '../../src/permission/choices.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService, SANDBOX_ESCAPE_REASON, type PermissionRequestInput } from '../../src/permission/service.js';
import type { PermissionDecision, PermissionRequest } from '../../src/permission/types.js';
import { PermissionDialog } from '../../src/tui/dialogs/PermissionDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';

const CWD = '/work/project';
const settle = () => new Promise((r) => setTimeout(r, 30));

function request(overrides: Partial<PermissionRequest> = {}): PermissionRequest {
  return {
    id: 'p1',
    sessionId: 's1',
    toolName: 'bash',
    action: 'execute',
    description: 'Execute command: npm install',
    params: { command: 'npm install' },
    path: CWD,
    scopes: ['npm install *'],
    reasons: ['npm install: not a read-only command'],
    createdAt: 0,
    ...overrides,
  };
}

/** A bash request as the bash tool makes it; with `escape`, after the sandbox refused the command. */
const ask = (command: string, escape: boolean): PermissionRequestInput => ({
  action: 'execute',
  description: `Execute command: ${command}`,
  params: { command },
  ...(escape ? { sandboxEscape: true } : {}),
  subject: {
    kind: 'command',
    command,
    parts: [{ text: command, wrappers: [], readOnly: false, scope: `${command.split(' ')[0]} *` }],
    writes: [],
    readOnly: false,
  },
});

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(req: PermissionRequest) {
  const onDecide = vi.fn<(d: PermissionDecision) => void>();
  const r = render(
    <InputProvider>
      <PermissionDialog request={req} queued={0} cwd={CWD} onDecide={onDecide} width={100} height={30} />
    </InputProvider>,
  );
  unmount = r.unmount;
  return { onDecide, frame: () => r.lastFrame() ?? '', press: async (k: string) => (r.stdin.write(k), await settle()) };
}

describe('permissionChoices', () => {
  it('offers running outside the sandbox only with sandboxEscape, after the answers that keep it in', () => {
    expect(permissionChoices({ scopes: ['npm install *'] })).toEqual([
      'allow',
      'allow_session',
      'allow_always',
      'deny',
    ]);
    expect(permissionChoices({ scopes: ['npm install *'], sandboxEscape: true })).toEqual([
      'allow',
      'allow_session',
      'allow_always',
      'allow_outside_sandbox',
      'deny',
    ]);
    expect(permissionChoices({ scopes: [], sandboxEscape: true })).toEqual(['allow', 'allow_outside_sandbox', 'deny']);
  });
});

describe('the TUI permission dialog', () => {
  it('without sandboxEscape shows no such button, and o does nothing', async () => {
    const d = show(request());
    await settle();
    expect(d.frame()).not.toContain('outside');
    await d.press('o');
    expect(d.onDecide).not.toHaveBeenCalled();
  });

  it('with sandboxEscape shows the button and says plainly what it means; o chooses it', async () => {
    const d = show(request({ sandboxEscape: true }));
    await settle();
    expect(d.frame()).toContain(' Run outside sandbox (o) ');
    expect(d.frame()).toContain('Run outside sandbox (o): this call runs with your full access: no sandbox');
    await d.press('o');
    expect(d.onDecide.mock.calls).toEqual([['allow_outside_sandbox']]);
  });
});

describe('ACP permission options', () => {
  it('offer "Run outside the sandbox" only with sandboxEscape, and map it back', () => {
    expect(permissionOptions(request()).map((o) => o.optionId)).toEqual([
      'allow',
      'allow_session',
      'allow_always',
      'deny',
    ]);
    expect(permissionOptions(request({ sandboxEscape: true, scopes: [] }))).toEqual([
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      {
        optionId: 'allow_outside_sandbox',
        name: 'Run outside the sandbox (full access, no sandbox)',
        kind: 'allow_once',
      },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
    ]);
    expect(decisionOf({ outcome: 'selected', optionId: 'allow_outside_sandbox' })).toBe('allow_outside_sandbox');
  });
});

describe('the permission service', () => {
  /** Answers every request with `decision`, recording what was asked. */
  function answering(service: PermissionService, decision: PermissionDecision): PermissionRequest[] {
    const seen: PermissionRequest[] = [];
    service.onRequest((r) => {
      seen.push(r);
      queueMicrotask(() => service.respond(r.id, decision));
    });
    return seen;
  }

  it('resolves with outsideSandbox: true for that call only; the next call asks again', async () => {
    const service = new PermissionService(CWD);
    const seen = answering(service, 'allow_outside_sandbox');
    await expect(service.request('s1', 'bash', ask('npm install', true))).resolves.toEqual({
      by: 'person',
      outsideSandbox: true,
    });
    expect(seen[0]!.sandboxEscape).toBe(true);
    await expect(service.request('s1', 'bash', ask('npm install', true))).resolves.toEqual({
      by: 'person',
      outsideSandbox: true,
    });
    expect(seen).toHaveLength(2);
    expect(service.sessionGrants('s1')).toEqual([]);
  });

  it('an answer the request did not offer grants no more than allow', async () => {
    const service = new PermissionService(CWD);
    answering(service, 'allow_outside_sandbox');
    await expect(service.request('s1', 'bash', ask('npm install', false))).resolves.toEqual({
      by: 'person',
      outsideSandbox: false,
    });
  });

  it('a call the rules allow reaches the person when it may leave the sandbox; allow keeps it inside', async () => {
    const service = new PermissionService(CWD, { rules: permissionRules({ bash: { 'npm *': 'allow' } }) });
    const seen = answering(service, 'allow');
    await expect(service.request('s1', 'bash', ask('npm install', false))).resolves.toEqual({
      by: 'rule',
      outsideSandbox: false,
    });
    expect(seen).toEqual([]);
    await expect(service.request('s1', 'bash', ask('npm install', true))).resolves.toEqual({
      by: 'person',
      outsideSandbox: false,
    });
    expect(seen.map((r) => [r.scopes, r.reasons])).toEqual([[[], [SANDBOX_ESCAPE_REASON]]]);
  });

  it('-p never picks it: approved inside the sandbox, or by the rule under --no-auto-approve; deny rules hold', async () => {
    const service = new PermissionService(CWD, {
      rules: permissionRules({ bash: { 'npm *': 'allow', 'rm *': 'deny' } }),
    });
    service.setUnattended({ autoApprove: true });
    await expect(service.request('s1', 'bash', ask('make', true))).resolves.toEqual({
      by: 'unattended',
      outsideSandbox: false,
    });
    service.setUnattended({ autoApprove: false });
    await expect(service.request('s1', 'bash', ask('npm install', true))).resolves.toEqual({
      by: 'rule',
      outsideSandbox: false,
    });
    await expect(service.request('s1', 'bash', ask('rm x', true))).rejects.toThrow(
      'Permission denied: `rm x` is denied by the permission rule bash "rm *": "deny".',
    );
  });
});
