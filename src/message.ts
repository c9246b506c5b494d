/**
 * The conversation data model shared by every layer: sessions' messages and their parts.
 *
 * This module is a leaf: it imports nothing of ours, so `db`, `provider`, `agent` and `tui`
 * may all depend on it. Shapes follow the original's message parts, with
 * thinking signatures kept (the Anthropic API requires them within a tool-use turn) and
 * tool-call input kept as the raw string the model sent, so invalid JSON stays in history.
 */

/** Who wrote a message. `tool` messages hold the results of one assistant message's tool calls. */
export type Role = 'user' | 'assistant' | 'tool' | 'system';

/**
 * Why an assistant message ended (the original's reasons, plus `step_limit` for the step cap).
 * - `end_turn`: the model finished; `tool_use`: it asked for tools; `max_tokens`: output cap hit.
 * - `canceled`: the person cancelled; `error`: the provider failed; `permission_denied`: a tool call was denied.
 * - `step_limit`: the agent's `maxSteps` was reached.
 * - `refusal`: the model declined (Anthropic `stop_reason: "refusal"`, an OpenAI-compatible `content_filter`);
 *   the person's turn that led to it is left out of later requests.
 * - `pause_turn`: the provider paused a long turn (Anthropic server tools); the agent sends it back to continue.
 * - `unknown`: the provider gave a stop reason we do not know; the finish part's message names it.
 */
export type FinishReason =
  | 'end_turn'
  | 'max_tokens'
  | 'tool_use'
  | 'canceled'
  | 'error'
  | 'permission_denied'
  | 'step_limit'
  | 'refusal'
  | 'pause_turn'
  | 'unknown';

/** Extended-thinking text; `signature` is the provider's opaque signature (Anthropic), sent back unchanged. */
export interface ReasoningPart {
  type: 'reasoning';
  thinking: string;
  signature?: string;
  /** Anthropic `redacted_thinking` blocks carry only opaque data. */
  redactedData?: string;
}

export interface TextPart {
  type: 'text';
  text: string;
  /**
   * Set on a text opencode wrote into the conversation on the person's behalf, in a `user` message:
   * `undo` / `redo` say files were put back. The UI shows it as a note, not as their
   * words; the model gets the text like any other, so it knows in its next request.
   */
  note?: 'undo' | 'redo';
}

/** An image attached by the person (or returned by a tool), base64 encoded without a data-URL prefix. */
export interface ImagePart {
  type: 'image';
  /** e.g. `image/png` */
  mimeType: string;
  /** base64, no `data:` prefix */
  data: string;
  /** file name shown in the UI */
  name?: string;
}

/** A tool call requested by the model. `input` is the raw JSON text the model produced, even if invalid. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  input: string;
  /** true once the provider finished streaming this call's input */
  finished: boolean;
}

/** The result of one tool call, stored in a `tool` message. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  name: string;
  /** text for the model */
  content: string;
  /** data for the UI only (diffs, counts, exit codes); never sent to the model */
  metadata?: Record<string, unknown>;
  isError: boolean;
  /** images a tool returned for the model (e.g. an MCP tool), base64 */
  images?: { mimeType: string; data: string }[];
}

/** Marks a message finished. `time` is unix ms. */
export interface FinishPart {
  type: 'finish';
  reason: FinishReason;
  time: number;
  /** a one-line explanation for `error`, `step_limit` and the like */
  message?: string;
}

/**
 * A block of a provider's server-side tool (Anthropic `server_tool_use`, `web_search_tool_result`,
 * `web_fetch_tool_result`, code execution results, …), kept as the API sent it: the API ran the tool
 * itself, and the block goes back unchanged in later requests (a paused turn is continued by sending it
 * back). It also marks where the text before it ends, so the text around it is not run together.
 */
export interface ServerToolPart {
  type: 'server_tool';
  /** the block as received, e.g. `{type: "server_tool_use", id, name, input}` */
  block: Record<string, unknown>;
}

export type MessagePart =
  ReasoningPart | ServerToolPart | TextPart | ImagePart | ToolCallPart | ToolResultPart | FinishPart;

/** One stored message. Messages of a session are ordered by `seq`, never by time. */
export interface Message {
  id: string;
  sessionId: string;
  role: Role;
  parts: MessagePart[];
  /** `provider/model` id of the model that wrote an assistant message */
  model?: string;
  /** position in the session, strictly increasing */
  seq: number;
  /** unix ms */
  createdAt: number;
  /** unix ms */
  updatedAt: number;
  /** unix ms, set when the finish part is written */
  finishedAt?: number;
}

/** Token counts of one provider call. */
export interface Usage {
  /** input tokens not read from or written to the cache */
  input: number;
  output: number;
  /** input tokens written to the prompt cache */
  cacheWrite: number;
  /** input tokens read from the prompt cache */
  cacheRead: number;
}

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

/**
 * Text of all text parts of a message, joined: directly, except across a server tool block, where a blank
 * line keeps the sentence before the block apart from the one after it.
 */
export function messageText(message: Pick<Message, 'parts'>): string {
  let out = '';
  let apart = false;
  for (const p of message.parts) {
    if (p.type === 'server_tool') apart = out !== '';
    if (p.type !== 'text') continue;
    if (apart && p.text) {
      out = `${out.trimEnd()}\n\n${p.text.trimStart()}`;
      apart = false;
    } else out += p.text;
  }
  return out;
}

/** Tool calls of a message, in order. */
export function toolCalls(message: Pick<Message, 'parts'>): ToolCallPart[] {
  return message.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
}

/** Tool results of a message, in order. */
export function toolResults(message: Pick<Message, 'parts'>): ToolResultPart[] {
  return message.parts.filter((p): p is ToolResultPart => p.type === 'tool_result');
}

/** The finish part of a message, if it is finished. */
export function finishPart(message: Pick<Message, 'parts'>): FinishPart | undefined {
  return message.parts.find((p): p is FinishPart => p.type === 'finish');
}
