/**
 * What the message list shows, one {@link ChatItem} per user or assistant message. The chat store
 * builds these from the core's messages and events; the render layer turns each into terminal lines
 * (cached by `id` + `version` + width). Tool results are cut when they enter the store (see
 * {@link DISPLAY_RESULT_MAX_CHARS}): the full output stays in the database, not in render state.
 */
import type { FinishReason, Message, ToolCallPart, ToolResultPart } from '../../message.js';

/** Longest tool result (characters) kept in render state; the view shows at most 10 lines of it. */
export const DISPLAY_RESULT_MAX_CHARS = 4_000;

/** Longest expanded tool result (characters) kept in render state; the pager reads the whole one from the database. */
export const EXPANDED_RESULT_MAX_CHARS = 256 * 1024;

/**
 * Metadata key a cut result carries: how many lines the whole content had, so the view can say how
 * many it leaves out (the cut text alone would undercount).
 */
export const CONTENT_LINES_KEY = 'tuiContentLines';

/** One tool call as shown: the call, its result once there, its live progress while running. */
export interface ToolCallView {
  call: ToolCallPart;
  /** absent while the call runs (or before it starts) */
  result?: ToolResultPart;
  /** the latest progress text (e.g. bash output so far), while running */
  progress?: string;
  /** for the `agent` tool: the sub-agent session's items, rendered nested under the call */
  children?: ChatItem[];
  /** MCP tools: the server's name, shown beside the tool name */
  mcpServer?: string;
  /**
   * The person expanded the result (`messages.expand`): `result` is then the stored
   * result, cut at {@link EXPANDED_RESULT_MAX_CHARS} rather than {@link DISPLAY_RESULT_MAX_CHARS}
   */
  expanded?: boolean;
  /**
   * No result and none coming: the message is finished and no reply is running (opencode was
   * killed while the call ran; the next prompt gives it a "canceled" result)
   */
  interrupted?: boolean;
}

/** The footer under the last message of a reply. */
export interface ReplyFooter {
  reason: FinishReason;
  /** `provider/model` */
  model?: string;
  /** the model's display name (`Claude Sonnet 5.5`), when known */
  modelName?: string;
  /** from the user's message to the reply's finish, ms */
  durationMs?: number;
  /** the finish part's one-line explanation (errors, step limit) */
  message?: string;
}

/** One message as the list shows it. */
export interface ChatItem {
  /** the message id */
  id: string;
  /**
   * Changes whenever anything rendered changes (the message, a result, progress, children,
   * footer). The line cache keys on it.
   */
  version: string;
  role: 'user' | 'assistant';
  /** the message itself; for assistant messages the tool results are in `tools`, not here */
  message: Message;
  /** assistant messages: one per tool call, in call order */
  tools: ToolCallView[];
  /** set on the last assistant message of a finished reply */
  footer?: ReplyFooter;
  /** the message is still being written by the provider */
  streaming: boolean;
}

/** How items are drawn; part of the line cache's key. */
export interface RenderOptions {
  /** columns available for the message text */
  width: number;
  /** show finished thinking in full (it is always shown, dimmed, while it streams) */
  showThinking: boolean;
}
