/**
 * Permission request shapes (reference §4). The service lives in `service.ts`; tools only see
 * {@link PermissionAsk}.
 */

/** What a tool asks for. `path` is the file or directory concerned (absolute); defaults to the cwd. */
export interface PermissionAskInput {
  /** e.g. `execute`, `write`, `fetch` */
  action: string;
  /** one line shown to the person, e.g. `Execute command: npm test` */
  description: string;
  /** tool-specific details for the dialog (command, diff, url) */
  params: Record<string, unknown>;
  path?: string;
}

/**
 * Asks the person (or the rules) for permission. Resolves when allowed;
 * throws `PermissionDeniedError` when denied, and an `AbortError` when the signal aborts while waiting.
 */
export type PermissionAsk = (input: PermissionAskInput) => Promise<void>;

/** A pending request, as published to the UI. */
export interface PermissionRequest extends Required<Omit<PermissionAskInput, 'path'>> {
  id: string;
  sessionId: string;
  toolName: string;
  /** absolute path the request concerns */
  path: string;
  /** unix ms */
  createdAt: number;
}

/** The person's answer: this call only, the rest of the session (same tool, action and path), or no. */
export type PermissionDecision = 'allow' | 'allow_session' | 'deny';

/**
 * A pluggable policy consulted before the person is asked (rules, shell analysis: later issues).
 * `ask` falls through to session grants and then to the person.
 */
export type PermissionPolicy = (request: PermissionRequest) => 'allow' | 'deny' | 'ask';
