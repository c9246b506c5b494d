/**
 * The agent loop, as the original's with its faults fixed: every tool call gets exactly one
 * result, a denial ends the turn, a step cap ends a runaway loop, read-only calls run concurrently,
 * cancellation leaves a history the API accepts, and a crash never leaves the session busy.
 */
import type { FinishReason, ImagePart, Message, MessagePart, ToolCallPart, ToolResultPart, Usage } from '../message.js';
import { emptyUsage, finishPart, messageText, toolCalls } from '../message.js';
import type { EventBus } from '../events/bus.js';
import type { PermissionService } from '../permission/service.js';
import type { ModelInfo, Provider } from '../provider/types.js';
import type { FileHistory } from '../tools/file-history.js';
import type { FileTimes } from '../tools/file-times.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ShellRunner, ToolContext, ToolHostServices } from '../tools/tool.js';
import type { AgentEvents, RunFinished } from './events.js';
import { systemPrompt, stepLimitMessage, type AgentKind, type PromptEnvironment } from './prompts.js';
import { repairInterruptedTurns, historyForProvider } from './history.js';
import { CANCELED_RESULT, runToolCalls, type ToolCallRecorder } from './tool-calls.js';
import { refusalNote, SessionCallIds, unknownStopNote } from './reply-end.js';
import { streamReply, type StreamServices } from './stream.js';
import { capParts } from '../db/part-cap.js';
import { redactSecrets } from '../tools/redact.js';
import type { AgentSession, AgentStore } from './store.js';

/** Thrown by {@link Agent.run} when the session already has a run in progress. */
export class SessionBusyError extends Error {
  constructor(sessionId: string) {
    super(
      `Session ${sessionId} is busy: the agent is still working on the previous message. Wait for it to finish or cancel it (esc).`,
    );
    this.name = 'SessionBusyError';
  }
}

/** Services the tools of a run share: these three, and the optional ones the app provides (LSP, undo, an editor, the sub-agent). */
export interface ToolServices extends ToolHostServices {
  fileTimes: FileTimes;
  fileHistory: FileHistory;
  /** the persistent shell of a session */
  shellFor: (sessionId: string) => ShellRunner;
}

export interface AgentOptions {
  kind: Extract<AgentKind, 'coder' | 'task'>;
  provider: Provider;
  tools: ToolRegistry;
  store: AgentStore;
  permission: PermissionService;
  bus: EventBus<AgentEvents>;
  toolServices: ToolServices;
  /** built at each run, so context files and the tree are current */
  promptEnvironment: () => PromptEnvironment;
  /** output cap per call, tokens */
  maxTokens: number;
  /** provider calls per run before the loop is stopped; default 100 */
  maxSteps?: number;
  reasoningEffort?: 'low' | 'medium' | 'high';
  /** USD cost of a call's usage */
  computeCost: (model: ModelInfo, usage: Usage) => number;
  /** the tool-call log (db's `ToolCallLog`): every call of this agent is written there as it finishes */
  toolCallLog?: ToolCallRecorder;
  /** generates the session title in the background on the first message; omitted → no title */
  generateTitle?: (sessionId: string, firstMessage: string) => Promise<void>;
  /**
   * Auto-compact (config `autoCompact`; omitted → off). At the start of a run, before the person's new
   * message is stored, the session is compacted with `compact` when its context (the last provider
   * call's input + output, as stored) reaches {@link AUTO_COMPACT_SHARE} of `contextWindowTokens`. A
   * window of 0 (unknown) never triggers it (the original compacted after every reply then).
   */
  autoCompact?: {
    /** the coder model's context window, tokens */
    contextWindowTokens: number;
    /** compacts the session (e.g. `compactSession` bound to the summarizer); called while the run holds the session */
    compact: (sessionId: string, signal: AbortSignal) => Promise<unknown>;
  };
}

/** Share of the context window at which auto-compact triggers (the original's 95 %). */
export const AUTO_COMPACT_SHARE = 0.95;

export interface RunOptions {
  attachments?: ImagePart[];
  signal?: AbortSignal;
}

/** What a run ended with. */
export type RunResult = RunFinished;

export class Agent {
  private readonly busy = new Set<string>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly background = new Set<Promise<void>>();
  /** sessions held by a run or exclusive work → resolves when released */
  private readonly held = new Map<string, { done: Promise<void>; resolve: () => void }>();
  /** sessions already warned that their provider reports no token usage */
  private readonly usageWarned = new Set<string>();

  constructor(private readonly opts: AgentOptions) {}

  get model(): ModelInfo {
    return this.opts.provider.model;
  }

  /** true while `sessionId` has a run in progress */
  isBusy(sessionId: string): boolean {
    return this.busy.has(sessionId);
  }

  /** Cancels the run of `sessionId`, if any. */
  cancel(sessionId: string): void {
    this.controllers.get(sessionId)?.abort();
  }

  /** Cancels every run in progress (the app is closing). */
  cancelAll(): void {
    for (const controller of this.controllers.values()) controller.abort();
  }

  /** Resolves when no run or exclusive work holds a session (after {@link cancelAll}: once they wound down). */
  async runsSettled(): Promise<void> {
    while (this.held.size) await Promise.all([...this.held.values()].map((h) => h.done));
  }

  /** Resolves when background work (title generation) has settled. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.background]);
  }

  /**
   * Sends `text` as the person's message and runs the loop until the model ends its turn.
   * Resolves with how the run ended (provider errors end as `error`, not as a rejection).
   * @throws {SessionBusyError} when the session already has a run in progress
   * @throws the storage error when a write fails (the run fails; the session is left usable)
   */
  async run(sessionId: string, text: string, options: RunOptions = {}): Promise<RunResult> {
    const { signal, release } = this.hold(sessionId, options.signal);
    this.opts.bus.emit('run.started', { sessionId });
    const totals = { usage: emptyUsage(), costUsd: 0 };
    try {
      const result = await this.loop(sessionId, text, options.attachments ?? [], signal, totals);
      this.opts.bus.emit('run.finished', result);
      return result;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.opts.bus.emit('run.finished', { sessionId, reason: 'error', error, ...totals });
      throw err;
    } finally {
      release();
    }
  }

  /**
   * Runs `work` (e.g. a manual compaction) while holding the session as a run does: no run starts
   * meanwhile, {@link cancel} aborts the signal `work` gets, and `isBusy` is true until it settles.
   * @throws {SessionBusyError} when the session already has a run or other work in progress
   */
  async runExclusive<T>(
    sessionId: string,
    work: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const held = this.hold(sessionId, signal);
    try {
      return await work(held.signal);
    } finally {
      held.release();
    }
  }

  /** Marks the session busy with a cancel controller tied to `outer`. @throws {SessionBusyError} */
  private hold(sessionId: string, outer?: AbortSignal): { signal: AbortSignal; release: () => void } {
    if (this.busy.has(sessionId)) throw new SessionBusyError(sessionId);
    this.busy.add(sessionId);
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (outer?.aborted) controller.abort();
    this.controllers.set(sessionId, controller);
    let resolveHeld!: () => void;
    const done = new Promise<void>((resolve) => (resolveHeld = resolve));
    this.held.set(sessionId, { done, resolve: resolveHeld });
    return {
      signal: controller.signal,
      release: () => {
        outer?.removeEventListener('abort', onOuterAbort);
        this.controllers.delete(sessionId);
        this.busy.delete(sessionId);
        this.held.delete(sessionId);
        resolveHeld();
      },
    };
  }

  private async loop(
    sessionId: string,
    text: string,
    attachments: ImagePart[],
    signal: AbortSignal,
    totals: { usage: Usage; costUsd: number },
  ): Promise<RunResult> {
    const { store, bus } = this.opts;
    repairInterruptedTurns(store, sessionId, (message) => bus.emit('message.updated', { message }));
    let session = store.sessions.get(sessionId);
    if (!session) throw new Error(`Session ${sessionId} does not exist`);
    if (this.shouldAutoCompact(session)) {
      // before the new message is stored, so the summary covers everything before it
      await this.autoCompact(sessionId, signal);
      if (signal.aborted) return { sessionId, reason: 'canceled', ...totals };
      session = store.sessions.get(sessionId)!;
    }
    const previous = store.messages.list(sessionId);
    if (previous.length === 0 && this.opts.generateTitle) this.startTitle(sessionId, text);

    const images = this.model.supportsImages ? attachments : [];
    const userParts: MessagePart[] = [{ type: 'text', text }, ...images];
    // the writes made at one moment commit together (one WAL commit each time, not one per write)
    const storeBatch = <T>(fn: () => T): T => (store.messages.batch ? store.messages.batch(fn) : fn());
    // the last tool call's writes (its result, the tool message finished, its log record), held back by
    // runToolCalls when the batch ends: they are made at the same moment as the next step's first
    // writes, so they commit with them, as the first thing of the next batch
    let held: (() => void) | undefined;
    const batch = <T>(fn: () => T): T => {
      const first = held;
      if (!first) return storeBatch(fn);
      held = undefined;
      // the held writes commit even when the ones after them fail: those roll back alone (a savepoint)
      let failure: { error: unknown } | undefined;
      const result = storeBatch(() => {
        first();
        try {
          return storeBatch(fn);
        } catch (error) {
          failure = { error };
          return undefined;
        }
      });
      if (failure) throw failure.error;
      return result as T;
    };
    const user = batch(() => {
      const created = this.createMessage(sessionId, 'user', userParts);
      this.finish(created, 'end_turn');
      return created;
    });
    const history = historyForProvider([...previous, user], session.summaryMessageId);
    const thinking = this.opts.kind === 'coder' && this.model.canReason && /\bthink/i.test(text);
    const maxSteps = this.opts.maxSteps ?? 100;
    // built once per run: the project tree and context files are read at each run, not at each step
    const env = this.opts.promptEnvironment();
    const system = systemPrompt(this.opts.kind, env);
    const callIds = new SessionCallIds(previous);
    /** replies of this answer the provider paused and the loop continued, since the last tool step */
    const paused: Message[] = [];

    // the last step's tool message when calls of it never ran (canceled, skipped after a denial): finished
    // with their results in the next commit (else the last call's result finishes it)
    let openTools: Message | undefined;
    const closeTools = () => {
      if (openTools) this.finish(openTools, 'end_turn');
      openTools = undefined;
    };
    try {
      for (let step = 0; ; step++) {
        if (step >= maxSteps) {
          const message = batch(() => {
            closeTools();
            const created = this.createMessage(sessionId, 'assistant', [
              { type: 'text', text: stepLimitMessage(maxSteps) },
            ]);
            this.finish(created, 'step_limit', `step limit of ${maxSteps} reached`);
            return created;
          });
          return { sessionId, reason: 'step_limit', message, error: `step limit of ${maxSteps} reached`, ...totals };
        }
        const assistant = batch(() => {
          closeTools();
          return this.createMessage(sessionId, 'assistant', [], this.model.id);
        });
        const response = await streamReply(this.streamServices(totals), {
          assistant,
          system,
          history,
          thinking,
          signal,
          callIds,
        });
        if (response.kind === 'error') {
          await this.cancelOpenCalls(assistant);
          const reason: FinishReason = signal.aborted ? 'canceled' : 'error';
          this.finish(assistant, reason, signal.aborted ? undefined : response.message);
          return {
            sessionId,
            reason,
            message: assistant,
            error: signal.aborted ? undefined : response.message,
            ...totals,
          };
        }
        const { value, costUsd } = response;
        if (value.finishReason === 'refusal') {
          // calls of a declined reply never run; the refused turn is left out of later requests (history.ts)
          const note = refusalNote(value.refusal);
          batch(() => {
            this.recordUsage(sessionId, value.usage, costUsd);
            void this.cancelOpenCalls(assistant);
          });
          this.finish(assistant, 'refusal', note);
          return { sessionId, reason: 'refusal', message: assistant, error: note, ...totals };
        }
        const calls = toolCalls(assistant);
        if (calls.length === 0 && value.finishReason === 'pause_turn') {
          // the provider paused a long turn (server tools): sent back as it is, the reply goes on
          batch(() => {
            this.recordUsage(sessionId, value.usage, costUsd);
            this.finish(assistant, 'pause_turn');
          });
          history.push(assistant);
          paused.push(assistant);
          continue;
        }
        // every call the model made is answered, whatever the finish reason says (a reply cut at
        // max_tokens, or end_turn with tool_use blocks): a call without a result breaks the history
        if (calls.length === 0) {
          const unknown = value.finishReason === 'unknown' ? unknownStopNote(value.stopReason) : undefined;
          batch(() => {
            this.recordUsage(sessionId, value.usage, costUsd);
            this.finish(assistant, value.finishReason === 'tool_use' ? 'end_turn' : value.finishReason, unknown);
          });
          if (unknown) bus.emit('warning', { sessionId, message: unknown });
          const earlierText =
            paused
              .map((m) => messageText(m).trim())
              .filter(Boolean)
              .join('\n\n') || undefined;
          const ended = { sessionId, reason: finishPart(assistant)!.reason, message: assistant, ...totals };
          return { ...ended, ...(earlierText ? { earlierText } : {}), ...(unknown ? { error: unknown } : {}) };
        }
        // results are stored as each call finishes, so a process killed mid-batch keeps the ones that ran
        const toolMessage = batch(() => {
          this.recordUsage(sessionId, value.usage, costUsd);
          this.finish(assistant, 'tool_use');
          return this.createMessage(sessionId, 'tool', []);
        });
        // each call's result in call order, as the calls finish (read-only ones run concurrently)
        const inCallOrder: ToolResultPart[] = [];
        let finishedCalls = 0;
        const outcome = await runToolCalls({
          calls,
          // the tools this session is offered (opencode acp: an editor's MCP servers only to their session)
          registry: this.opts.tools.forSession(sessionId),
          signal,
          log: this.opts.toolCallLog,
          transaction: batch,
          holdLastFinish: true,
          contextFor: (call) => this.toolContext(sessionId, env.cwd, assistant.id, call, signal),
          onStart: (call) =>
            bus.emit('tool.started', { sessionId, messageId: assistant.id, toolCallId: call.id, name: call.name }),
          onFinish: (call, result) => {
            inCallOrder[calls.indexOf(call)] = result;
            if (++finishedCalls === calls.length) {
              // the last result finishes the message: written once, whole and in call order, not once
              // more when the next message is created
              toolMessage.parts = inCallOrder;
              this.finish(toolMessage, 'end_turn');
            } else {
              toolMessage.parts.push(result);
              store.messages.update(toolMessage);
              bus.emit('message.updated', { message: toolMessage });
            }
            bus.emit('tool.finished', { sessionId, toolCallId: call.id, name: call.name, isError: result.isError });
          },
        });
        held = outcome.heldFinish;
        // calls that never ran (canceled, skipped after a denial) have no onFinish: their results are
        // stored with the next write, as the message is finished
        if (!held) {
          toolMessage.parts = outcome.results;
          openTools = toolMessage;
        }
        history.push(assistant, toolMessage);
        paused.length = 0;
        if (outcome.canceled || outcome.permissionDenied) {
          const reason: FinishReason = outcome.canceled ? 'canceled' : 'permission_denied';
          batch(() => {
            closeTools();
            this.finish(assistant, reason);
          });
          return { sessionId, reason, message: assistant, ...totals };
        }
      }
    } finally {
      // every path after the tools writes through batch() before it awaits or returns; this is the net
      if (held) batch(() => undefined);
    }
  }

  /** What {@link streamReply} needs for a call of this run, its usage added to `totals`. */
  private streamServices(totals: { usage: Usage; costUsd: number }): StreamServices {
    const { provider, tools, store, bus, maxTokens, reasoningEffort } = this.opts;
    return {
      provider,
      tools,
      store,
      bus,
      maxTokens,
      reasoningEffort,
      usageWarned: this.usageWarned,
      addUsage: (usage) => this.addToTotals(usage, totals),
    };
  }

  /**
   * Whether the session's context has reached {@link AUTO_COMPACT_SHARE} of the window. Checked at the
   * start of a run rather than after the last reply: the stored context size survives restarts, a model
   * switched meanwhile is measured against its own window, and `-p` runs spend no call on a summary
   * nobody will use. The SQLite store's sessions carry `contextTokens`; a store without it never compacts.
   */
  private shouldAutoCompact(session: AgentSession): boolean {
    const auto = this.opts.autoCompact;
    if (!auto || auto.contextWindowTokens <= 0) return false;
    const contextTokens = (session as AgentSession & { contextTokens?: number }).contextTokens ?? 0;
    return contextTokens >= AUTO_COMPACT_SHARE * auto.contextWindowTokens;
  }

  /** A failed auto-compact is reported and the run goes on with the full history. */
  private async autoCompact(sessionId: string, signal: AbortSignal): Promise<void> {
    try {
      await this.opts.autoCompact!.compact(sessionId, signal);
    } catch (err) {
      if (signal.aborted) return;
      this.opts.bus.emit('warning', {
        sessionId,
        message: `Auto-compact failed, continuing with the full history: ${(err as Error).message}`,
      });
    }
  }

  /** Adds a call's usage to the run's totals; returns its cost, USD. */
  private addToTotals(usage: Usage, totals: { usage: Usage; costUsd: number }): number {
    const cost = this.opts.computeCost(this.model, usage);
    for (const key of Object.keys(totals.usage) as (keyof Usage)[]) totals.usage[key] += usage[key];
    totals.costUsd += cost;
    return cost;
  }

  /** Stores a call's usage and cost (USD) in the session's totals and its ancestors'. */
  private recordUsage(sessionId: string, usage: Usage, cost: number): void {
    const contextTokens = usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
    // a sub-agent's tokens and cost roll up into every ancestor; the context size is the session's own
    let id: string | undefined = sessionId;
    for (let depth = 0; id && depth < 16; depth++) {
      const updated = this.opts.store.sessions.addUsage(id, usage, cost, id === sessionId ? contextTokens : undefined);
      this.opts.bus.emit('session.updated', { sessionId: id });
      id = (updated ? updated.parentSessionId : this.opts.store.sessions.get(id)?.parentSessionId) ?? undefined;
    }
  }

  /** Open tool calls of an interrupted message get a canceled result, so the history stays valid. */
  private async cancelOpenCalls(assistant: Message): Promise<void> {
    const calls = toolCalls(assistant);
    if (calls.length === 0) return;
    const results = calls.map((c) => ({
      type: 'tool_result' as const,
      toolCallId: c.id,
      name: c.name,
      content: CANCELED_RESULT,
      isError: true,
    }));
    const toolMessage = this.createMessage(assistant.sessionId, 'tool', results);
    this.finish(toolMessage, 'end_turn');
  }

  private toolContext(
    sessionId: string,
    cwd: string,
    messageId: string,
    call: ToolCallPart,
    signal: AbortSignal,
  ): ToolContext {
    const { toolServices, permission, bus } = this.opts;
    const { fileTimes, fileHistory, shellFor, ...hostServices } = toolServices;
    return {
      ...hostServices,
      sessionId,
      messageId,
      toolCallId: call.id,
      cwd,
      signal,
      askPermission: (input, subject) =>
        permission.request(sessionId, call.name, { ...input, subject, toolCallId: call.id }, signal),
      permissionGate: (asks, description) => permission.gate(sessionId, call.name, asks, description),
      fileTimes,
      fileHistory,
      shell: () => shellFor(sessionId),
      // any tool's live output (a plugin's or custom tool's too), as its result: keys we hold are hidden
      onProgress: (text) => bus.emit('tool.progress', { sessionId, toolCallId: call.id, text: redactSecrets(text) }),
    };
  }

  private createMessage(sessionId: string, role: Message['role'], parts: MessagePart[], model?: string): Message {
    const message = this.opts.store.messages.create({ sessionId, role, parts, model });
    this.opts.bus.emit('message.created', { message });
    return message;
  }

  private finish(message: Message, reason: FinishReason, text?: string): void {
    const part: MessagePart = { type: 'finish', reason, time: Date.now() };
    if (text) part.message = text;
    // bounded as the store bounds it (db/part-cap.ts), so later turns of this run send what was stored
    message.parts = capParts([...message.parts.filter((p) => p.type !== 'finish'), part]);
    this.opts.store.messages.finish(message);
    this.opts.bus.emit('message.updated', { message });
  }

  private startTitle(sessionId: string, text: string): void {
    const task = this.opts.generateTitle!(sessionId, text).catch((err: unknown) => {
      this.opts.bus.emit('warning', { sessionId, message: `Title generation failed: ${(err as Error).message}` });
    });
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }
}

/** The last assistant text of a run, for `-p` output (reply-end.ts). */
export { finalText } from './reply-end.js';
