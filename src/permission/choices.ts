/**
 * The answers a permission request can be given: only those that grant what they
 * say. When nothing beyond this call can be granted (`request.scopes` is empty: a write outside the
 * project, a command that could not be analysed, opaque code under a deny rule), "allow for
 * session" and "always allow in this project" would grant nothing, so they are not offered.
 * "Run outside the sandbox" is offered only when the tool asks for it (`sandboxEscape`: the command
 * cannot work inside the sandbox, or just failed because of it), after the answers that keep it in.
 */
import type { PermissionDecision, PermissionRequest } from './types.js';

/** The decisions to offer for `request`, in the order a dialog lists them. */
export function permissionChoices(request: Pick<PermissionRequest, 'scopes' | 'sandboxEscape'>): PermissionDecision[] {
  const inside: PermissionDecision[] =
    request.scopes.length > 0 ? ['allow', 'allow_session', 'allow_always'] : ['allow'];
  return [...inside, ...(request.sandboxEscape ? (['allow_outside_sandbox'] as const) : []), 'deny'];
}
