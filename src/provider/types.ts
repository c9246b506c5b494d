/**
 * The one streaming interface every LLM provider implements (the original's event kinds), and the model record.
 *
 * Knows nothing of ours above it: it takes the shared {@link Message} shapes and a list of tool
 * schemas, and yields {@link ProviderEvent}s.
 */
import type { FinishReason, Message, Usage } from '../message.js';

/** A provider id from the catalog or config: `anthropic`, `openai`, `groq`, `openrouter`, `xai`, `local`, or a custom id. */
export type ProviderId = string;

/** One catalog row (or a model built from config for models not in the catalog). */
export interface ModelInfo {
  /** `provider/model`, e.g. `anthropic/claude-sonnet-4-5` */
  id: string;
  provider: ProviderId;
  /** the model name sent to the API */
  apiModel: string;
  /** human name for the UI */
  name: string;
  contextWindowTokens: number;
  defaultMaxTokens: number;
  /** USD per 1M tokens */
  price: { input: number; output: number; cacheWrite: number; cacheRead: number };
  canReason: boolean;
  supportsImages: boolean;
}

/** A tool as offered to the model: name, description and a JSON Schema object for its input. */
export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of type `object`, with `properties` and `required` */
  inputSchema: Record<string, unknown>;
}

/** One call to the provider. */
export interface ProviderRequest {
  systemPrompt: string;
  /** the history, oldest first; `system` messages are ignored */
  messages: Message[];
  tools: ToolSchema[];
  /** output cap in tokens */
  maxTokens: number;
  /** for reasoning models (OpenAI-style `reasoning_effort`) */
  reasoningEffort?: 'low' | 'medium' | 'high';
  /** Anthropic extended thinking, budget 0.8 × maxTokens, as the original */
  thinking?: boolean;
  signal?: AbortSignal;
}

/** A finished tool call as returned in `complete`. `input` is the raw JSON string. */
export interface ProviderToolCall {
  id: string;
  name: string;
  input: string;
}

/**
 * The reply's text and server tool blocks in the order the API sent them (Anthropic): text blocks next to
 * each other are one entry; a server tool block between two texts keeps them apart.
 */
export type ResponseContentBlock =
  { type: 'text'; text: string } | { type: 'server_tool'; block: Record<string, unknown> };

/** The final state of one provider call. */
export interface ProviderResponse {
  /** all text of the reply (as `messageText` in message.ts joins it) */
  content: string;
  /** text and server tool blocks in order, when the reply had server tool blocks; else `content` is the whole text */
  contentBlocks?: ResponseContentBlock[];
  /** thinking blocks in order, with signatures (Anthropic) */
  reasoning: { thinking: string; signature?: string; redactedData?: string }[];
  toolCalls: ProviderToolCall[];
  usage: Usage;
  /** set when the stream carried no token counts at all (some local servers): `usage` is then all zeros */
  usageMissing?: true;
  finishReason: FinishReason;
  /** with `finishReason: 'unknown'`: the API's own stop reason as sent, for the warning that names it */
  stopReason?: string;
  /** with `finishReason: 'refusal'`: what the API said of it (Anthropic `stop_details`) */
  refusal?: { explanation?: string; category?: string };
}

/**
 * What kind of failure a {@link ProviderError} is, for callers that react to it (the UI's wording, the
 * agent's finish reason). `overloaded` is HTTP 529 / `overloaded_error`, distinct from `rate_limited` (429).
 */
export type ProviderErrorCode =
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'connection'
  | 'auth'
  | 'invalid_request'
  /** HTTP 200 that is not the API's event stream (wrong base URL) */
  | 'invalid_response'
  | 'missing_credentials'
  | 'unknown_model'
  | 'aborted'
  | 'other';

/** Error raised by a provider, with a message that never contains credentials. */
export class ProviderError extends Error {
  /** HTTP status if there was one */
  readonly status?: number;
  /** true for 429/529/5xx/connection problems */
  readonly retryable: boolean;
  /** the kind of failure; `other` when unclassified */
  readonly code: ProviderErrorCode;
  constructor(
    message: string,
    options: { status?: number; retryable?: boolean; cause?: unknown; code?: ProviderErrorCode } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.code = options.code ?? 'other';
  }
}

/**
 * Events streamed by {@link Provider.stream}, in order. `complete` or `error` is always last.
 * `retry` means everything streamed so far is void: the consumer starts the message afresh.
 */
export type ProviderEvent =
  | { type: 'thinking_delta'; text: string }
  | { type: 'content_delta'; text: string }
  /** a server tool's block started (Anthropic web search, …): the text after it is a new paragraph; `complete` has the whole block */
  | { type: 'server_tool'; block: Record<string, unknown> }
  | { type: 'tool_use_start'; id: string; name: string }
  | { type: 'tool_use_delta'; id: string; inputDelta: string }
  | { type: 'tool_use_stop'; id: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; reason: string }
  | { type: 'complete'; response: ProviderResponse }
  | { type: 'error'; error: ProviderError };

/** A model bound to its API client. */
export interface Provider {
  readonly model: ModelInfo;
  /** Stream one call. Never throws: failures arrive as an `error` event; an aborted signal ends with `error` whose name is `AbortError`. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}
