/**
 * The permission service (reference §4): tools ask, the person (or a policy) answers.
 *
 * Fixes over the original: requests are kept in a map until answered, never dropped by a lossy queue;
 * a waiting caller can be cancelled through its AbortSignal; session grants are keyed by a scope
 * string the tool gives (later issues scope them more finely), not by the whole cwd.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { PermissionDeniedError } from '../tools/tool.js';
import type { PermissionAskInput, PermissionDecision, PermissionPolicy, PermissionRequest } from './types.js';

type Listener = (request: PermissionRequest) => void;

export class PermissionService {
  private readonly pending = new Map<
    string,
    { request: PermissionRequest; settle: (decision: PermissionDecision) => void }
  >();
  private readonly sessionGrants = new Set<string>();
  private readonly autoApproved = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private readonly resolvedListeners = new Set<(id: string, decision: PermissionDecision) => void>();

  /**
   * @param cwd the project directory; requests without a path concern it
   * @param policy consulted first (rules, shell analysis); `ask` falls through to grants and the person
   */
  constructor(
    private readonly cwd: string,
    private readonly policy?: PermissionPolicy,
  ) {}

  /**
   * Asks for permission. Resolves when allowed; throws {@link PermissionDeniedError} when denied, or an
   * `AbortError` when `signal` aborts while waiting. With no subscriber to answer, waits until one does.
   */
  async request(
    sessionId: string,
    toolName: string,
    input: PermissionAskInput,
    signal?: AbortSignal,
  ): Promise<void> {
    signal?.throwIfAborted();
    const request: PermissionRequest = {
      id: randomUUID(),
      sessionId,
      toolName,
      action: input.action,
      description: input.description,
      params: input.params,
      path: resolve(this.cwd, input.path ?? this.cwd),
      createdAt: Date.now(),
    };
    const verdict = this.policy?.(request) ?? 'ask';
    if (verdict === 'deny') throw new PermissionDeniedError(`Permission denied by rule: ${request.description}`);
    if (verdict === 'allow' || this.autoApproved.has(sessionId)) return;
    if (this.sessionGrants.has(grantKey(request))) return;

    const decision = await new Promise<PermissionDecision>((resolveDecision, reject) => {
      const onAbort = () => {
        this.pending.delete(request.id);
        this.emitResolved(request.id, 'deny');
        reject(signal!.reason instanceof Error ? signal!.reason : abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        settle: (d) => {
          signal?.removeEventListener('abort', onAbort);
          resolveDecision(d);
        },
      });
      for (const listener of [...this.listeners]) listener(request);
    });
    if (decision === 'deny') throw new PermissionDeniedError();
    if (decision === 'allow_session') this.sessionGrants.add(grantKey(request));
  }

  /** Answers a pending request. Unknown ids (already answered or cancelled) are ignored. */
  respond(requestId: string, decision: PermissionDecision): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    entry.settle(decision);
    this.emitResolved(requestId, decision);
  }

  /** Every later request of this session is allowed (the original's non-interactive mode). */
  autoApproveSession(sessionId: string): void {
    this.autoApproved.add(sessionId);
  }

  /** Requests waiting for an answer, oldest first (for a UI that subscribes late). */
  pendingRequests(): PermissionRequest[] {
    return [...this.pending.values()].map((e) => e.request);
  }

  /** Subscribes to new requests; returns the unsubscribe function. */
  onRequest(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes to answers (including cancellation, reported as `deny`). */
  onResolved(listener: (id: string, decision: PermissionDecision) => void): () => void {
    this.resolvedListeners.add(listener);
    return () => this.resolvedListeners.delete(listener);
  }

  private emitResolved(id: string, decision: PermissionDecision): void {
    for (const listener of [...this.resolvedListeners]) listener(id, decision);
  }
}

/**
 * The key a session grant is stored under: session, tool, action and the request's path. For bash the
 * path is the cwd, so (as in the original) one grant covers later commands of that session; the
 * permission issue narrows this to the command's prefix.
 */
function grantKey(r: PermissionRequest): string {
  return JSON.stringify([r.sessionId, r.toolName, r.action, r.path]);
}

function abortError(): Error {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}

