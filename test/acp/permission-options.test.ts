/**
 * Our four answers as ACP permission options (one example per row), the editor's pick back as a
 * decision, and the tool call a question is about.
 */
import { describe, expect, it } from 'vitest';
import {
  decisionOf,
  permissionOptions,
  permissionToolCall,
  PERMISSION_OPTIONS,
} from '../../src/acp/permission-options.js';
import type { PermissionRequest } from '../../src/permission/types.js';

const request = (over: Partial<PermissionRequest> = {}): PermissionRequest => ({
  id: 'req-1',
  sessionId: 's1',
  toolName: 'bash',
  action: 'execute',
  description: 'Execute command: git checkout -b feature',
  params: { command: 'git checkout -b feature' },
  path: '/work/project',
  scopes: ['git checkout *'],
  reasons: ['git checkout -b feature: not a read-only command'],
  createdAt: 0,
  ...over,
});

describe('permissionOptions', () => {
  it('offers once, for the session, always in the project and deny, named by what they grant', () => {
    expect(permissionOptions(request())).toEqual([
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow_session', name: 'Allow git checkout * for this session', kind: 'allow_always' },
      { optionId: 'allow_always', name: 'Always allow git checkout * in this project', kind: 'allow_always' },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
    ]);
  });

  it('offers only once and deny when nothing beyond the call can be granted (a write outside the project)', () => {
    expect(permissionOptions(request({ scopes: [] })).map((o) => o.optionId)).toEqual(['allow', 'deny']);
  });

  it('names a whole-tool scope, and many scopes, readably', () => {
    expect(permissionOptions(request({ toolName: 'fetch', scopes: ['*'] }))[1]!.name).toBe(
      'Allow every fetch call for this session',
    );
    expect(permissionOptions(request({ scopes: ['a', 'b', 'c', 'd'] }))[1]!.name).toBe(
      'Allow a, b and 2 more for this session',
    );
  });
});

describe('decisionOf', () => {
  it.each(PERMISSION_OPTIONS.map((row) => [row.decision] as const))('the option %s is that decision', (decision) => {
    expect(decisionOf({ outcome: 'selected', optionId: decision })).toBe(decision);
  });
  it('a cancelled question or an option we never offered is a denial', () => {
    expect(decisionOf({ outcome: 'cancelled' })).toBe('deny');
    expect(decisionOf({ outcome: 'selected', optionId: 'allow_forever' })).toBe('deny');
  });
});

describe('permissionToolCall', () => {
  it('a call the editor knows keeps its content: only the title changes', () => {
    expect(permissionToolCall(request({ toolCallId: 'toolu_1' }), true)).toEqual({
      toolCallId: 'toolu_1',
      title: 'Execute command: git checkout -b feature',
      kind: 'execute',
      status: 'pending',
    });
  });

  it('an unknown call (a sub-agent, a plugin) is described in full: diff and reasons as text', () => {
    const call = permissionToolCall(
      request({ toolName: 'edit', params: { file_path: '/p/a', diff: '--- a\n+++ b\n' }, path: '/p/a', reasons: [] }),
      false,
    );
    expect(call).toEqual({
      toolCallId: 'permission-req-1',
      title: 'Execute command: git checkout -b feature',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: '/p/a' }],
      content: [{ type: 'content', content: { type: 'text', text: '--- a\n+++ b\n' } }],
      rawInput: { file_path: '/p/a', diff: '--- a\n+++ b\n' },
    });
  });
});
