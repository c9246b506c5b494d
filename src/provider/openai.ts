/**
 * OpenAI Chat Completions provider (`openai` 6.49: a streaming `POST /chat/completions` through the client's `post`), also serving
 * every OpenAI-compatible API through `baseURL`: Groq, OpenRouter, xAI, a local server (Ollama, LM Studio,
 * llama.cpp) and any `providers.<id>.baseURL`. Wire format: Chat Completions streaming (https://platform.openai.com/docs/api-reference/chat-streaming).
 *
 * Request building is pure (openai-request.ts, {@link toOpenAIParams}) and sent as bytes encoded
 * incrementally (openai-body.ts) through the client's `post`; the SDK is imported lazily on the first stream.
 * Reasoning text that compatible servers stream as `delta.reasoning_content` (DeepSeek, llama.cpp) or
 * `delta.reasoning` (OpenRouter, Ollama) is surfaced as thinking (the original dropped it).
 */
import type OpenAI from 'openai';
import type { Stream } from 'openai/core/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { abortError } from '../abort.js';
import type { FinishReason, Usage } from '../message.js';
import { emptyUsage } from '../message.js';
import { OpenAIBodyEncoder } from './openai-body.js';
import { StreamTruncatedError, streamWithRetry, type ProviderCallOptions, type SdkErrorClasses } from './retry.js';
import { DEFAULT_STALL_TIMEOUTS, type StallTimeouts } from './stall.js';
import type {
  ModelInfo,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderResponse,
  ProviderToolCall,
} from './types.js';
import { usageOfChunk } from './openai-usage.js';
import { reasoningFieldFor } from './openai-reasoning.js';
import { expectEventStream, invalidStreamError, noEventsDetail, sanitizeUsage, type StreamSource } from './wire.js';

/** Where and how to reach an OpenAI-compatible API. */
export interface OpenAIConnection {
  /** e.g. `OpenAI`, `Groq`: used in error messages */
  displayName: string;
  apiKey: string;
  /** ends in `/v1` (or the service's equivalent); the SDK appends `/chat/completions` */
  baseURL: string;
  headers?: Record<string, string>;
}

export { TOOL_IMAGES_NOTE, toOpenAIMessages, toOpenAIParams } from './openai-request.js';

/** The SDK passes a body given as bytes through as it is; the type is said here (what `create` sends). */
const JSON_CONTENT = { 'content-type': 'application/json' };

/**
 * Maps `finish_reason` to ours. A reply carrying tool calls is `tool_use` whatever the reason (some
 * compatible servers, e.g. older Ollama, report `stop`), except `length`, which stays `max_tokens` so the
 * caller can tell the output (maybe a tool input) was cut. `content_filter` (the provider's filter withheld
 * the reply) is a `refusal`. A reason we do not know is `unknown`, never a normal end.
 */
export function finishReasonOf(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const mapped = baseFinishReason(reason, hasToolCalls);
  return hasToolCalls && mapped !== 'max_tokens' && mapped !== 'refusal' ? 'tool_use' : mapped;
}

function baseFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
    case 'eos': // Ollama's and some vLLM builds' reason for a stop sequence or the end of generation
    case 'end_turn':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return hasToolCalls ? 'tool_use' : 'unknown';
  }
}

/** A model bound to an OpenAI-compatible API. */
export class OpenAIProvider implements Provider {
  private client?: Promise<OpenAI>;
  /** the SDK's error classes, once it is loaded */
  private sdkErrors?: SdkErrorClasses;
  private readonly body: OpenAIBodyEncoder;

  constructor(
    readonly model: ModelInfo,
    private readonly connection: OpenAIConnection,
    private readonly retry: ProviderCallOptions = {},
  ) {
    this.body = new OpenAIBodyEncoder(reasoningFieldFor(model.provider, connection.baseURL, model.apiModel));
  }

  /** See {@link Provider.stream}. Never throws. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    return streamWithRetry((signal) => this.attempt(request, signal), request.signal, {
      ...this.retry,
      providerName: this.connection.displayName,
      baseURL: this.connection.baseURL,
      secrets: [this.connection.apiKey],
      sdkErrors: () => this.sdkErrors,
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
      ([{ default: OpenAIClient }, { nodeFetch }]) => {
        this.sdkErrors = OpenAIClient;
        return new OpenAIClient({
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
        });
      },
    );
    return this.client;
  }

  private async *attempt(request: ProviderRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const client = await this.sdk();
    // the request as bytes (openai-body.ts: what `chat.completions.create` would send, its history encoded
    // once), through the SDK's generic request method, as `create` itself sends it (bearer auth, SSE decoding)
    const body = this.body.encode(this.model, request);
    const { data: stream, response } = await client
      .post<Stream<ChatCompletionChunk>>('/chat/completions', { body, stream: true, headers: JSON_CONTENT, signal })
      .withResponse();
    // an HTTP 200 that is not an event stream (wrong base URL: a web page, a JSON API) fails at once, unretried
    await expectEventStream(response, this.source, () => stream.controller.abort());
    /** every call in arrival order; `current` maps an index to the call it now continues */
    const calls: ToolCallState[] = [];
    const current = new Map<number, ToolCallState>();
    const usage: Usage = emptyUsage();
    let content = '';
    let reasoning = '';
    let finish: string | null | undefined;
    let refusalText = '';
    let usageSeen = false;
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
        const counts = usageOfChunk(chunk);
        if (counts) {
          Object.assign(usage, counts);
          usageSeen = true;
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        started = true;
        const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & {
          reasoning_content?: string;
          reasoning?: string;
        };
        // OpenAI's own refusal text (structured outputs), streamed beside the content
        if (typeof delta.refusal === 'string') refusalText += delta.refusal;
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
            call = {
              id,
              serverId: tc.id || undefined,
              index,
              seq: calls.length,
              name: tc.function?.name ?? '',
              input: '',
              stopped: false,
            };
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
    if (signal?.aborted) throw abortError('aborted');
    // a stream that ended cleanly without one chunk with choices is not a dropped connection
    if (!started) throw invalidStreamError(this.source, noEventsDetail(response, seen, 'chunk', 'none with choices'));
    if (!finish) throw new StreamTruncatedError();
    yield* stopAll();
    const toolCalls = ordered().map((c) => ({ id: c.id, name: c.name, input: c.input === '' ? '{}' : c.input }));
    const reply: ProviderResponse = {
      content,
      reasoning: reasoning ? [{ thinking: reasoning }] : [],
      toolCalls,
      usage: sanitizeUsage(usage),
      finishReason: finishReasonOf(finish, toolCalls.length > 0),
    };
    if (refusalText) reply.finishReason = 'refusal';
    if (reply.finishReason === 'refusal') reply.refusal = refusalText.trim() ? { explanation: refusalText.trim() } : {};
    if (reply.finishReason === 'unknown') reply.stopReason = finish;
    if (!usageSeen) reply.usageMissing = true;
    yield { type: 'complete', response: reply };
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
