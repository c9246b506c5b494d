/**
 * OpenAI Chat Completions provider (`openai` 6.49, `chat.completions.create({stream: true})`), also serving
 * every OpenAI-compatible API through `baseURL`: Groq, OpenRouter, xAI, a local server (Ollama, LM Studio,
 * llama.cpp) and any `providers.<id>.baseURL`. Wire format: reference deps.md §3b.
 *
 * Request building is pure ({@link toOpenAIParams}); the SDK is imported lazily on the first stream.
 * Reasoning text that compatible servers stream as `delta.reasoning_content` (DeepSeek, llama.cpp) or
 * `delta.reasoning` (OpenRouter, Ollama) is surfaced as thinking (the original dropped it).
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { FinishReason, Message, Usage } from '../message.js';
import { emptyUsage } from '../message.js';
import { pairToolResults, toolInputJson, toolParameters } from './history.js';
import { StreamTruncatedError, streamWithRetry, type ProviderCallOptions } from './retry.js';
import { DEFAULT_STALL_TIMEOUTS, type StallTimeouts } from './stall.js';
import type { ModelInfo, Provider, ProviderEvent, ProviderRequest, ProviderToolCall } from './types.js';
import { expectEventStream, invalidStreamError, noEventsDetail, sanitizeUsage, tokenCount, type StreamSource } from './wire.js';

/** Where and how to reach an OpenAI-compatible API. */
export interface OpenAIConnection {
  /** e.g. `OpenAI`, `Groq`: used in error messages */
  displayName: string;
  apiKey: string;
  /** ends in `/v1` (or the service's equivalent); the SDK appends `/chat/completions` */
  baseURL: string;
  headers?: Record<string, string>;
}

/** Text of the user message that carries images returned by tools (tool messages can hold only text). */
export const TOOL_IMAGES_NOTE = 'Images returned by the tool calls above:';

/**
 * The streaming request. Reasoning models (`canReason`) get `max_completion_tokens` and `reasoning_effort`
 * (default `medium`, reference §3); the others `max_tokens`. Usage is asked for with
 * `stream_options.include_usage`. Tool schemas carry `required`.
 */
export function toOpenAIParams(model: ModelInfo, request: ProviderRequest): ChatCompletionCreateParamsStreaming {
  const maxTokens = request.maxTokens > 0 ? request.maxTokens : model.defaultMaxTokens;
  const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: toolParameters(tool.inputSchema) },
  }));
  const system: ChatCompletionMessageParam[] = request.systemPrompt.trim()
    ? [{ role: 'system', content: request.systemPrompt }]
    : [];
  return {
    model: model.apiModel,
    messages: [...system, ...toOpenAIMessages(request.messages, model.supportsImages)],
    stream: true,
    stream_options: { include_usage: true },
    ...(tools.length > 0 ? { tools } : {}),
    ...(model.canReason
      ? { max_completion_tokens: maxTokens, reasoning_effort: request.reasoningEffort ?? 'medium' }
      : { max_tokens: maxTokens }),
  };
}

/**
 * Our history as Chat Completions messages: user text and images (as `data:` URLs), assistant text and
 * `tool_calls` (reasoning is not sent back), one `tool` message per result. Images a tool returned follow
 * the tool messages in a user message (tool messages hold text only). Empty messages are dropped.
 */
export function toOpenAIMessages(messages: readonly Message[], supportsImages: boolean): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const imageUrl = (mimeType: string, data: string): ChatCompletionContentPart => ({
    type: 'image_url',
    image_url: { url: `data:${mimeType};base64,${data}` },
  });
  for (const message of pairToolResults(messages)) {
    if (message.role === 'user') {
      const parts: ChatCompletionContentPart[] = [];
      for (const part of message.parts) {
        if (part.type === 'text' && part.text.trim()) parts.push({ type: 'text', text: part.text });
        if (part.type === 'image' && supportsImages) parts.push(imageUrl(part.mimeType, part.data));
      }
      if (parts.length === 0) continue;
      const textOnly = parts.every((p) => p.type === 'text');
      out.push({ role: 'user', content: textOnly ? parts.map((p) => (p as { text: string }).text).join('\n') : parts });
    } else if (message.role === 'assistant') {
      const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      const calls = message.parts.flatMap((p) =>
        p.type === 'tool_call'
          ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: toolInputJson(p.input) } }]
          : [],
      );
      if (!text.trim() && calls.length === 0) continue;
      out.push({
        role: 'assistant',
        content: text.trim() ? text : null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
    } else if (message.role === 'tool') {
      const images: ChatCompletionContentPart[] = [];
      for (const part of message.parts) {
        if (part.type !== 'tool_result') continue;
        out.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.content });
        if (supportsImages) for (const img of part.images ?? []) images.push(imageUrl(img.mimeType, img.data));
      }
      if (images.length > 0) out.push({ role: 'user', content: [{ type: 'text', text: TOOL_IMAGES_NOTE }, ...images] });
    }
  }
  return out;
}

/**
 * Maps `finish_reason` to ours. A reply carrying tool calls is `tool_use` whatever the reason (some
 * compatible servers, e.g. older Ollama, report `stop`), except `length`, which stays `max_tokens` so the
 * caller can tell the output (maybe a tool input) was cut.
 */
export function finishReasonOf(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const mapped = baseFinishReason(reason, hasToolCalls);
  return hasToolCalls && mapped !== 'max_tokens' ? 'tool_use' : mapped;
}

function baseFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'end_turn';
    default:
      return hasToolCalls ? 'tool_use' : 'unknown';
  }
}

/** A model bound to an OpenAI-compatible API. */
export class OpenAIProvider implements Provider {
  private client?: Promise<OpenAI>;

  constructor(
    readonly model: ModelInfo,
    private readonly connection: OpenAIConnection,
    private readonly retry: ProviderCallOptions = {},
  ) {}

  /** See {@link Provider.stream}. Never throws. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    return streamWithRetry((signal) => this.attempt(request, signal), request.signal, {
      ...this.retry,
      providerName: this.connection.displayName,
      baseURL: this.connection.baseURL,
      secrets: [this.connection.apiKey],
    });
  }

  private get source(): StreamSource {
    return {
      providerName: this.connection.displayName,
      baseURL: this.connection.baseURL,
      kind: 'OpenAI Chat Completions',
      secrets: [this.connection.apiKey],
    };
  }

  private get stallTimeouts(): StallTimeouts {
    return { ...DEFAULT_STALL_TIMEOUTS, ...this.retry.stallTimeouts };
  }

  private sdk(): Promise<OpenAI> {
    // organization / project are passed as null so OPENAI_ORG_ID / OPENAI_PROJECT_ID never reach Groq & co.
    // node-fetch.ts loads node:http, node:https, node:zlib (80–116 ms at load 10): with the SDK, at the first call
    this.client ??= Promise.all([import('openai'), import('./node-fetch.js')]).then(
      ([{ default: OpenAIClient }, { nodeFetch }]) =>
        new OpenAIClient({
          apiKey: this.connection.apiKey,
          baseURL: this.connection.baseURL,
          organization: null,
          project: null,
          defaultHeaders: this.connection.headers,
          maxRetries: 0, // our retry loop decides (retry.ts)
          // a server that accepts the connection and goes silent fails the attempt (stall.ts); the SDK's
          // own limit (10 min to the response headers) is put past ours, so ours decide
          fetch: nodeFetch({ stallTimeouts: this.stallTimeouts }),
          timeout: this.stallTimeouts.firstByteTimeoutMs + 60_000,
          logLevel: 'off',
        }),
    );
    return this.client;
  }

  private async *attempt(request: ProviderRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const client = await this.sdk();
    const { data: stream, response } = await client.chat.completions.create(toOpenAIParams(this.model, request), { signal }).withResponse();
    // an HTTP 200 that is not an event stream (wrong base URL: a web page, a JSON API) fails at once, unretried
    await expectEventStream(response, this.source, () => stream.controller.abort());
    /** every call in arrival order; `current` maps an index to the call it now continues */
    const calls: ToolCallState[] = [];
    const current = new Map<number, ToolCallState>();
    const usage: Usage = emptyUsage();
    let content = '';
    let reasoning = '';
    let finish: string | null | undefined;
    let started = false;
    let seen = 0;
    const ordered = () => [...calls].sort((a, b) => a.index - b.index || a.seq - b.seq);
    const stop = function* (call: ToolCallState): Generator<ProviderEvent> {
      if (!call.stopped) {
        call.stopped = true;
        yield { type: 'tool_use_stop', id: call.id };
      }
    };
    const stopAll = function* (): Generator<ProviderEvent> {
      for (const call of ordered()) yield* stop(call);
    };
    try {
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        seen++;
        if (chunk.usage) {
          const cached = tokenCount(chunk.usage.prompt_tokens_details?.cached_tokens);
          usage.input = Math.max(0, tokenCount(chunk.usage.prompt_tokens) - cached);
          usage.cacheRead = cached;
          usage.output = tokenCount(chunk.usage.completion_tokens);
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        started = true;
        const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & { reasoning_content?: string; reasoning?: string };
        const thought = delta.reasoning_content ?? delta.reasoning;
        if (typeof thought === 'string' && thought) {
          reasoning += thought;
          yield { type: 'thinking_delta', text: thought };
        }
        if (delta.content) {
          content += delta.content;
          yield { type: 'content_delta', text: delta.content };
        }
        for (const tc of delta.tool_calls ?? []) {
          const index = typeof tc.index === 'number' ? tc.index : 0;
          let call = current.get(index);
          // a new id at an index already in use starts a new call (some servers put every call at index 0)
          if (call && tc.id && call.serverId && tc.id !== call.serverId) {
            yield* stop(call);
            call = undefined;
          }
          if (!call) {
            const taken = new Set(calls.map((c) => c.id));
            let id = tc.id || `call_${index}`;
            for (let n = 2; taken.has(id); n++) id = `${tc.id || `call_${index}`}_${n}`;
            call = { id, serverId: tc.id || undefined, index, seq: calls.length, name: tc.function?.name ?? '', input: '', stopped: false };
            calls.push(call);
            current.set(index, call);
            yield { type: 'tool_use_start', id: call.id, name: call.name };
          }
          const args = argumentsText(tc.function?.arguments);
          if (args) {
            call.input += args;
            yield { type: 'tool_use_delta', id: call.id, inputDelta: args };
          }
        }
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          yield* stopAll();
        }
      }
    } catch (err) {
      // data that is not JSON before the first chunk with choices: not this API's stream
      if (!started && err instanceof SyntaxError && !signal?.aborted) {
        throw invalidStreamError(this.source, `an event's data is not JSON: ${err.message}`);
      }
      throw err;
    }
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    // a stream that ended cleanly without one chunk with choices is not a dropped connection
    if (!started) throw invalidStreamError(this.source, noEventsDetail(response, seen, 'chunk', 'none with choices'));
    if (!finish) throw new StreamTruncatedError();
    yield* stopAll();
    const toolCalls = ordered().map((c) => ({ id: c.id, name: c.name, input: c.input === '' ? '{}' : c.input }));
    yield {
      type: 'complete',
      response: {
        content,
        reasoning: reasoning ? [{ thinking: reasoning }] : [],
        toolCalls,
        usage: sanitizeUsage(usage),
        finishReason: finishReasonOf(finish, toolCalls.length > 0),
      },
    };
  }
}

/** One streamed tool call: `serverId` is the id the server sent (undefined when we made one up). */
interface ToolCallState extends ProviderToolCall {
  serverId?: string;
  index: number;
  /** arrival order */
  seq: number;
  stopped: boolean;
}

/**
 * A `function.arguments` delta as text: strings as they are; an object (some servers send the parsed
 * arguments) or other JSON value as its JSON; null / undefined as nothing.
 */
export function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  return typeof args === 'string' ? args : JSON.stringify(args);
}
