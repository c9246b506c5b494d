/**
 * Our permission answers as ACP `session/request_permission` options, and the editor's pick
 * back as a {@link PermissionDecision}. Policy as data: one row per answer.
 *
 * ACP's option kinds (`allow_once`, `allow_always`, `reject_once`, `reject_always`) are only hints for
 * the editor's icons; our `optionId` carries the decision. "For this session" and "in this project"
 * are both kept beyond this call, so both are `allow_always`.
 */
import type {
  PermissionOption,
  RequestPermissionOutcome,
  ToolCallContent,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { permissionChoices } from '../permission/choices.js';
import type { PermissionDecision, PermissionRequest } from '../permission/types.js';
import { TOOL_DISPLAY } from './tool-display.js';

interface OptionRow {
  decision: PermissionDecision;
  kind: PermissionOption['kind'];
  /** the label; `scope` is what the grant covers, e.g. `git checkout *` */
  name: (scope: string) => string;
}

/**
 * The options, in the order the editor shows them:
 * - `allow`: this call only ("Allow once");
 * - `allow_session`: the request's scopes for the rest of the session ("Allow git checkout * for this session");
 * - `allow_always`: the scopes as allow rules in the project's .opencode.json ("Always allow git checkout * in this project");
 * - `allow_outside_sandbox`: this call only, outside the OS sandbox ("Run outside the sandbox (full access, no sandbox)");
 * - `deny`: no; the turn ends ("Deny").
 */
export const PERMISSION_OPTIONS: readonly OptionRow[] = [
  { decision: 'allow', kind: 'allow_once', name: () => 'Allow once' },
  { decision: 'allow_session', kind: 'allow_always', name: (scope) => `Allow ${scope} for this session` },
  { decision: 'allow_always', kind: 'allow_always', name: (scope) => `Always allow ${scope} in this project` },
  {
    decision: 'allow_outside_sandbox',
    kind: 'allow_once',
    name: () => 'Run outside the sandbox (full access, no sandbox)',
  },
  { decision: 'deny', kind: 'reject_once', name: () => 'Deny' },
];

/**
 * The options for `request`, those `permissionChoices` offers: without scopes (a write outside the
 * project, an unanalysable command) no session or project grant; outside the sandbox only when the
 * request offers it.
 */
export function permissionOptions(
  request: Pick<PermissionRequest, 'scopes' | 'toolName' | 'sandboxEscape'>,
): PermissionOption[] {
  const scope = describeScopes(request);
  const offered = permissionChoices(request);
  return PERMISSION_OPTIONS.filter((row) => offered.includes(row.decision)).map((row) => ({
    optionId: row.decision,
    name: row.name(scope),
    kind: row.kind,
  }));
}

/**
 * The decision the editor's answer means: the picked option's, `deny` for a cancelled request (ACP:
 * the editor answers `cancelled` after `session/cancel`) or an option id we did not offer.
 */
export function decisionOf(outcome: RequestPermissionOutcome): PermissionDecision {
  if (outcome.outcome !== 'selected') return 'deny';
  return PERMISSION_OPTIONS.find((row) => row.decision === outcome.optionId)?.decision ?? 'deny';
}

/**
 * The tool call the request is about, as the editor shows it. A call the editor was already told of
 * (`announced`) keeps its content (the diff): only its title becomes the request's line. Otherwise
 * (a sub-agent's call, a plugin's request) the call is described in full: the request's line, the
 * unified diff of a file change and why it asks.
 */
export function permissionToolCall(request: PermissionRequest, announced: boolean): ToolCallUpdate {
  const kind = TOOL_DISPLAY[request.toolName]?.kind ?? 'other';
  if (announced && request.toolCallId)
    return { toolCallId: request.toolCallId, title: request.description, kind, status: 'pending' };
  const content: ToolCallContent[] = [];
  const diff = request.params.diff;
  if (typeof diff === 'string' && diff !== '') content.push({ type: 'content', content: { type: 'text', text: diff } });
  if (request.reasons.length > 0)
    content.push({ type: 'content', content: { type: 'text', text: request.reasons.join('\n') } });
  return {
    toolCallId: request.toolCallId ?? `permission-${request.id}`,
    title: request.description,
    kind,
    status: 'pending',
    locations: [{ path: request.path }],
    content,
    rawInput: request.params,
  };
}

/** `git checkout *`, `src/a.ts and src/b.ts`, `every edit` (the pattern `*`). */
function describeScopes(request: Pick<PermissionRequest, 'scopes' | 'toolName'>): string {
  if (request.scopes.length === 1 && request.scopes[0] === '*') return `every ${request.toolName} call`;
  if (request.scopes.length <= 2) return request.scopes.join(' and ');
  return `${request.scopes.slice(0, 2).join(', ')} and ${request.scopes.length - 2} more`;
}
