/**
 * The two ways a permission request is refused, as errors its caller throws on. Tools let them
 * propagate; the tool kernel (`resultFromError` in tools/tool.ts) turns them into results.
 */

/**
 * The person denied the request in the dialog (or the editor). The call's result says so and the
 * turn ends: the agent stops and waits for the person.
 */
export class PermissionDeniedError extends Error {
  constructor(message = 'Permission denied') {
    super(message);
    this.name = 'PermissionDeniedError';
  }
}

/**
 * A rule denied the call (or it needed approval when `opencode -p --no-auto-approve` cannot give it).
 * The model gets the message as an error result and the turn goes on, so it can do without; a denial
 * by the person ({@link PermissionDeniedError}) ends the turn instead.
 */
export class PermissionRuleError extends Error {
  /** for the UI, like a tool error's metadata; none is set today */
  readonly metadata?: Record<string, unknown>;
  constructor(message: string, metadata?: Record<string, unknown>) {
    super(message);
    this.name = 'PermissionRuleError';
    this.metadata = metadata;
  }
}
