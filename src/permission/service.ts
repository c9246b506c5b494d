/**
 * The permission service (the original's request, grant and deny): tools ask, the rules answer, and when they say
 * "ask", the person does.
 *
 * Fixes over the original: requests are kept in a map until answered, never dropped by a lossy queue;
 * a waiting caller is withdrawn when its run is cancelled (AbortSignal); "allow for session" grants
 * what was asked (`git checkout *`, that file, that host, that tool), not every later call of the tool
 * in the cwd (crush#497); "always allow in this project" writes the rule into `.opencode.json`.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { abortError } from '../abort.js';
import { PermissionDeniedError, PermissionRuleError } from './errors.js';
import { gateVerdict, type GateVerdict, type ToolAsks } from './gate.js';
import { evaluatePermission, projectPathCheck, type Verdict } from './policy.js';
import { nestedRefusal } from './nested-run.js';
import { hasWildcard } from './rules.js';
import type {
  PermissionAskInput,
  PermissionDecision,
  PermissionGrant,
  PermissionRequest,
  PermissionRule,
  PermissionSubject,
  SessionGrant,
} from './types.js';

/** A request as tools make it: what the dialog shows, and what rules and grants are matched against. */
export type PermissionRequestInput = PermissionAskInput & { subject?: PermissionSubject; toolCallId?: string };

export interface PermissionServiceOptions {
  /** the `permission` rules (`permissionRules(config.permission)`), in order */
  rules?: PermissionRule[];
  /**
   * Writes `allow` rules for "always allow in this project" (`saveProjectRules` in project-rules.ts);
   * `literal`: the patterns are file paths or hosts, not wildcards. Returns warnings to report (e.g. a
   * later rule overrides the new one); throws when it cannot write.
   */
  saveRules?: (toolName: string, patterns: string[], options: { literal: boolean }) => string[];
  /** problems worth showing that do not fail the call (the rule could not be saved, …) */
  onWarning?: (message: string, sessionId: string) => void;
  /**
   * This process was started by another opencode's command (`isNestedRun()` in nested-run.ts): what
   * would ask is refused with a result that says why, in every mode (nobody here is the person, even
   * at a dialog); rules still allow and deny.
   */
  nested?: boolean;
}

/** How a run without a person (`opencode -p`) treats what would ask. */
export interface UnattendedMode {
  /** true: approve (the original's -p); false: refuse with a result that says so (`--no-auto-approve`) */
  autoApprove: boolean;
}

type Listener = (request: PermissionRequest) => void;

/** Why a call the rules allow is asked about: it may run outside the sandbox, which only the person can allow. */
export const SANDBOX_ESCAPE_REASON =
  'the rules allow it inside the sandbox; running it outside the sandbox needs your word';

/**
 * How one request was decided, for reports (`opencode -p -f stream-json`): `by` a rule (or
 * the defaults: read-only calls), a grant for the session, the unattended mode of `-p`, or the person.
 * A request withdrawn by a cancel is not reported.
 */
export interface PermissionOutcome {
  sessionId: string;
  toolName: string;
  /** what the call would do, as the dialog says it */
  description: string;
  decision: PermissionDecision;
  by: 'rule' | 'session' | 'unattended' | 'person';
  /** why it was refused, for a refusal by a rule or by `--no-auto-approve` */
  message?: string;
}

interface Pending {
  request: PermissionRequest;
  subject?: PermissionSubject;
  settle: (decision: PermissionDecision) => void;
}

export class PermissionService {
  private readonly pending = new Map<string, Pending>();
  private readonly grants = new Map<string, SessionGrant[]>();
  private readonly autoApproved = new Set<string>();
  private unattended: UnattendedMode | undefined;
  private rules: PermissionRule[];
  private readonly isInsideProject: (path: string) => boolean;
  private readonly listeners = new Set<Listener>();
  private readonly resolvedListeners = new Set<(id: string, decision: PermissionDecision) => void>();
  private readonly outcomeListeners = new Set<(outcome: PermissionOutcome) => void>();

  /** @param cwd the project directory (absolute); requests without a path concern it */
  constructor(
    private readonly cwd: string,
    private readonly options: PermissionServiceOptions = {},
  ) {
    this.rules = [...(options.rules ?? [])];
    this.isInsideProject = projectPathCheck(cwd);
  }

  /**
   * Asks for permission. Resolves when allowed (by a rule, the default, a grant, -p mode or the
   * person), with how it was allowed. Throws {@link PermissionRuleError} when a rule denies it or `--no-auto-approve` refuses it,
   * {@link PermissionDeniedError} when the person denies it, and an `AbortError` when `signal` aborts
   * while waiting (the request is withdrawn). With no subscriber to answer, waits until one does.
   */
  async request(
    sessionId: string,
    toolName: string,
    input: PermissionRequestInput,
    signal?: AbortSignal,
  ): Promise<PermissionGrant> {
    signal?.throwIfAborted();
    const verdict = this.evaluate(sessionId, toolName, input.subject);
    // a sandboxed command that reaches where the sandbox refuses cannot work inside it: the way out is offered at once
    const escape =
      input.sandboxEscape === true || (input.sandboxed === true && cannotWorkInSandbox(input.subject, verdict));
    const decided = (decision: PermissionDecision, by: PermissionOutcome['by'], message?: string): PermissionGrant => {
      const outcome: PermissionOutcome = {
        sessionId,
        toolName,
        description: input.description,
        decision,
        by,
        ...(message ? { message } : {}),
      };
      for (const listener of [...this.outcomeListeners]) listener(outcome);
      // outside the sandbox only when it was offered: an answer the request did not offer grants no more than allow
      return { by, outsideSandbox: decision === 'allow_outside_sandbox' && escape };
    };
    if (verdict.action === 'deny') {
      decided('deny', 'rule', verdict.message);
      throw new PermissionRuleError(verdict.message);
    }
    // a call the rules allow still goes to the person when it may leave the sandbox: only they can let it
    // out (never -p, which picks nothing outside, nor a session approved wholesale)
    const offerEscape = verdict.action === 'allow' && escape && !this.unattended && !this.autoApproved.has(sessionId);
    if (verdict.action === 'allow' && !offerEscape) return decided('allow', 'rule');
    const asked = verdict.action === 'ask' ? verdict : { scopes: [], grants: [], reasons: [SANDBOX_ESCAPE_REASON] };
    // started by another opencode's command: whoever would answer here is not the person (the model can
    // drive a terminal too), so what would ask is refused, in every front end
    if (this.options.nested) {
      const message = nestedRefusal(input.description);
      decided('deny', 'unattended', message);
      throw new PermissionRuleError(message);
    }
    if (this.autoApproved.has(sessionId)) return decided('allow', 'session');
    // a file tool has no sandbox around it: what only the person may allow (a change outside the project
    // or to a file that decides what runs, a read of a secret place) is not approved by -p on its own.
    // A command's writes are contained by the sandbox instead.
    const beyondRules =
      verdict.action === 'ask' && input.subject && input.subject.kind !== 'command' ? (verdict.beyondRules ?? []) : [];
    if (this.unattended?.autoApprove && beyondRules.length > 0) {
      const message = `Permission denied: opencode -p approves no such call without a person (${beyondRules.join('; ')}). Run it in the TUI to approve it: ${input.description}`;
      decided('deny', 'unattended', message);
      throw new PermissionRuleError(message);
    }
    if (this.unattended?.autoApprove) return decided('allow', 'unattended');
    if (this.unattended) {
      const message = `Permission denied: opencode -p was run with --no-auto-approve and this call needs approval: ${input.description}`;
      decided('deny', 'unattended', message);
      throw new PermissionRuleError(message);
    }

    const request: PermissionRequest = {
      id: randomUUID(),
      sessionId,
      toolName,
      action: input.action,
      description: input.description,
      params: input.params,
      path: resolve(this.cwd, input.path ?? this.cwd),
      scopes: asked.scopes,
      reasons: asked.reasons,
      createdAt: Date.now(),
      ...(input.toolCallId ? { toolCallId: input.toolCallId } : {}),
      ...(escape ? { sandboxEscape: true } : {}),
    };
    const decision = await new Promise<PermissionDecision>((resolveDecision, reject) => {
      const onAbort = () => {
        this.pending.delete(request.id);
        this.emitResolved(request.id, 'deny');
        reject(signal!.reason instanceof Error ? signal!.reason : abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        subject: input.subject,
        settle: (d) => {
          signal?.removeEventListener('abort', onAbort);
          resolveDecision(d);
        },
      });
      for (const listener of [...this.listeners]) listener(request);
    });
    const grant = decided(decision, 'person');
    if (decision === 'deny') throw new PermissionDeniedError();
    if (decision === 'allow_session') this.grant(sessionId, asked.grants);
    if (decision === 'allow_always') this.allowAlways(sessionId, toolName, asked.grants);
    return grant;
  }

  /**
   * Answers a pending request. Unknown ids (already answered or withdrawn) are ignored. A grant also
   * settles the other pending requests it now covers.
   */
  respond(requestId: string, decision: PermissionDecision): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    entry.settle(decision);
    this.emitResolved(requestId, decision);
  }

  /** Every later request of this session that would ask is allowed (rules still deny). */
  autoApproveSession(sessionId: string): void {
    this.autoApproved.add(sessionId);
  }

  /**
   * For a run without a person (`opencode -p`), every session: what would ask is approved, or with
   * `autoApprove: false` refused with a result that says so. Deny rules hold either way. In a run
   * started by another opencode's command ({@link PermissionServiceOptions.nested}) nothing is approved this way.
   */
  setUnattended(mode: UnattendedMode | undefined): void {
    this.unattended = mode;
  }

  /** The session's grants so far (for a UI that lists them). */
  sessionGrants(sessionId: string): SessionGrant[] {
    return [...(this.grants.get(sessionId) ?? [])];
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

  /** Subscribes to answers (a withdrawn request is reported as `deny`, one a grant covered as `allow`). */
  onResolved(listener: (id: string, decision: PermissionDecision) => void): () => void {
    this.resolvedListeners.add(listener);
    return () => this.resolvedListeners.delete(listener);
  }

  /**
   * The gate a call of `toolName` passes before the tool runs (see gate.ts): what the rules say of the
   * tool as a whole, for a tool that asks as `asks` says. A refusal is reported like a rule's refusal
   * of a request, with `description` (what the call would do); for `ask`, the caller asks through
   * {@link request} (no subject) before the tool runs.
   */
  gate(sessionId: string, toolName: string, asks: ToolAsks | undefined, description: string): GateVerdict {
    const verdict = gateVerdict(toolName, asks, this.rules);
    if (verdict.action === 'deny') {
      const outcome: PermissionOutcome = {
        sessionId,
        toolName,
        description,
        decision: 'deny',
        by: 'rule',
        message: verdict.message,
      };
      for (const listener of [...this.outcomeListeners]) listener(outcome);
    }
    return verdict;
  }

  /** Subscribes to how each request was decided (see {@link PermissionOutcome}); returns the unsubscribe function. */
  onOutcome(listener: (outcome: PermissionOutcome) => void): () => void {
    this.outcomeListeners.add(listener);
    return () => this.outcomeListeners.delete(listener);
  }

  private evaluate(sessionId: string, toolName: string, subject: PermissionSubject | undefined): Verdict {
    return evaluatePermission(toolName, subject, {
      rules: this.rules,
      grants: this.grants.get(sessionId) ?? [],
      cwd: this.cwd,
      isInsideProject: this.isInsideProject,
    });
  }

  private grant(sessionId: string, grants: SessionGrant[]): void {
    if (grants.length === 0) return;
    const list = this.grants.get(sessionId) ?? [];
    for (const g of grants) {
      if (!list.some((x) => x.tool === g.tool && x.pattern === g.pattern && x.literal === g.literal)) list.push(g);
    }
    this.grants.set(sessionId, list);
    this.settleCovered((entry) => entry.request.sessionId === sessionId);
  }

  /** Grants for the session at once, then writes the rules; a failed write is a warning, not a failure. */
  private allowAlways(sessionId: string, toolName: string, grants: SessionGrant[]): void {
    this.grant(sessionId, grants);
    if (grants.length === 0) return;
    const patterns = grants.map((g) => g.pattern);
    const literal = grants.some((g) => g.literal);
    // every session of this project follows the new rules from now on, as the next start will; a file
    // name with * or ? cannot be a rule (it would be read as a wildcard): the session grant covers it
    const rules = patterns.filter((p) => !(literal && hasWildcard(p)));
    this.rules = [...this.rules, ...rules.map((pattern) => ({ tool: toolName, pattern, action: 'allow' as const }))];
    try {
      for (const warning of this.options.saveRules?.(toolName, patterns, { literal }) ?? [])
        this.options.onWarning?.(warning, sessionId);
    } catch (err) {
      this.options.onWarning?.(
        `The rule was applied for now but could not be saved to .opencode.json: ${(err as Error).message}`,
        sessionId,
      );
    }
    this.settleCovered(() => true);
  }

  /** Pending requests that the rules and grants now allow are settled as allowed. */
  private settleCovered(which: (entry: Pending) => boolean): void {
    for (const [id, entry] of [...this.pending]) {
      if (!which(entry)) continue;
      const verdict = this.evaluate(entry.request.sessionId, entry.request.toolName, entry.subject);
      // a request that may leave the sandbox waits for the person: a grant only covers running inside
      if (verdict.action === 'allow' && !entry.request.sandboxEscape) this.respond(id, 'allow');
    }
  }

  private emitResolved(id: string, decision: PermissionDecision): void {
    for (const listener of [...this.resolvedListeners]) listener(id, decision);
  }
}

/**
 * Whether a command reaches where the OS sandbox refuses even when the person approves it: the
 * policy found a write outside the project or to a file that decides what runs, or a system change
 * (`leavesSandbox`). A write to a place known only when it runs (`> "$f"`, `$TMPDIR/x`, a loop's
 * variable) does not count: most such places are in the project or the temp folder, and a refusal
 * there offers the way out on the retry.
 */
function cannotWorkInSandbox(subject: PermissionSubject | undefined, verdict: Verdict): boolean {
  return subject?.kind === 'command' && verdict.action === 'ask' && verdict.leavesSandbox === true;
}
