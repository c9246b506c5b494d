import { describe, expect, it } from 'vitest';
import { PermissionService } from '../../src/permission/service.js';
import { PermissionDeniedError } from '../../src/tools/tool.js';
import type { PermissionRequest } from '../../src/permission/types.js';

const ask = { action: 'execute', description: 'Execute command: make', params: { command: 'make' } };

describe('permission service', () => {
  it('publishes a request and resolves when it is allowed once', async () => {
    const service = new PermissionService('/p');
    const seen: PermissionRequest[] = [];
    service.onRequest((r) => {
      seen.push(r);
      service.respond(r.id, 'allow');
    });
    await service.request('s1', 'bash', ask);
    await service.request('s1', 'bash', ask);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ sessionId: 's1', toolName: 'bash', action: 'execute', path: '/p', description: 'Execute command: make' });
  });

  it('throws PermissionDeniedError on deny', async () => {
    const service = new PermissionService('/p');
    service.onRequest((r) => service.respond(r.id, 'deny'));
    await expect(service.request('s1', 'bash', ask)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('remembers allow-for-session for the same session, tool, action and path only', async () => {
    const service = new PermissionService('/p');
    let asked = 0;
    service.onRequest((r) => {
      asked++;
      service.respond(r.id, 'allow_session');
    });
    await service.request('s1', 'edit', { ...ask, action: 'write', path: '/p/a.ts' });
    await service.request('s1', 'edit', { ...ask, action: 'write', path: '/p/a.ts' });
    expect(asked).toBe(1);
    await service.request('s1', 'edit', { ...ask, action: 'write', path: '/p/b.ts' });
    await service.request('s2', 'edit', { ...ask, action: 'write', path: '/p/a.ts' });
    expect(asked).toBe(3);
  });

  it('keeps every request until answered, even with no subscriber yet', async () => {
    const service = new PermissionService('/p');
    const a = service.request('s1', 'bash', ask);
    const b = service.request('s1', 'bash', { ...ask, description: 'second' });
    expect(service.pendingRequests().map((r) => r.description)).toEqual(['Execute command: make', 'second']);
    for (const r of service.pendingRequests()) service.respond(r.id, 'allow');
    await Promise.all([a, b]);
    expect(service.pendingRequests()).toEqual([]);
  });

  it('lets a waiting caller be cancelled', async () => {
    const service = new PermissionService('/p');
    const controller = new AbortController();
    const waiting = service.request('s1', 'bash', ask, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(service.pendingRequests()).toEqual([]);
  });

  it('auto-approves a session without asking', async () => {
    const service = new PermissionService('/p');
    service.onRequest(() => {
      throw new Error('must not ask');
    });
    service.autoApproveSession('s1');
    await service.request('s1', 'bash', ask);
  });

  it('consults the policy first', async () => {
    const service = new PermissionService('/p', (r) => (r.toolName === 'fetch' ? 'deny' : 'allow'));
    await service.request('s1', 'bash', ask);
    await expect(service.request('s1', 'fetch', ask)).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
