import { describe, expect, it } from 'vitest';
import { PermissionDeniedError, PermissionRuleError } from '../../src/permission/errors.js';
import { PermissionService, type PermissionRequestInput } from '../../src/permission/service.js';
import { permissionRules } from '../../src/permission/rules.js';
import type { CommandPart, PermissionRequest } from '../../src/permission/types.js';

const part = (text: string, scope: string, readOnly = false): CommandPart => ({ text, wrappers: [], readOnly, scope });

/** A bash request for an already-analysed command of simple parts. */
function bash(command: string, parts: CommandPart[]): PermissionRequestInput {
  return {
    action: 'execute',
    description: `Execute command: ${command}`,
    params: { command },
    subject: { kind: 'command', command, parts, writes: [], readOnly: parts.every((p) => p.readOnly) },
  };
}
const make = bash('make', [part('make', 'make *')]);
const edit = (path: string): PermissionRequestInput => ({
  action: 'write',
  description: `Replace content in file ${path}`,
  params: { file_path: path, diff: '' },
  path,
  subject: { kind: 'files', paths: [path] },
});
const fetch = (url: string): PermissionRequestInput => ({
  action: 'fetch',
  description: `Fetch content from URL: ${url}`,
  params: { url },
  subject: { kind: 'url', url },
});

/** A service whose person answers every request with `decision`, counting the requests. */
function answering(
  decision: 'allow' | 'allow_session' | 'allow_always' | 'deny',
  service = new PermissionService('/p'),
) {
  const seen: PermissionRequest[] = [];
  service.onRequest((r) => {
    seen.push(r);
    service.respond(r.id, decision);
  });
  return { service, seen };
}

describe('permission service: asking', () => {
  it('publishes what the dialog needs: tool, action, description, params, path and the scopes a session grant would cover', async () => {
    const { service, seen } = answering('allow');
    await service.request(
      's1',
      'bash',
      bash('ls && npm run test', [part('ls', 'ls *', true), part('npm run test', 'npm run test *')]),
    );
    expect(seen).toEqual([
      {
        id: expect.any(String),
        sessionId: 's1',
        toolName: 'bash',
        action: 'execute',
        description: 'Execute command: ls && npm run test',
        params: { command: 'ls && npm run test' },
        path: '/p',
        scopes: ['npm run test *'],
        reasons: ['npm run test: not a read-only command'],
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('allows once: the next call asks again', async () => {
    const { service, seen } = answering('allow');
    await service.request('s1', 'bash', make);
    await service.request('s1', 'bash', make);
    expect(seen).toHaveLength(2);
  });

  it('does not ask for what the default allows (a read-only command)', async () => {
    const service = new PermissionService('/p');
    service.onRequest(() => {
      throw new Error('must not ask');
    });
    await service.request('s1', 'bash', bash('git status', [part('git status', 'git status *', true)]));
  });

  it('throws PermissionDeniedError when the person denies: the turn ends', async () => {
    const { service } = answering('deny');
    await expect(service.request('s1', 'bash', make)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('throws PermissionRuleError when a rule denies, without asking: the model is told and goes on', async () => {
    const service = new PermissionService('/p', { rules: permissionRules({ bash: { 'rm *': 'deny' } }) });
    service.onRequest(() => {
      throw new Error('must not ask');
    });
    const denied = service.request('s1', 'bash', bash('rm -rf x', [part('rm -rf x', 'rm *')]));
    await expect(denied).rejects.toBeInstanceOf(PermissionRuleError);
    await expect(denied).rejects.toThrow(
      'Permission denied: `rm -rf x` is denied by the permission rule bash "rm *": "deny".',
    );
  });

  it('judges a call without a subject (an MCP tool) by its name', async () => {
    const service = new PermissionService('/p', {
      rules: permissionRules({ github_create_issue: 'allow', github_delete_repo: 'deny' }),
    });
    await service.request('s1', 'github_create_issue', { action: 'execute', description: 'x', params: {} });
    await expect(
      service.request('s1', 'github_delete_repo', { action: 'execute', description: 'x', params: {} }),
    ).rejects.toBeInstanceOf(PermissionRuleError);
  });
});

describe('permission service: allow for session covers what was asked', () => {
  it('bash: a grant of git checkout * approves git checkout b, not git push', async () => {
    const { service, seen } = answering('allow_session');
    await service.request('s1', 'bash', bash('git checkout a', [part('git checkout a', 'git checkout *')]));
    expect(seen[0]!.scopes).toEqual(['git checkout *']);
    await service.request('s1', 'bash', bash('git checkout b', [part('git checkout b', 'git checkout *')]));
    expect(seen).toHaveLength(1);
    await service.request('s1', 'bash', bash('git push', [part('git push', 'git push *')]));
    expect(seen).toHaveLength(2);
    expect(service.sessionGrants('s1')).toEqual([
      { tool: 'bash', pattern: 'git checkout *', literal: false },
      { tool: 'bash', pattern: 'git push *', literal: false },
    ]);
  });

  it('edit: a grant for a.ts does not cover b.ts, nor another session', async () => {
    const { service, seen } = answering('allow_session');
    await service.request('s1', 'edit', edit('/p/a.ts'));
    await service.request('s1', 'edit', edit('/p/a.ts'));
    expect(seen.map((r) => r.scopes)).toEqual([['a.ts']]);
    await service.request('s1', 'edit', edit('/p/b.ts'));
    await service.request('s2', 'edit', edit('/p/a.ts'));
    expect(seen).toHaveLength(3);
  });

  it('fetch: a grant is per host', async () => {
    const { service, seen } = answering('allow_session');
    await service.request('s1', 'fetch', fetch('https://example.com/a'));
    await service.request('s1', 'fetch', fetch('https://example.com/b?c'));
    expect(seen).toHaveLength(1);
    await service.request('s1', 'fetch', fetch('https://other.example.com/a'));
    expect(seen.map((r) => r.scopes)).toEqual([['example.com'], ['other.example.com']]);
  });

  it('MCP: a grant covers that tool', async () => {
    const { service, seen } = answering('allow_session');
    const call = { action: 'execute', description: 'x', params: {} };
    await service.request('s1', 'github_create_issue', call);
    await service.request('s1', 'github_create_issue', call);
    await service.request('s1', 'github_delete_repo', call);
    expect(seen.map((r) => [r.toolName, r.scopes])).toEqual([
      ['github_create_issue', ['*']],
      ['github_delete_repo', ['*']],
    ]);
  });

  it('a write outside the project asks again after allow for session, and offers no scope', async () => {
    const { service, seen } = answering('allow_session');
    await service.request('s1', 'edit', edit('/tmp/x'));
    await service.request('s1', 'edit', edit('/tmp/x'));
    expect(seen.map((r) => [r.scopes, r.reasons])).toEqual([
      [[], ['outside the project: /tmp/x']],
      [[], ['outside the project: /tmp/x']],
    ]);
  });

  it('a grant also settles the waiting requests it covers (two fetches of one host in one batch)', async () => {
    const service = new PermissionService('/p');
    const resolved: [string, string][] = [];
    service.onResolved((id, d) => resolved.push([id, d]));
    const first = service.request('s1', 'fetch', fetch('https://example.com/a'));
    const second = service.request('s1', 'fetch', fetch('https://example.com/b'));
    const third = service.request('s1', 'fetch', fetch('https://elsewhere.test/'));
    const [a, b, c] = service.pendingRequests();
    service.respond(a!.id, 'allow_session');
    await Promise.all([first, second]);
    expect(resolved).toEqual([
      [a!.id, 'allow_session'],
      [b!.id, 'allow'],
    ]);
    expect(service.pendingRequests().map((r) => r.id)).toEqual([c!.id]);
    service.respond(c!.id, 'deny');
    await expect(third).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});

describe('permission service: always allow in this project', () => {
  it('saves the scopes as allow rules and applies them at once, to every session', async () => {
    const saved: unknown[] = [];
    const service = new PermissionService('/p', {
      saveRules: (tool, patterns, options) => {
        saved.push([tool, patterns, options]);
        return [];
      },
    });
    const { seen } = answering('allow_always', service);
    await service.request('s1', 'bash', bash('npm run test -- x', [part('npm run test -- x', 'npm run test *')]));
    await service.request('s2', 'bash', bash('npm run test', [part('npm run test', 'npm run test *')]));
    await service.request('s1', 'edit', edit('/p/src/a.ts'));
    expect(seen).toHaveLength(2);
    expect(saved).toEqual([
      ['bash', ['npm run test *'], { literal: false }],
      ['edit', ['src/a.ts'], { literal: true }],
    ]);
  });

  it('reports a failed save as a warning; the grant still holds for the session', async () => {
    const warnings: string[] = [];
    const service = new PermissionService('/p', {
      saveRules: () => {
        throw new Error('/p/.opencode.json: invalid JSON at line 1 column 2: unexpected end of input');
      },
      onWarning: (message) => warnings.push(message),
    });
    const { seen } = answering('allow_always', service);
    await service.request('s1', 'bash', make);
    await service.request('s1', 'bash', make);
    expect(seen).toHaveLength(1);
    expect(warnings).toEqual([
      'The rule was applied for now but could not be saved to .opencode.json: /p/.opencode.json: invalid JSON at line 1 column 2: unexpected end of input',
    ]);
  });

  it('writes nothing for a request that offers no scope (outside the project)', async () => {
    let saves = 0;
    const service = new PermissionService('/p', { saveRules: () => (saves++, []) });
    answering('allow_always', service);
    await service.request('s1', 'edit', edit('/tmp/x'));
    expect(saves).toBe(0);
  });
});

describe('permission service: requests queue, are never lost, and are withdrawn on cancel', () => {
  it('keeps every request until answered, even with no subscriber yet', async () => {
    const service = new PermissionService('/p');
    const a = service.request('s1', 'bash', make);
    const b = service.request('s1', 'bash', { ...make, description: 'second' });
    expect(service.pendingRequests().map((r) => r.description)).toEqual(['Execute command: make', 'second']);
    for (const r of service.pendingRequests()) service.respond(r.id, 'allow');
    await Promise.all([a, b]);
    expect(service.pendingRequests()).toEqual([]);
  });

  it('withdraws a waiting request when its signal aborts, and reports it as denied', async () => {
    const service = new PermissionService('/p');
    const resolved: string[] = [];
    service.onResolved((_id, d) => resolved.push(d));
    const controller = new AbortController();
    const waiting = service.request('s1', 'bash', make, controller.signal);
    expect(service.pendingRequests()).toHaveLength(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(service.pendingRequests()).toEqual([]);
    expect(resolved).toEqual(['deny']);
  });

  it('ignores an answer to a withdrawn request', async () => {
    const service = new PermissionService('/p');
    const controller = new AbortController();
    const waiting = service.request('s1', 'bash', make, controller.signal);
    const [request] = service.pendingRequests();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    service.respond(request!.id, 'allow_session');
    expect(service.sessionGrants('s1')).toEqual([]);
  });
});

describe('permission service: without a person (opencode -p)', () => {
  const rules = permissionRules({ bash: { 'rm *': 'deny' } });

  it('approves what would ask, as the original; deny rules hold; a file change outside the project is refused', async () => {
    const service = new PermissionService('/p', { rules });
    service.onRequest(() => {
      throw new Error('must not ask');
    });
    service.setUnattended({ autoApprove: true });
    await service.request('s1', 'bash', make);
    await service.request('child', 'edit', edit('/p/a.ts'));
    // no sandbox contains a file tool: only a person may let it change what is outside the project
    await expect(service.request('child', 'edit', edit('/tmp/outside'))).rejects.toThrow(
      new PermissionRuleError(
        'Permission denied: opencode -p approves no such call without a person (outside the project: /tmp/outside). Run it in the TUI to approve it: Replace content in file /tmp/outside',
      ),
    );
    await expect(service.request('s1', 'bash', bash('rm x', [part('rm x', 'rm *')]))).rejects.toBeInstanceOf(
      PermissionRuleError,
    );
  });

  it('with --no-auto-approve, refuses what would ask with a result that says so; allowed calls run', async () => {
    const service = new PermissionService('/p', { rules: permissionRules({ bash: { 'make*': 'allow' } }) });
    service.setUnattended({ autoApprove: false });
    await service.request('s1', 'bash', make);
    await expect(service.request('s1', 'edit', edit('/p/a.ts'))).rejects.toThrow(
      new PermissionRuleError(
        'Permission denied: opencode -p was run with --no-auto-approve and this call needs approval: Replace content in file /p/a.ts',
      ),
    );
  });

  it('autoApproveSession approves one session only', async () => {
    const service = new PermissionService('/p');
    service.autoApproveSession('s1');
    await service.request('s1', 'bash', make);
    void service.request('s2', 'bash', make);
    expect(service.pendingRequests().map((r) => r.sessionId)).toEqual(['s2']);
  });
});
