/**
 * Opaque code through the real permission service: the request the TUI's permission
 * dialog shows carries the plain-words reason, and in a run without a person (`opencode -p`) what
 * would ask follows the unattended mode: approved by default (the original's -p), refused with
 * `--no-auto-approve`. Deny rules hold either way.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import { PermissionRuleError } from '../../src/permission/errors.js';
import { PermissionService, type PermissionRequestInput } from '../../src/permission/service.js';
import type { PermissionRequest } from '../../src/permission/types.js';

const CWD = '/home/u/project';
const ALLOW_ALL: PermissionSetting = { bash: { '*': 'allow', 'rm *': 'deny' } };

async function bash(command: string): Promise<PermissionRequestInput> {
  const { subject } = await analyseForPermission(command, { cwd: CWD, home: '/home/u', pathEnv: '' });
  return { action: 'execute', description: `Execute command: ${command}`, params: { command }, subject };
}

describe('the permission request says why opaque code asks', () => {
  it('under "*": "allow", python3 -c asks with "runs code the check cannot see: …" and offers no session grant', async () => {
    const service = new PermissionService(CWD, { rules: permissionRules(ALLOW_ALL) });
    const seen: PermissionRequest[] = [];
    service.onRequest((request) => {
      seen.push(request);
      service.respond(request.id, 'allow');
    });
    await service.request('s1', 'bash', await bash('python3 -c \'import os; os.remove("x")\''));
    expect(seen.map((r) => ({ reasons: r.reasons, scopes: r.scopes }))).toEqual([
      { reasons: ['runs code the check cannot see: python3 -c \'import os; os.remove("x")\''], scopes: [] },
    ]);
  });

  it('a read-only command next to it runs without asking', async () => {
    const service = new PermissionService(CWD, { rules: permissionRules(ALLOW_ALL) });
    let asked = 0;
    service.onRequest((request) => {
      asked++;
      service.respond(request.id, 'deny');
    });
    await service.request('s1', 'bash', await bash('git status && ls -la'));
    expect(asked).toBe(0);
  });
});

describe('opencode -p: what an ask becomes', () => {
  it('with --no-auto-approve, opaque code is refused with a result that says so', async () => {
    const service = new PermissionService(CWD, { rules: permissionRules(ALLOW_ALL) });
    service.setUnattended({ autoApprove: false });
    await expect(service.request('s1', 'bash', await bash("node -e 'x()'"))).rejects.toThrow(
      new PermissionRuleError(
        "Permission denied: opencode -p was run with --no-auto-approve and this call needs approval: Execute command: node -e 'x()'",
      ),
    );
  });

  it('by default (auto-approve, as the original) it is approved; a deny rule reached through it still denies', async () => {
    const service = new PermissionService(CWD, { rules: permissionRules(ALLOW_ALL) });
    service.setUnattended({ autoApprove: true });
    await expect(service.request('s1', 'bash', await bash("node -e 'x()'"))).resolves.toEqual({
      by: 'unattended',
      outsideSandbox: false,
    });
    await expect(service.request('s1', 'bash', await bash("eval -- 'rm -rf x'"))).rejects.toThrow(PermissionRuleError);
  });
});
