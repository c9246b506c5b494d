/**
 * The open session's {@link SessionView} and the views of its sub-agent sessions. An `agent` tool
 * call runs a sub-agent in a session of its own; its conversation shows nested under the call, so
 * a change in a sub-agent's view marks the calling message of the open view for a rebuild.
 */
import type { Message, ToolCallPart, ToolResultPart } from '../../message.js';
import { SessionView } from './session-view.js';

/** What the views need from outside: stored messages and the labels shown beside tool calls and replies. */
export interface ViewTreeSources {
  /** a session's stored messages, oldest first */
  messages(sessionId: string): Message[];
  /** where a tool comes from (an MCP server's name, a custom tool's source), shown beside its calls */
  toolSource(toolName: string): string | undefined;
  /** a model's display name for a reply's footer */
  modelName(modelId: string): string | undefined;
}

export class SessionViewTree {
  /** the open session's view; undefined for a new chat not yet saved */
  private current: SessionView | undefined;
  /** sub-agent session id → its view */
  private readonly children = new Map<string, SessionView>();
  /** tool call id → sub-agent session id */
  private readonly childOfCall = new Map<string, string>();

  constructor(private readonly sources: ViewTreeSources) {}

  /** The open session's view, if a session is open. */
  get open(): SessionView | undefined {
    return this.current;
  }

  /** Opens `sessionId` with its stored `messages`, and the sub-agent sessions their `agent` results name. */
  openSession(sessionId: string, messages: Message[]): SessionView {
    this.children.clear();
    this.childOfCall.clear();
    const view = this.newView(sessionId);
    view.load(messages);
    this.current = view;
    this.loadChildrenFromResults(messages);
    return view;
  }

  /** No session open (a new chat not yet saved). */
  close(): void {
    this.children.clear();
    this.childOfCall.clear();
    this.current = undefined;
  }

  /** The view of `sessionId`: the open session's or one of its sub-agents'; undefined for any other session. */
  viewFor(sessionId: string): SessionView | undefined {
    if (this.current?.sessionId === sessionId) return this.current;
    return this.children.get(sessionId);
  }

  /**
   * Links the tool call `toolCallId` of the open session to its sub-agent session, with the
   * sub-agent's stored messages when `load` (a result seen after the fact rather than live).
   */
  attachChild(toolCallId: string, childSessionId: string, load = false): void {
    this.childOfCall.set(toolCallId, childSessionId);
    let child = this.children.get(childSessionId);
    if (!child) {
      child = this.newView(childSessionId);
      this.children.set(childSessionId, child);
    }
    if (load) child.load(this.sources.messages(childSessionId));
    const owner = this.current?.ownerOf(toolCallId);
    if (owner) this.current!.markDirty(owner);
  }

  /** `agent` tool results name their sub-agent session: loads those for the nested view. */
  loadChildrenFromResults(messages: readonly Message[]): void {
    for (const message of messages) {
      for (const part of message.parts) {
        const child = part.type === 'tool_result' ? part.metadata?.sessionId : undefined;
        if (part.type === 'tool_result' && typeof child === 'string') this.attachChild(part.toolCallId, child, true);
      }
    }
  }

  /**
   * After `message` of the open session was stored in its view with the tool results `arrived`: an
   * `agent` result names its sub-agent session, loaded here when it was not seen live.
   */
  attachArrivedChildren(message: Message, arrived: readonly string[]): void {
    for (const part of message.parts) {
      if (part.type === 'tool_result' && arrived.includes(part.toolCallId)) {
        const child = part.metadata?.sessionId;
        if (typeof child === 'string' && !this.childOfCall.has(part.toolCallId))
          this.attachChild(part.toolCallId, child, true);
      }
    }
  }

  /** `view` changed: when it is a sub-agent's, the open view's messages that called it are rebuilt. */
  markCallersDirty(view: SessionView): void {
    if (!this.current || view === this.current) return;
    for (const [callId, childId] of this.childOfCall) {
      if (childId !== view.sessionId) continue;
      const owner = this.current.ownerOf(callId);
      if (owner) this.current.markDirty(owner);
    }
  }

  /**
   * A tool call of the open session (or of one of its sub-agents) and its whole result, read from the
   * stored messages (views hold results cut). Undefined when there is no such result.
   */
  storedResult(toolCallId: string): { call?: ToolCallPart; result: ToolResultPart } | undefined {
    const sessions = [this.current?.sessionId, ...this.children.keys()].filter((id): id is string => !!id);
    for (const sessionId of sessions) {
      let result: ToolResultPart | undefined;
      let call: ToolCallPart | undefined;
      for (const message of this.sources.messages(sessionId)) {
        for (const part of message.parts) {
          if (part.type === 'tool_result' && part.toolCallId === toolCallId) result = part;
          else if (part.type === 'tool_call' && part.id === toolCallId) call = part;
        }
      }
      if (result) return { call, result };
    }
    return undefined;
  }

  private newView(sessionId: string): SessionView {
    return new SessionView(
      sessionId,
      (toolCallId) => {
        const child = this.childOfCall.get(toolCallId);
        return child ? this.children.get(child)?.items() : undefined;
      },
      (toolName) => this.sources.toolSource(toolName),
      (modelId) => this.sources.modelName(modelId),
    );
  }
}
