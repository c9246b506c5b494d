/**
 * The gate's verdict before a tool runs, from the rules keyed by its name and how the tool asks itself
 * (permission/gate.ts): one row per case, with the rules as `.opencode.json` would hold them.
 */
import { describe, expect, it } from 'vitest';
import { gateVerdict, type GateVerdict, type ToolAsks } from '../../src/permission/gate.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import { PermissionService, type PermissionOutcome } from '../../src/permission/service.js';

const denied = (tool: string, rule: string): GateVerdict & { action: 'deny' } => ({
  action: 'deny',
  message:
    `Permission denied: ${tool} is denied by the permission rule ${rule}. ` +
    "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
});

const rows: [string, PermissionSetting | undefined, string, ToolAsks | undefined, GateVerdict][] = [
  ['no rule: the tool runs as it always did', undefined, 'view', undefined, { action: 'run' }],
  [
    'a deny rule refuses a tool that never asks',
    { view: 'deny' },
    'view',
    undefined,
    denied('view', 'view "*": "deny"'),
  ],
  [
    'a deny rule refuses a tool that asks per call (MCP)',
    { github_create_issue: 'deny' },
    'github_create_issue',
    'call',
    denied('github_create_issue', 'github_create_issue "*": "deny"'),
  ],
  [
    'a tool-name wildcard counts',
    { 'github_*': 'deny' },
    'github_create_issue',
    'call',
    denied('github_create_issue', 'github_* "*": "deny"'),
  ],
  ['"permission": "deny" refuses every tool', 'deny', 'grep', undefined, denied('grep', 'every tool "*": "deny"')],
  [
    'a later allow of the tool wins',
    { 'plugin_*': 'deny', plugin_mark: 'allow' },
    'plugin_mark',
    undefined,
    { action: 'run' },
  ],
  [
    'a deny for every subject refuses a subject tool',
    { bash: 'deny' },
    'bash',
    'subject',
    denied('bash', 'bash "*": "deny"'),
  ],
  [
    'a later subject rule that allows leaves it to the subject',
    { bash: { '*': 'deny', 'ls*': 'allow' } },
    'bash',
    'subject',
    { action: 'run' },
  ],
  [
    'a later subject rule that asks leaves it to the subject',
    { edit: { '*': 'deny', 'docs/*': 'ask' } },
    'edit',
    'subject',
    { action: 'run' },
  ],
  [
    'later subject rules that deny too still refuse',
    { bash: { '*': 'deny', 'rm *': 'deny' } },
    'bash',
    'subject',
    denied('bash', 'bash "*": "deny"'),
  ],
  [
    'subject rules mean nothing to a tool without a subject',
    { view: { '*': 'deny', 'src/*': 'allow' } },
    'view',
    undefined,
    denied('view', 'view "*": "deny"'),
  ],
  [
    'an ask rule asks for a tool that never asks',
    { runtime_mark: 'ask' },
    'runtime_mark',
    undefined,
    { action: 'ask' },
  ],
  ['"permission": "ask" asks for reads too', 'ask', 'view', undefined, { action: 'ask' }],
  [
    'an ask rule is left to a tool that asks per call',
    { fs_write_file: 'ask' },
    'fs_write_file',
    'call',
    { action: 'run' },
  ],
  ['an ask rule is left to a subject tool', { bash: 'ask' }, 'bash', 'subject', { action: 'run' }],
  ['an allow rule runs the tool', { plugin_asking: 'allow' }, 'plugin_asking', undefined, { action: 'run' }],
  ['rules of other tools do not count', { bash: 'deny', edit: 'ask' }, 'view', undefined, { action: 'run' }],
];

describe('gateVerdict', () => {
  it.each(rows)('%s', (_name, setting, tool, asks, expected) => {
    expect(gateVerdict(tool, asks, permissionRules(setting))).toEqual(expected);
  });
});

describe('PermissionService.gate', () => {
  it('reports a refusal like a rule refusing a request, and nothing when the tool may run', () => {
    const service = new PermissionService('/work/project', { rules: permissionRules({ view: 'deny', grep: 'ask' }) });
    const outcomes: PermissionOutcome[] = [];
    service.onOutcome((o) => outcomes.push(o));
    const description = 'execute view with the following parameters: {"file_path":"a.ts"}';
    expect(service.gate('s1', 'view', undefined, description)).toEqual(denied('view', 'view "*": "deny"'));
    expect(service.gate('s1', 'grep', undefined, 'execute grep with the following parameters: {}')).toEqual({
      action: 'ask',
    });
    expect(service.gate('s1', 'ls', undefined, 'execute ls with the following parameters: {}')).toEqual({
      action: 'run',
    });
    expect(outcomes).toEqual([
      {
        sessionId: 's1',
        toolName: 'view',
        description,
        decision: 'deny',
        by: 'rule',
        message: denied('view', 'view "*": "deny"').message,
      },
    ]);
  });
});
