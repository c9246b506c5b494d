/**
 * A run cancelled while its permission request waits: the request is withdrawn (the dialog closes),
 * nothing is written, and the session is left usable. Through the real agent loop and service.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';
import type { PermissionDecision } from '../../src/permission/types.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('cancelling a run that waits for permission', () => {
  it('withdraws the pending request and writes nothing', async () => {
    h = await agentHarness(
      [{ toolCalls: [{ name: 'write', input: { file_path: 'made.txt', content: 'x' } }] }, { text: 'ok' }],
      {
        answer: 'none',
      },
    );
    const resolved: [string, PermissionDecision][] = [];
    h.permission.onResolved((id, d) => resolved.push([id, d]));
    const running = h.agent.run(h.sessionId, 'make a file');
    await until(() => h!.permission.pendingRequests().length === 1);
    const [request] = h.permission.pendingRequests();
    expect(request).toMatchObject({ toolName: 'write', action: 'write', scopes: ['made.txt'] });

    h.agent.cancel(h.sessionId);
    const result = await running;
    expect(result.reason).toBe('canceled');
    expect(h.permission.pendingRequests()).toEqual([]);
    expect(resolved).toEqual([[request!.id, 'deny']]);
    expect(existsSync(join(h.dir, 'made.txt'))).toBe(false);
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'write', content: 'Tool execution canceled by user', isError: true },
    ]);

    // a late answer to the withdrawn request changes nothing, and the session runs again
    h.permission.respond(request!.id, 'allow_session');
    expect(h.permission.sessionGrants(h.sessionId)).toEqual([]);
    h.permission.onRequest((r) => h!.permission.respond(r.id, 'allow'));
    expect((await h.agent.run(h.sessionId, 'again')).reason).toBe('end_turn');
  });
});
