/**
 * The answers a permission request can be given (issue 13 §13): only those that grant what they
 * say. When nothing beyond this call can be granted (`request.scopes` is empty: a write outside the
 * project, a command that could not be analysed, opaque code under a deny rule), "allow for
 * session" and "always allow in this project" would grant nothing, so they are not offered.
 */
import type { PermissionDecision, PermissionRequest } from './types.js';

/** The decisions to offer for `request`, in the order a dialog lists them. */
export function permissionChoices(request: Pick<PermissionRequest, 'scopes'>): PermissionDecision[] {
  return request.scopes.length > 0 ? ['allow', 'allow_session', 'allow_always', 'deny'] : ['allow', 'deny'];
}
