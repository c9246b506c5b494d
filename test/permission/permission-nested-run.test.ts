/**
 * A run started by another opencode's command (OPENCODE_SANDBOXED=1) approves nothing by itself: what
 * would ask is refused with a message that says why, by -p's unattended mode and at a dialog alike
 * (whoever answers there is not the person); rules still decide.
 */
import { describe, expect, it } from 'vitest';
import { PermissionRuleError } from '../../src/permission/errors.js';
import { isNestedRun, NESTED_RUN_ENV } from '../../src/permission/nested-run.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService, type PermissionRequestInput } from '../../src/permission/service.js';

const edit: PermissionRequestInput = {
  action: 'write',
  description: 'Replace content in file /p/a.ts',
  params: { file_path: '/p/a.ts', diff: '' },
  path: '/p/a.ts',
  subject: { kind: 'files', paths: ['/p/a.ts'] },
};

describe('isNestedRun', () => {
  it.each([
    [{ OPENCODE_SANDBOXED: '1' }, true],
    [{ OPENCODE_SANDBOXED: 'yes' }, true],
    [{ OPENCODE_SANDBOXED: '0' }, false],
    [{ OPENCODE_SANDBOXED: '' }, false],
    [{}, false],
  ])('%j → %s', (env, nested) => {
    expect(isNestedRun(env)).toBe(nested);
  });

  it('reads the variable the trust check and the sandbox read too', () => {
    expect(NESTED_RUN_ENV).toBe('OPENCODE_SANDBOXED');
  });
});

describe('a nested run without a person', () => {
  it('refuses what would ask even when told to approve it, saying why', async () => {
    const service = new PermissionService('/p', { nested: true });
    service.setUnattended({ autoApprove: true });
    const refused = service.request('s1', 'edit', edit);
    await expect(refused).rejects.toThrow(PermissionRuleError);
    await expect(refused).rejects.toThrow(
      "Permission denied: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1), so it approves nothing by itself and this call needs approval: Replace content in file /p/a.ts",
    );
  });

  it('still runs what an allow rule allows, as allowed by the rule', async () => {
    const service = new PermissionService('/p', { nested: true, rules: permissionRules({ edit: 'allow' }) });
    service.setUnattended({ autoApprove: true });
    await expect(service.request('s1', 'edit', edit)).resolves.toEqual({ by: 'rule', outsideSandbox: false });
  });

  it('the control: the same service, not nested, approves it unattended', async () => {
    const service = new PermissionService('/p');
    service.setUnattended({ autoApprove: true });
    await expect(service.request('s1', 'edit', edit)).resolves.toEqual({ by: 'unattended', outsideSandbox: false });
  });
});

describe('a nested run with a dialog', () => {
  it('refuses what would ask without showing it: whoever answers there is not the person', async () => {
    const service = new PermissionService('/p', { nested: true });
    const shown: string[] = [];
    service.onRequest((request) => {
      shown.push(request.description);
      service.respond(request.id, 'allow');
    });
    await expect(service.request('s1', 'edit', edit)).rejects.toThrow(
      "Permission denied: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1), so it approves nothing by itself and this call needs approval: Replace content in file /p/a.ts",
    );
    expect(shown).toEqual([]);
  });

  it('the control: not nested, the dialog is shown and its answer allows', async () => {
    const service = new PermissionService('/p');
    const shown: string[] = [];
    service.onRequest((request) => {
      shown.push(request.description);
      service.respond(request.id, 'allow');
    });
    await expect(service.request('s1', 'edit', edit)).resolves.toEqual({ by: 'person', outsideSandbox: false });
    expect(shown).toEqual(['Replace content in file /p/a.ts']);
  });
});
