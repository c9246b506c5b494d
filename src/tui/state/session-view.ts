/**
 * One session's messages as {@link ChatItem}s, kept up to date from the core's events. Only the
 * items that changed are rebuilt (each gets a new `version`), so the line cache re-renders only
 * those; tool results are cut on the way in (the database keeps them whole).
 */
import type { Message, ToolCallPart, ToolResultPart } from '../../message.js';
import {
  CONTENT_LINES_KEY,
  DISPLAY_RESULT_MAX_CHARS,
  EXPANDED_RESULT_MAX_CHARS,
  type ChatItem,
  type ReplyFooter,
  type ToolCallView,
} from './chat-item.js';

let versionCounter = 0;
const nextVersion = () => String(++versionCounter);

/** Longest metadata string kept (a diff, a viewed file's content), characters. */
const DISPLAY_METADATA_MAX_CHARS = 20_000;

/** A tool result cut for display (content to `maxChars`), long metadata strings shortened. */
export function displayResult(result: ToolResultPart, maxChars = DISPLAY_RESULT_MAX_CHARS): ToolResultPart {
  const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);
  const metadata = result.metadata
    ? Object.fromEntries(
        // an expanded result keeps as much of its diff or file content as of its text
        Object.entries(result.metadata).map(([k, v]) => [
          k,
          typeof v === 'string' ? cut(v, Math.max(DISPLAY_METADATA_MAX_CHARS, maxChars)) : v,
        ]),
      )
    : undefined;
  if (result.content.length > maxChars) {
    const lines = result.content.replace(/\n+$/, '').split('\n').length;
    return {
      ...result,
      content: cut(result.content, maxChars),
      metadata: { ...metadata, [CONTENT_LINES_KEY]: lines },
      images: undefined,
    };
  }
  return { ...result, metadata, images: undefined };
}

/** A user or assistant message without image data (the name is kept for the attachment chip). */
function displayMessage(message: Message): Message {
  if (!message.parts.some((p) => p.type === 'image')) return message;
  return { ...message, parts: message.parts.map((p) => (p.type === 'image' ? { ...p, data: '' } : p)) };
}

/** A cheap fingerprint of a message's parts: kinds, finish reason and text lengths (image data is not kept in the view). */
function partsSignature(message: Message): string {
  return message.parts
    .map((p) => {
      switch (p.type) {
        case 'text':
          return `t${p.text.length}`;
        case 'reasoning':
          return `r${p.thinking.length}`;
        case 'tool_call':
          return `c${p.input.length}${p.finished ? 'f' : ''}`;
        case 'finish':
          return `f${p.reason}`;
        default:
          return p.type[0];
      }
    })
    .join(',');
}

/** Looks up a child session's items for a tool call (the `agent` tool). */
export type ChildItems = (toolCallId: string) => ChatItem[] | undefined;

export class SessionView {
  private order: string[] = [];
  private readonly messages = new Map<string, Message>();
  private readonly results = new Map<string, ToolResultPart>();
  private readonly progress = new Map<string, string>();
  /** tool call id → its stored result, for the calls the person expanded */
  private readonly expanded = new Map<string, ToolResultPart>();
  /** tool call id → the assistant message that made it */
  private readonly callOwner = new Map<string, string>();
  private readonly built = new Map<string, ChatItem>();
  private readonly dirty = new Set<string>();
  private snapshot: ChatItem[] = [];
  private changed = true;
  private replyRunning = false;

  constructor(
    readonly sessionId: string,
    private readonly childItems: ChildItems = () => undefined,
    private readonly mcpServerOf: (toolName: string) => string | undefined = () => undefined,
    private readonly modelName: (modelId: string) => string | undefined = () => undefined,
  ) {}

  /** Replaces everything with the stored messages (on load or session switch). */
  load(messages: Message[]): void {
    this.order = [];
    this.messages.clear();
    this.results.clear();
    this.expanded.clear();
    this.callOwner.clear();
    this.built.clear();
    for (const m of messages) this.upsert(m);
  }

  /** A created or updated message. Returns the ids of tool calls whose results arrived. */
  upsert(message: Message): string[] {
    if (message.role === 'tool') {
      const arrived: string[] = [];
      for (const part of message.parts) {
        if (part.type !== 'tool_result') continue;
        if (this.results.has(part.toolCallId)) continue;
        this.results.set(part.toolCallId, displayResult(part));
        this.progress.delete(part.toolCallId);
        arrived.push(part.toolCallId);
        const owner = this.callOwner.get(part.toolCallId);
        if (owner) this.markDirty(owner);
      }
      return arrived;
    }
    if (message.role !== 'user' && message.role !== 'assistant') return [];
    if (!this.messages.has(message.id)) this.insertInOrder(message);
    this.messages.set(message.id, displayMessage(message));
    for (const part of message.parts) if (part.type === 'tool_call') this.callOwner.set(part.id, message.id);
    this.markDirty(message.id);
    return [];
  }

  /**
   * Compares the view with the session's stored messages (another window may have written them):
   * the new or changed ones to {@link upsert}, in order, or `'reload'` when a shown message is no
   * longer stored (deleted: {@link load} afresh). A message counts as changed when its parts differ
   * in number, kind, finish or text length, which is what another process's writes change.
   */
  changedMessages(stored: readonly Message[]): Message[] | 'reload' {
    const storedIds = new Set(stored.map((m) => m.id));
    if (this.order.some((id) => !storedIds.has(id))) return 'reload';
    const changed: Message[] = [];
    for (const message of stored) {
      if (message.role === 'tool') {
        if (message.parts.some((p) => p.type === 'tool_result' && !this.results.has(p.toolCallId)))
          changed.push(message);
        continue;
      }
      if (message.role !== 'user' && message.role !== 'assistant') continue;
      const shown = this.messages.get(message.id);
      if (!shown || partsSignature(shown) !== partsSignature(message)) changed.push(message);
    }
    return changed;
  }

  /** Whether a reply runs in this session: without one, a call with no result was interrupted. */
  setRunning(running: boolean): void {
    if (running === this.replyRunning) return;
    this.replyRunning = running;
    this.markAllDirty();
  }

  /** Live progress of a running tool call. */
  setProgress(toolCallId: string, text: string): void {
    this.progress.set(toolCallId, text);
    const owner = this.callOwner.get(toolCallId);
    if (owner) this.markDirty(owner);
  }

  /**
   * Shows the call's stored result (`stored`, as read from the database) instead of the cut one, up
   * to {@link EXPANDED_RESULT_MAX_CHARS}. False when the call is not in this view.
   */
  expand(toolCallId: string, stored: ToolResultPart): boolean {
    const owner = this.callOwner.get(toolCallId);
    if (!owner) return false;
    this.expanded.set(toolCallId, displayResult(stored, EXPANDED_RESULT_MAX_CHARS));
    this.markDirty(owner);
    return true;
  }

  /** Back to the cut result. */
  collapse(toolCallId: string): void {
    if (!this.expanded.delete(toolCallId)) return;
    const owner = this.callOwner.get(toolCallId);
    if (owner) this.markDirty(owner);
  }

  isExpanded(toolCallId: string): boolean {
    return this.expanded.has(toolCallId);
  }

  /** The message holding a tool call, if it is in this session. */
  ownerOf(toolCallId: string): string | undefined {
    return this.callOwner.get(toolCallId);
  }

  /** Marks a message for rebuilding (its children changed, the running state changed). */
  markDirty(messageId: string): void {
    this.dirty.add(messageId);
    this.changed = true;
  }

  /** Marks every message dirty (theme or run-state change that affects all). */
  markAllDirty(): void {
    for (const id of this.order) this.dirty.add(id);
    this.changed = true;
  }

  /** The items in order; the same array until something changes. */
  items(): ChatItem[] {
    if (!this.changed) return this.snapshot;
    const out: ChatItem[] = [];
    let lastUserAt: number | undefined;
    for (let i = 0; i < this.order.length; i++) {
      const id = this.order[i]!;
      const message = this.messages.get(id)!;
      if (message.role === 'user') lastUserAt = message.createdAt;
      let item = this.built.get(id);
      if (!item || this.dirty.has(id)) {
        item = this.build(message, lastUserAt);
        this.built.set(id, item);
      }
      out.push(item);
    }
    this.dirty.clear();
    this.changed = false;
    this.snapshot = out;
    return out;
  }

  /** All messages of the view (for the prompt history: the user's texts). */
  userTexts(): string[] {
    const texts: string[] = [];
    for (const id of this.order) {
      const m = this.messages.get(id)!;
      if (m.role !== 'user') continue;
      // an undo note is not something the person typed
      const text = m.parts.flatMap((p) => (p.type === 'text' && !p.note ? [p.text] : [])).join('');
      if (text.trim()) texts.push(text);
    }
    return texts;
  }

  private insertInOrder(message: Message): void {
    // messages arrive in seq order; a late one (rare) is placed by seq
    let at = this.order.length;
    while (at > 0 && (this.messages.get(this.order[at - 1]!)?.seq ?? 0) > message.seq) at--;
    this.order.splice(at, 0, message.id);
  }

  private build(message: Message, lastUserAt: number | undefined): ChatItem {
    const calls = message.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
    const finish = message.parts.find((p) => p.type === 'finish');
    const tools: ToolCallView[] = calls.map((call) => {
      const expanded = this.expanded.get(call.id);
      const result = expanded ?? this.results.get(call.id);
      return {
        call,
        result,
        ...(expanded ? { expanded: true } : {}),
        progress: this.progress.get(call.id),
        children: this.childItems(call.id),
        mcpServer: this.mcpServerOf(call.name),
        interrupted: !result && !!finish && !this.replyRunning,
      };
    });
    // a reply ends with the first assistant message whose finish is not `tool_use` (the agent
    // rewrites it to canceled / permission_denied when the tool batch ended the run)
    const footer: ReplyFooter | undefined =
      message.role === 'assistant' && finish && finish.reason !== 'tool_use'
        ? {
            reason: finish.reason,
            model: message.model,
            ...(message.model && { modelName: this.modelName(message.model) }),
            durationMs: lastUserAt !== undefined ? Math.max(0, finish.time - lastUserAt) : undefined,
            message: finish.message,
          }
        : undefined;
    return {
      id: message.id,
      version: nextVersion(),
      role: message.role === 'user' ? 'user' : 'assistant',
      message,
      tools,
      footer,
      streaming: message.role === 'assistant' && !finish,
    };
  }
}
