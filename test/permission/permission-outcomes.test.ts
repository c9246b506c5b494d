/**
 * Issue 14: the permission service reports how each request was decided (`-f stream-json`'s
 * `permission` lines, `-d`): by a rule or the defaults, a session-wide approval, `-p`'s unattended
 * mode, or the person. A request withdrawn by a cancel is not reported.
 */
import { describe, expect, it } from 'vitest';
import {
  PermissionService,
  type PermissionOutcome,
  type PermissionRequestInput,
} from '../../src/permission/service.js';
import { permissionRules } from '../../src/permission/rules.js';

const bash = (command: string, readOnly = false): PermissionRequestInput => ({
  action: 'execute',
  description: `Execute command: ${command}`,
  params: { command },
  subject: {
    kind: 'command',
    command,
    parts: [{ text: command, wrappers: [], readOnly, scope: `${command.split(' ')[0]} *` }],
    writes: [],
    readOnly,
  },
});

function recorded(service: PermissionService): PermissionOutcome[] {
  const outcomes: PermissionOutcome[] = [];
  service.onOutcome((o) => outcomes.push(o));
  return outcomes;
}

describe('permission outcomes', () => {
  it('names who decided, with the refusal message when refused', async () => {
    const service = new PermissionService('/p', { rules: permissionRules({ bash: { 'rm *': 'deny' } }) });
    const outcomes = recorded(service);
    await service.request('s1', 'bash', bash('ls', true));
    await expect(service.request('s1', 'bash', bash('rm -rf build'))).rejects.toThrow();
    service.setUnattended({ autoApprove: true });
    await service.request('s1', 'bash', bash('make'));
    service.setUnattended({ autoApprove: false });
    await expect(service.request('s1', 'bash', bash('make'))).rejects.toThrow();
    service.setUnattended(undefined);
    service.autoApproveSession('s2');
    await service.request('s2', 'bash', bash('make'));
    const off = service.onRequest((r) => service.respond(r.id, 'allow_session'));
    await service.request('s3', 'bash', bash('make'));
    off();

    const denied = outcomes[1]!.message!;
    expect(denied).toContain('rm -rf build');
    expect(outcomes).toEqual([
      { sessionId: 's1', toolName: 'bash', description: 'Execute command: ls', decision: 'allow', by: 'rule' },
      {
        sessionId: 's1',
        toolName: 'bash',
        description: 'Execute command: rm -rf build',
        decision: 'deny',
        by: 'rule',
        message: denied,
      },
      { sessionId: 's1', toolName: 'bash', description: 'Execute command: make', decision: 'allow', by: 'unattended' },
      {
        sessionId: 's1',
        toolName: 'bash',
        description: 'Execute command: make',
        decision: 'deny',
        by: 'unattended',
        message:
          'Permission denied: opencode -p was run with --no-auto-approve and this call needs approval: Execute command: make',
      },
      { sessionId: 's2', toolName: 'bash', description: 'Execute command: make', decision: 'allow', by: 'session' },
      {
        sessionId: 's3',
        toolName: 'bash',
        description: 'Execute command: make',
        decision: 'allow_session',
        by: 'person',
      },
    ]);
  });

  it('reports nothing for a request withdrawn by a cancel', async () => {
    const service = new PermissionService('/p');
    const outcomes = recorded(service);
    const controller = new AbortController();
    const asked = service.request('s1', 'bash', bash('make'), controller.signal);
    controller.abort();
    await expect(asked).rejects.toThrow();
    expect(outcomes).toEqual([]);
  });
});
