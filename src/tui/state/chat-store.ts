/**
 * The TUI's state, fed by the core's events: the current session and its items, whether a reply
 * is running, the permission requests waiting, the status line, the log. Components read it
 * through `useChatState` (useSyncExternalStore) and call its actions; nothing here knows React.
 *
 * Notifications are coalesced (at most one per {@link NOTIFY_INTERVAL_MS}) so a fast stream of
 * deltas costs one render per frame, not one per delta.
 */
import type { RunFinished } from '../../agent/events.js';
import type { ImagePart, Message, ToolCallPart, ToolResultPart } from '../../message.js';
import type { LogEntry } from '../pages/log-entry.js';
import { ACTIVITY_LABELS, describeActivity, type Activity, type RetryWait } from './activity.js';
import type { ChatState, QueuedPrompt, StatusLevel } from './chat-state.js';
import type { ChatServices } from './services.js';
import type { SessionView } from './session-view.js';
import { undoOrRedo } from './undo-actions.js';
import { keyPhrase } from '../key-hints.js';
import { DEFAULT_KEYMAP, type Keymap } from '../keymap.js';
import type { TurnUndoResult } from '../../undo/result.js';
import { SessionViewTree } from './view-tree.js';

export type { ChatState, QueuedPrompt, StatusLevel, StatusMessage } from './chat-state.js';

/** How long a status message stays, ms (the original: 10 s). */
export const STATUS_TTL_MS = 10_000;
/** Shortest time between two notifications, ms: streamed output redraws at most 30 times a second (typing is not throttled by this: the editor keeps its own state). */
export const NOTIFY_INTERVAL_MS = 33;
/** Log entries kept in memory. */
const MAX_LOG_ENTRIES = 1_000;

export class ChatStore {
  private state: ChatState;
  /** the open session's view and its sub-agents' */
  private readonly views: SessionViewTree;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private notifyTimer: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private logId = 0;
  private queueId = 0;
  /** unix ms the running reply (or compaction) started */
  private runStartedAt: number | undefined;
  /** the provider's announced wait, until content arrives or the run ends */
  private retry: RetryWait | undefined;
  /** the prompt being sent, until its run ends (the editor's history has it before the database does) */
  private sending: string | undefined;

  /** The keys in effect, for the keys status messages name (key-hints.ts); the TUI sets its tree's (App.tsx). */
  keymap: Keymap = DEFAULT_KEYMAP;

  constructor(
    private readonly services: ChatServices,
    private readonly options: { debug?: boolean; now?: () => number } = {},
  ) {
    this.state = {
      items: [],
      busy: false,
      compacting: false,
      permissionQueue: services.permission.pendingRequests(),
      modifiedFiles: [],
      mcpServers: services.mcp.servers(),
      logs: [],
      promptHistory: [],
      queue: [],
      queueHeld: false,
    };
    this.views = new SessionViewTree({
      messages: (sessionId) => this.services.sessions.messages(sessionId),
      // a custom tool shows its source (`project › query_status`) the way an MCP tool shows its server
      toolSource: (toolName) =>
        this.state.mcpServers.find((s) => s.tools.includes(toolName))?.name ??
        this.state.customTools?.loaded.find((t) => t.name === toolName)?.source,
      // the footer names the model as the status bar does
      modelName: (modelId) => this.services.agent.modelName?.(modelId),
    });
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.listen();
  }

  // --- for useSyncExternalStore

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getSnapshot(): ChatState {
    return this.state;
  }

  // --- actions

  /** Opens a stored session (or none: a new chat not yet saved). */
  openSession(sessionId: string | undefined): void {
    if (sessionId !== this.state.session?.id) this.dropQueue();
    if (!sessionId) {
      this.views.close();
      this.set({ session: undefined, items: [], modifiedFiles: [], promptHistory: [], busy: false });
      return;
    }
    const session = this.services.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    this.services.sessions.opened?.(sessionId);
    const view = this.views.openSession(sessionId, this.services.sessions.messages(sessionId));
    view.setRunning(this.services.agent.isBusy(sessionId));
    this.set({
      session,
      items: view.items(),
      modifiedFiles: this.services.sessions.modifiedFiles(sessionId),
      promptHistory: view.userTexts(),
      busy: this.services.agent.isBusy(sessionId),
    });
  }

  /** True (and a status message) when a reply or a compaction runs, so a prompt cannot be sent now. */
  refuseWhileBusy(): boolean {
    if (!this.state.busy && !this.state.compacting) return false;
    this.setStatus(
      `The agent is busy: wait for the ${this.state.compacting ? 'compaction' : 'reply'}${keyPhrase(this.keymap, 'session.interrupt', (k) => `, or press ${k} to cancel it`)}`,
      'warn',
    );
    return true;
  }

  /**
   * What the editor's enter does: sends the prompt now when nothing runs, else queues
   * it (it goes when the run ends). A held queue is released: its prompts go first, this one after.
   * Returns which happened; a send's failure becomes a status message. `refused`: the open session
   * is gone from the database (`opencode sessions delete --force` elsewhere); nothing is sent or
   * queued, the status line says so and what to do, and the caller keeps the text in the editor.
   */
  submit(text: string, attachments: ImagePart[] = []): 'sent' | 'queued' | 'refused' {
    if (this.openSessionGone()) {
      this.setStatus(`${this.sessionGoneMessage()}; your message is still in the editor`, 'error');
      return 'refused';
    }
    if (this.state.busy || this.state.compacting || this.state.queue.length > 0) {
      this.set({ queue: [...this.state.queue, { id: ++this.queueId, text, attachments }], queueHeld: false });
      this.drainQueue();
      return this.state.queue.some((q) => q.id === this.queueId) ? 'queued' : 'sent';
    }
    this.sendReported(text, attachments);
    return 'sent';
  }

  /**
   * Sends a prompt: creates the session on the first one. Refused (with a status message) while busy;
   * {@link submit} queues instead. When the run ends, the first queued prompt goes (unless it was
   * canceled: the queue is then held).
   */
  async send(text: string, attachments: ImagePart[] = []): Promise<RunFinished | undefined> {
    if (this.refuseWhileBusy()) return undefined;
    // a note about what came before (the draft is unchanged, the edited message is in the box) is
    // stale once a prompt goes; it stays on the logs page
    this.clearStatus();
    if (!this.state.session) this.openSession(this.services.sessions.create().id);
    const sessionId = this.state.session!.id;
    this.runStartedAt = this.now();
    this.sending = text;
    this.set({ busy: true, promptHistory: [...this.state.promptHistory, text] });
    try {
      const result = await this.services.agent.run(sessionId, text, attachments);
      if (result.reason === 'canceled' && this.state.queue.length > 0) this.set({ queueHeld: true });
      return result;
    } finally {
      this.sending = undefined;
      // a run refused before it started (another run holds the session) sends no run.finished
      if (this.state.busy && this.state.session?.id === sessionId && !this.services.agent.isBusy(sessionId))
        this.set({ busy: false });
      this.drainQueue();
    }
  }

  /**
   * esc: cancels the running reply (or compaction) and holds the queue; with nothing
   * running, clears the queue. Returns what it did.
   */
  cancel(): 'canceled' | 'cleared' | 'nothing' {
    if (this.state.session && (this.state.busy || this.state.compacting)) {
      if (this.state.queue.length > 0) this.set({ queueHeld: true });
      this.services.agent.cancel(this.state.session.id);
      return 'canceled';
    }
    if (this.state.queue.length > 0) {
      const count = this.clearQueue();
      this.setStatus(`${count} queued message${count === 1 ? '' : 's'} removed`, 'info');
      return 'cleared';
    }
    return 'nothing';
  }

  /** Takes the newest queued prompt out of the queue (to edit it in the editor); undefined when empty. */
  recallQueued(): QueuedPrompt | undefined {
    const last = this.state.queue.at(-1);
    if (!last) return undefined;
    const queue = this.state.queue.slice(0, -1);
    this.set({ queue, queueHeld: queue.length > 0 && this.state.queueHeld });
    return last;
  }

  /** Empties the queue; returns how many prompts it held. */
  clearQueue(): number {
    const count = this.state.queue.length;
    if (count > 0 || this.state.queueHeld) this.set({ queue: [], queueHeld: false });
    return count;
  }

  /** Sends a held queue (enter on an empty editor). */
  releaseQueue(): void {
    if (!this.state.queueHeld) return;
    this.set({ queueHeld: false });
    this.drainQueue();
  }

  /**
   * Expands a tool call's cut result to its stored whole (up to EXPANDED_RESULT_MAX_CHARS), or
   * collapses it again. Returns what happened; `missing` when the call has no stored
   * result in the open session.
   */
  toggleResult(toolCallId: string): 'expanded' | 'collapsed' | 'missing' {
    const view = this.views.open;
    if (!view) return 'missing';
    if (view.isExpanded(toolCallId)) {
      view.collapse(toolCallId);
      this.touched(view);
      return 'collapsed';
    }
    const stored = this.storedResult(toolCallId);
    if (!stored || !view.expand(toolCallId, stored.result)) return 'missing';
    this.touched(view);
    return 'expanded';
  }

  /**
   * A tool call of the open session (or of one of its sub-agents) and its whole result, read from the
   * database (render state holds results cut): for the pager. Undefined when there is no such result.
   */
  storedResult(toolCallId: string): { call?: ToolCallPart; result: ToolResultPart } | undefined {
    return this.views.storedResult(toolCallId);
  }

  /** Undoes the file changes of the open session's last turn (`/undo`, `session.undo`); the outcome goes to the status line. */
  undoTurn(): Promise<TurnUndoResult | undefined> {
    return undoOrRedo(this, this.services, 'undo');
  }

  /** Puts back the turn undone most recently (`/redo`, `session.redo`). */
  redoTurn(): Promise<TurnUndoResult | undefined> {
    return undoOrRedo(this, this.services, 'redo');
  }

  /** Answers the permission request `id`. */
  answerPermission(id: string, decision: Parameters<ChatServices['permission']['respond']>[1]): void {
    this.services.permission.respond(id, decision);
  }

  /** Shows `text` on the status bar for a while; it is also the logs page's entry, with `details` under it. */
  setStatus(text: string, level: StatusLevel = 'info', details?: string): void {
    const now = this.options.now?.() ?? Date.now();
    this.set({ status: { text, level, expiresAt: now + STATUS_TTL_MS } });
    this.log(level, text, details);
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => this.set({ status: undefined }), STATUS_TTL_MS);
    this.statusTimer.unref?.();
  }

  /** Takes the status message off the status bar now (the logs page keeps it). */
  clearStatus(): void {
    if (!this.state.status) return;
    clearTimeout(this.statusTimer);
    this.set({ status: undefined });
  }

  /** Adds a log entry (the logs page). */
  log(level: LogEntry['level'], message: string, details?: string): void {
    if (level === 'debug' && !this.options.debug) return;
    const entry: LogEntry = { id: ++this.logId, time: this.options.now?.() ?? Date.now(), level, message, details };
    const logs = this.state.logs.length >= MAX_LOG_ENTRIES ? this.state.logs.slice(1) : this.state.logs.slice();
    logs.push(entry);
    this.set({ logs });
  }

  /**
   * Re-reads the session row (title, tokens, cost) and its modified files. A session deleted by
   * another process stays on screen as it was: a send then says so (see {@link submit}).
   */
  refreshSession(): void {
    const id = this.state.session?.id;
    if (!id) return;
    const session = this.services.sessions.get(id);
    if (!session) return;
    this.set({ session, modifiedFiles: this.services.sessions.modifiedFiles(id) });
  }

  setCompacting(compacting: boolean): void {
    if (compacting) this.runStartedAt ??= this.now();
    this.set({ compacting });
    if (!compacting) this.drainQueue();
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
    clearTimeout(this.notifyTimer);
    clearTimeout(this.statusTimer);
    this.listeners.clear();
  }

  // --- event wiring

  private listen(): void {
    const { bus, permission, mcp } = this.services;
    const on = this.unsubscribe;
    // their problems arrive as `warning` events (status line, logs page), so load once subscribed
    this.services.customTools?.load().then(
      (customTools) => this.set({ customTools }),
      (err) => this.log('error', `custom tools failed to load: ${String(err)}`),
    );
    on.push(
      bus.on('message.created', ({ message }) => this.onMessage(message)),
      bus.on('message.updated', ({ message }) => this.onMessage(message)),
      bus.on('tool.progress', ({ sessionId, toolCallId, text }) => {
        const view = this.views.viewFor(sessionId);
        if (!view) return;
        view.setProgress(toolCallId, text);
        this.touched(view);
      }),
      bus.on('tool.started', ({ sessionId, name, toolCallId }) => {
        if (this.views.viewFor(sessionId)) this.log('debug', `tool ${name} started`, toolCallId);
      }),
      bus.on('tool.finished', ({ sessionId, name, isError, toolCallId }) => {
        if (!this.views.viewFor(sessionId)) return;
        this.log(isError ? 'warn' : 'debug', `tool ${name} finished${isError ? ' with an error' : ''}`, toolCallId);
        // the sidebar's modified files change as edits land, not only when the reply ends
        if (sessionId === this.state.session?.id && !isError) this.refreshSession();
      }),
      bus.on('run.started', ({ sessionId }) => {
        this.views.viewFor(sessionId)?.setRunning(true);
        if (sessionId !== this.state.session?.id) return;
        this.runStartedAt ??= this.now();
        // another window may have added messages: show them before the agent reads the history, so
        // the model is sent nothing the person cannot see. The agent reads it in the
        // same tick (the bus is synchronous), unless an auto-compaction comes first.
        this.syncFromDatabase();
        this.set({ busy: true });
      }),
      bus.on('run.finished', (run) => this.onRunFinished(run)),
      bus.on('provider.retry', ({ sessionId, attempt, maxRetries, delayMs, reason }) => {
        if (sessionId !== this.state.session?.id) return;
        // the pulse counts it down; the logs page keeps it
        this.retry = { untilMs: this.now() + delayMs, reason, attempt, maxRetries };
        this.log('warn', `${reason}: retrying in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt} of ${maxRetries})`);
      }),
      bus.on('session.updated', ({ sessionId }) => {
        if (sessionId === this.state.session?.id) this.refreshSession();
      }),
      bus.on('warning', ({ sessionId, message }) => {
        if (!sessionId || sessionId === this.state.session?.id) this.setStatus(message, 'warn');
        else this.log('warn', message);
      }),
      permission.onRequest((request) => this.set({ permissionQueue: [...this.state.permissionQueue, request] })),
      permission.onResolved((id) =>
        this.set({ permissionQueue: this.state.permissionQueue.filter((r) => r.id !== id) }),
      ),
      mcp.onUpdate((info) => {
        this.set({ mcpServers: this.services.mcp.servers() });
        if (info.status === 'failed') this.log('error', `MCP server ${info.name} failed`, info.error);
        else
          this.log(
            'info',
            `MCP server ${info.name}: ${info.status}${info.tools.length ? ` (${info.tools.length} tools)` : ''}`,
          );
      }),
      bus.on('subagent.started', ({ parentSessionId, toolCallId, sessionId }) => {
        if (this.views.viewFor(parentSessionId)) this.attachChild(toolCallId, sessionId);
      }),
      bus.on('session.compacting', ({ sessionId }) => {
        if (sessionId !== this.state.session?.id) return;
        this.runStartedAt ??= this.now();
        this.set({ compacting: true });
      }),
      bus.on('session.compact_failed', ({ sessionId, error }) => {
        if (sessionId !== this.state.session?.id) return;
        this.set({ compacting: false });
        this.setStatus(error === 'canceled' ? 'Compaction canceled' : `Compaction failed: ${error}`, 'error');
      }),
      bus.on('session.compacted', ({ sessionId }) => {
        if (sessionId !== this.state.session?.id) return;
        // an auto-compaction at a run's start: the agent reads the history again after it
        if (this.state.busy) this.syncFromDatabase();
        this.set({ compacting: false });
        this.refreshSession();
        this.setStatus('Session compacted: later requests start from the summary', 'info');
      }),
    );
  }

  private onMessage(message: Message): void {
    const view = this.views.viewFor(message.sessionId);
    if (!view) return;
    // content after a retry's wait: the provider answers again
    if (this.retry && view === this.views.open && message.role === 'assistant' && message.parts.length > 0)
      this.retry = undefined;
    const arrived = view.upsert(message);
    // an `agent` tool result names its sub-agent session: load it when it was not seen live
    if (view === this.views.open) this.views.attachArrivedChildren(message, arrived);
    this.touched(view);
  }

  private onRunFinished(run: RunFinished): void {
    const view = this.views.viewFor(run.sessionId);
    if (view) {
      view.setRunning(false);
      this.touched(view);
    }
    if (run.sessionId !== this.state.session?.id) return;
    this.runStartedAt = undefined;
    this.retry = undefined;
    this.set({ busy: false });
    this.refreshSession();
    if (run.reason === 'error' && this.openSessionGone())
      this.setStatus(`${this.sessionGoneMessage()}; the reply was not stored`, 'error');
    else if (run.reason === 'error') this.setStatus(run.error ?? 'The provider failed', 'error');
    else if (run.reason === 'step_limit') this.setStatus(run.error ?? 'Step limit reached', 'warn');
    this.log('info', `reply finished: ${run.reason}`, run.error);
  }

  /**
   * Brings the open session up to date with the database: messages another process (a second
   * window) added or changed are shown; when one was deleted, the session is loaded afresh.
   */
  private syncFromDatabase(): void {
    const view = this.views.open;
    if (!view) return;
    const stored = this.services.sessions.messages(view.sessionId);
    const changed = view.changedMessages(stored);
    const history = () => [...view.userTexts(), ...(this.sending !== undefined ? [this.sending] : [])];
    if (changed === 'reload') {
      view.load(stored);
      this.views.loadChildrenFromResults(stored);
      this.set({ items: view.items(), promptHistory: history() });
      return;
    }
    if (changed.length === 0) return;
    for (const message of changed) this.onMessage(message);
    this.set({ promptHistory: history() });
  }

  /** Sends the first queued prompt when nothing runs and the queue is not held. */
  private drainQueue(): void {
    const next = this.state.queue[0];
    if (!next || this.state.queueHeld || this.state.busy || this.state.compacting) return;
    if (this.openSessionGone()) {
      // held, not sent into a deleted session: ↑ takes each back into the editor before ctrl+n drops them
      this.set({ queueHeld: true });
      const count = this.state.queue.length;
      this.setStatus(
        `${this.sessionGoneMessage()}; first take your ${count === 1 ? 'queued message' : `${count} queued messages`} back with ↑ on an empty editor`,
        'error',
      );
      return;
    }
    this.set({ queue: this.state.queue.slice(1) });
    this.sendReported(next.text, next.attachments);
  }

  /**
   * {@link send}, its failure shown in the status line. A session deleted by another process during
   * the run (or between the check in {@link submit} and the run) is said as such: the prompt is in
   * the prompt history, so ↑ brings it back; a held queue's own message (drainQueue) is kept.
   */
  private sendReported(text: string, attachments: ImagePart[]): void {
    this.send(text, attachments).catch((err: unknown) => {
      // the held queue's message (drainQueue) already says what to do
      if (this.openSessionGone()) {
        if (this.state.queue.length === 0)
          this.setStatus(`${this.sessionGoneMessage()}; nothing was stored, ↑ brings your message back`, 'error');
      } else this.setStatus(`Could not send: ${(err as Error).message}`, 'error');
    });
  }

  /** The open session is no longer in the database (a read that fails counts as still there). */
  private openSessionGone(): boolean {
    const id = this.state.session?.id;
    if (id === undefined) return false;
    try {
      return this.services.sessions.get(id) === undefined;
    } catch {
      return false;
    }
  }

  /** `this session was deleted by another process: press ctrl+n to start a new one` (the key in effect; `/new` when unbound). */
  private sessionGoneMessage(): string {
    const how = keyPhrase(this.keymap, 'session.new', (k) => `press ${k}`) || 'type /new';
    return `This session was deleted by another process: ${how} to start a new one`;
  }

  /** Another session is opened: its queue would go to the wrong place. */
  private dropQueue(): void {
    const count = this.clearQueue();
    if (count > 0)
      this.setStatus(`${count} queued message${count === 1 ? '' : 's'} dropped: another session was opened`, 'warn');
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The pulse's content for the state as it is; the same object while nothing shown changed. */
  private currentActivity(): Activity | undefined {
    const { busy, compacting, items, permissionQueue } = this.state;
    if (!busy && !compacting) {
      this.runStartedAt = undefined;
      return undefined;
    }
    const label = compacting
      ? ACTIVITY_LABELS.compacting
      : describeActivity(items, { permission: permissionQueue[0], cwd: this.services.cwd });
    const startedAt = this.runStartedAt ?? this.now();
    const old = this.state.activity;
    if (old && old.label === label && old.startedAt === startedAt && old.retry === this.retry) return old;
    return { label, startedAt, ...(this.retry ? { retry: this.retry } : {}) };
  }

  private attachChild(toolCallId: string, childSessionId: string): void {
    this.views.attachChild(toolCallId, childSessionId);
    this.touched(this.views.open);
  }

  /** A view changed: mark the parent item dirty for a child view, and schedule a notification. */
  private touched(view: SessionView | undefined): void {
    const open = this.views.open;
    if (!view || !open) return;
    this.views.markCallersDirty(view);
    this.state = { ...this.state, items: open.items() };
    this.scheduleNotify();
  }

  private set(patch: Partial<ChatState>): void {
    this.state = { ...this.state, ...patch };
    this.scheduleNotify();
  }

  private scheduleNotify(): void {
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      const activity = this.currentActivity();
      if (activity !== this.state.activity) this.state = { ...this.state, activity };
      for (const listener of [...this.listeners]) listener();
    }, NOTIFY_INTERVAL_MS);
  }
}
