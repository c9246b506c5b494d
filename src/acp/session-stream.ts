/**
 * One session's messages as ACP `session/update`s: the agent's text and thinking as chunks (only what
 * is new since the last update), each tool call announced when the model starts it, completed with its
 * title, locations and diff when its input is whole, and finished with its result. The same code
 * replays a stored session for `session/load`, user messages included.
 *
 * It is fed the core's events (`message.created`/`message.updated`, `tool.started`, `tool.progress`)
 * and knows nothing of the connection: `send` gets each update in order.
 */
import type { ContentBlock, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { Message, MessagePart, ToolCallPart, ToolResultPart } from '../message.js';
import { toolDisplay, type ToolDisplay } from './tool-display.js';

/** Receives each update, in order. */
export type SendUpdate = (update: SessionUpdate) => void;

/** What is known of one tool call. */
interface CallState {
  name: string;
  /** the display sent once its input was whole */
  display?: ToolDisplay;
  finished: boolean;
}

/** Longest tool output put in an update, characters (the kernel's cap is 30 000; the editor only shows it). */
const MAX_OUTPUT_CHARS = 30_000;

export class SessionStream {
  /** message id → part key (`text:0`, `reasoning:1`) → characters sent */
  private readonly sent = new Map<string, Map<string, number>>();
  private readonly calls = new Map<string, CallState>();

  /**
   * @param cwd the project directory (paths in titles are shown relative to it)
   * @param replay true for `session/load`: the person's messages are sent too
   */
  constructor(
    private readonly cwd: string,
    private readonly send: SendUpdate,
    private readonly replay = false,
  ) {}

  /** A message of the session was created or changed: sends what is new in it. */
  message(message: Message): void {
    if (message.role === 'user') {
      if (this.replay) this.userMessage(message);
      return;
    }
    if (message.role === 'tool') {
      for (const part of message.parts) if (part.type === 'tool_result') this.toolResult(part);
      return;
    }
    if (message.role !== 'assistant') return;
    const counters = new Map<string, number>();
    for (const part of message.parts) {
      if (part.type === 'text' || part.type === 'reasoning') {
        const n = counters.get(part.type) ?? 0;
        counters.set(part.type, n + 1);
        this.chunk(message.id, `${part.type}:${n}`, part);
      } else if (part.type === 'tool_call') {
        this.toolCall(part);
      }
    }
  }

  /** Whether the editor was told of the tool call `toolCallId`. */
  knows(toolCallId: string): boolean {
    return this.calls.has(toolCallId);
  }

  /** A tool call started running. */
  toolStarted(toolCallId: string): void {
    if (!this.calls.has(toolCallId)) return;
    this.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  }

  /** Live output of a running tool (bash's output so far); edits keep their diff instead. */
  toolProgress(toolCallId: string, text: string): void {
    const call = this.calls.get(toolCallId);
    if (!call || call.finished || (call.display?.content.length ?? 0) > 0) return;
    this.send({ sessionUpdate: 'tool_call_update', toolCallId, content: [textContent(text)] });
  }

  private userMessage(message: Message): void {
    for (const part of message.parts) {
      const content = userContent(part);
      if (content) this.send({ sessionUpdate: 'user_message_chunk', content, messageId: message.id });
    }
  }

  private chunk(messageId: string, key: string, part: Extract<MessagePart, { type: 'text' | 'reasoning' }>): void {
    const text = part.type === 'text' ? part.text : part.thinking;
    let sent = this.sent.get(messageId);
    if (!sent) this.sent.set(messageId, (sent = new Map()));
    const before = sent.get(key) ?? 0;
    // shorter than sent: the provider retried and restarted the message; the editor cannot take
    // chunks back, so the new text follows the old
    const from = text.length < before ? 0 : before;
    if (text.length === from) return;
    sent.set(key, text.length);
    this.send({
      sessionUpdate: part.type === 'text' ? 'agent_message_chunk' : 'agent_thought_chunk',
      content: { type: 'text', text: text.slice(from) },
      messageId,
    });
  }

  private toolCall(part: ToolCallPart): void {
    let call = this.calls.get(part.id);
    if (!call) {
      call = { name: part.name, finished: false };
      this.calls.set(part.id, call);
      if (part.finished) {
        call.display = toolDisplay(part.name, part.input, this.cwd);
        this.send({
          sessionUpdate: 'tool_call',
          toolCallId: part.id,
          status: 'pending',
          ...displayFields(call.display),
          rawInput: rawInput(part.input),
        });
      } else {
        this.send({
          sessionUpdate: 'tool_call',
          toolCallId: part.id,
          title: part.name,
          kind: toolDisplay(part.name, '', this.cwd).kind,
          status: 'pending',
        });
      }
      return;
    }
    if (part.finished && !call.display) {
      call.display = toolDisplay(part.name, part.input, this.cwd);
      this.send({
        sessionUpdate: 'tool_call_update',
        toolCallId: part.id,
        ...displayFields(call.display),
        rawInput: rawInput(part.input),
      });
    }
  }

  private toolResult(part: ToolResultPart): void {
    const call = this.calls.get(part.toolCallId);
    if (call?.finished) return;
    if (call) call.finished = true;
    // a successful edit keeps showing its diff; anything else shows what the tool answered
    const diffs = !part.isError ? (call?.display?.content ?? []) : [];
    const output =
      part.content.length > MAX_OUTPUT_CHARS ? `${part.content.slice(0, MAX_OUTPUT_CHARS)}\n…` : part.content;
    const content: ToolCallContent[] = diffs.length > 0 ? diffs : output ? [textContent(output)] : [];
    this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: part.toolCallId,
      status: part.isError ? 'failed' : 'completed',
      content,
    });
  }
}

/** Sends a stored session's messages as updates (`session/load`), in order. */
export function replaySession(messages: readonly Message[], cwd: string, send: SendUpdate): void {
  const stream = new SessionStream(cwd, send, true);
  for (const message of messages) stream.message(message);
}

function displayFields(display: ToolDisplay) {
  return { title: display.title, kind: display.kind, locations: display.locations, content: display.content };
}

function rawInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

function userContent(part: MessagePart): ContentBlock | undefined {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') return { type: 'image', mimeType: part.mimeType, data: part.data };
  return undefined;
}
