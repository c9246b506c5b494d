/**
 * Anthropic Messages API provider (`@anthropic-ai/sdk` 1.14, raw `messages.create({stream: true})` with the
 * body given as bytes).
 *
 * Request building is pure (anthropic-request.ts, {@link toAnthropicParams}) and sent as bytes encoded
 * incrementally (anthropic-body.ts); the SDK is imported lazily on the first stream so
 * `opencode --version` never loads it. Wire format: the Messages API's streaming
 * (https://docs.anthropic.com/en/api/messages-streaming).
 *
 * What differs from the original: tool schemas carry `required`; thinking blocks are kept
 * with their signatures (and `redacted_thinking`) and sent back, which the API requires within a tool-use
 * turn; a tool call whose input is not valid JSON is sent wrapped instead of dropped; newer models get
 * adaptive thinking; no temperature is sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent, StopReason, Usage as ApiUsage } from '@anthropic-ai/sdk/resources/messages';
import { abortError } from '../abort.js';
import type { FinishReason, MessagePart, Usage } from '../message.js';
import { emptyUsage, messageText } from '../message.js';
import { AnthropicBodyEncoder } from './anthropic-body.js';
import { anthropicRequestPieces } from './anthropic-request.js';
import { StreamTruncatedError, streamWithRetry, type ProviderCallOptions, type SdkErrorClasses } from './retry.js';
import { DEFAULT_STALL_TIMEOUTS, type StallTimeouts } from './stall.js';
import type {
  ModelInfo,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderResponse,
  ResponseContentBlock,
} from './types.js';
import { expectEventStream, invalidStreamError, noEventsDetail, sanitizeUsage, type StreamSource } from './wire.js';

/** Where and how to reach the API. `baseURL` is passed to the SDK explicitly (it would read `ANTHROPIC_BASE_URL` itself). */
export interface AnthropicConnection {
  apiKey: string;
  /** without `/v1`; the SDK appends `/v1/messages` */
  baseURL: string;
  headers?: Record<string, string>;
}

export {
  MIN_THINKING_BUDGET_TOKENS,
  thinkingForm,
  toAnthropicMessages,
  toAnthropicParams,
} from './anthropic-request.js';

/** The SDK passes a body given as bytes through as it is; its type is said here (what `messages.create` says of JSON). */
const JSON_CONTENT = { 'content-type': 'application/json' };

/**
 * Maps the API's `stop_reason` to ours (Messages API reference, "stop_reason"). `refusal`: the streaming
 * classifiers declined the request, with no refusal text ("Handle streaming refusals": the refused turn
 * must be removed or rephrased before continuing). `pause_turn`: server tools paused a long turn, which is
 * continued by sending the reply back as it is ("Server tools": pause_turn). A reason we do not know is
 * `unknown` (the response's `stopReason` names it). A reply carrying tool calls is `tool_use` whatever the
 * stop reason (some servers say `end_turn`), except `max_tokens` and `refusal`, which are kept so the
 * caller can tell the output (maybe a tool input) was cut or declined.
 */
export function finishReasonOf(stopReason: StopReason | string | null | undefined, hasToolCalls = false): FinishReason {
  const reason = baseFinishReason(stopReason);
  return hasToolCalls && reason !== 'max_tokens' && reason !== 'refusal' ? 'tool_use' : reason;
}

function baseFinishReason(stopReason: StopReason | string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      return 'pause_turn';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'unknown';
  }
}

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; input: string; initialInput: unknown }
  /** a server tool's call or result (`server_tool_use`, `*_tool_result`), kept whole to be sent back */
  | { kind: 'server'; block: Record<string, unknown>; input: string }
  | { kind: 'other' };

/** Content block types the API runs itself: `server_tool_use` and the results (`web_search_tool_result`, …). */
const isServerBlock = (type: string): boolean => type === 'server_tool_use' || type.endsWith('_tool_result');

/** A Claude model bound to the Anthropic API. */
export class AnthropicProvider implements Provider {
  private client?: Promise<Anthropic>;
  /** the SDK's error classes, once it is loaded */
  private sdkErrors?: SdkErrorClasses;
  private readonly body = new AnthropicBodyEncoder();

  constructor(
    readonly model: ModelInfo,
    private readonly connection: AnthropicConnection,
    private readonly retry: ProviderCallOptions = {},
  ) {}

  /** See {@link Provider.stream}. Never throws. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    return streamWithRetry((signal) => this.attempt(request, signal), request.signal, {
      ...this.retry,
      providerName: 'Anthropic',
      baseURL: this.connection.baseURL,
      secrets: [this.connection.apiKey],
      sdkErrors: () => this.sdkErrors,
    });
  }

  private get source(): StreamSource {
    return {
      providerName: 'Anthropic',
      baseURL: this.connection.baseURL,
      kind: 'Anthropic Messages',
      secrets: [this.connection.apiKey],
    };
  }

  private get stallTimeouts(): StallTimeouts {
    return { ...DEFAULT_STALL_TIMEOUTS, ...this.retry.stallTimeouts };
  }

  private sdk(): Promise<Anthropic> {
    // node-fetch.ts loads node:http, node:https, node:zlib (80–116 ms at load 10): with the SDK, at the first call
    this.client ??= Promise.all([import('@anthropic-ai/sdk'), import('./node-fetch.js')]).then(
      ([{ default: AnthropicClient }, { nodeFetch }]) => {
        this.sdkErrors = AnthropicClient;
        return new AnthropicClient({
          apiKey: this.connection.apiKey,
          baseURL: this.connection.baseURL,
          defaultHeaders: this.connection.headers,
          maxRetries: 0, // our retry loop decides (retry.ts)
          // a server that accepts the connection and goes silent fails the attempt (stall.ts); the SDK's
          // own limit (10 min to the response headers) is put past ours, so ours decide
          fetch: nodeFetch({ stallTimeouts: this.stallTimeouts }),
          timeout: this.stallTimeouts.firstByteTimeoutMs + 60_000,
          logLevel: 'off',
          // no OpenTelemetry spans: we register no tracer, and the SDK's no-op spans cost ~0.3 ms of CPU a call
          // (documented ClientOptions.openTelemetry: `false` disables the spans)
          openTelemetry: false,
        });
      },
    );
    return this.client;
  }

  private async *attempt(request: ProviderRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const client = await this.sdk();
    // the request goes as bytes (anthropic-body.ts: exactly what `messages.create` would send of
    // toAnthropicParams, its history encoded once), given as the request option `body`, which takes the
    // place of the encoded params; `create` still sees the model and thinking settings, so it warns of a
    // deprecated model (library-console.ts shows that) and sets its headers as before
    const pieces = anthropicRequestPieces(this.model, request);
    const body = this.body.encode(this.model, request, pieces);
    const { head, thinking } = pieces;
    const { data: stream, response } = await client.messages
      .create({ ...head, ...thinking, messages: [] }, { body, headers: JSON_CONTENT, signal })
      .withResponse();
    // an HTTP 200 that is not an event stream (wrong base URL: a web page, a JSON API) fails at once, unretried
    await expectEventStream(response, this.source, () => stream.controller.abort());
    const blocks: Block[] = [];
    const usage: Usage = emptyUsage();
    let stopReason: string | null = null;
    let stopDetails: { explanation?: string; category?: string } | undefined;
    let stopped = false;
    let started = false;
    let seen = 0;
    try {
      for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
        seen++;
        if (event.type === 'message_start') started = true;
        yield* this.handle(event, blocks, usage);
        if (event.type === 'message_delta') {
          stopReason = event.delta?.stop_reason ?? stopReason;
          // `stop_details` (a refusal's category and explanation) comes with the stop reason; the SDK's types lack it
          stopDetails = detailsOf((event.delta as { stop_details?: unknown } | undefined)?.stop_details) ?? stopDetails;
        }
        if (event.type === 'message_stop') stopped = true;
      }
    } catch (err) {
      // data that is not JSON before the first message event: not this API's stream
      if (!started && err instanceof SyntaxError && !signal?.aborted) {
        throw invalidStreamError(this.source, `an event's data is not JSON: ${err.message}`);
      }
      throw err;
    }
    // the SDK ends the iteration quietly when the signal aborts; retry.ts turns that into AbortError
    if (signal?.aborted) throw abortError('aborted');
    // a stream that ended cleanly without a single message event is not a dropped connection
    if (!started) throw invalidStreamError(this.source, noEventsDetail(response, seen, 'event', 'no message_start'));
    if (!stopped) throw new StreamTruncatedError();
    yield { type: 'complete', response: responseOf(blocks, sanitizeUsage(usage), stopReason, stopDetails) };
  }

  /** Folds one stream event into `blocks` / `usage`, yielding the deltas it carries. */
  private *handle(event: RawMessageStreamEvent, blocks: Block[], usage: Usage): Generator<ProviderEvent> {
    switch (event.type) {
      case 'message_start': {
        const u: Partial<ApiUsage> = event.message.usage ?? {};
        usage.input = u.input_tokens ?? 0;
        usage.output = u.output_tokens ?? 0;
        usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
        usage.cacheRead = u.cache_read_input_tokens ?? 0;
        break;
      }
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') blocks[event.index] = { kind: 'text', text: b.text ?? '' };
        else if (b.type === 'thinking')
          blocks[event.index] = { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
        else if (b.type === 'redacted_thinking') blocks[event.index] = { kind: 'redacted', data: b.data };
        else if (b.type === 'tool_use') {
          blocks[event.index] = { kind: 'tool', id: b.id, name: b.name, input: '', initialInput: b.input };
          yield { type: 'tool_use_start', id: b.id, name: b.name };
        } else if (isServerBlock(b.type)) {
          const block = { ...(b as unknown as Record<string, unknown>) };
          blocks[event.index] = { kind: 'server', block, input: '' };
          yield { type: 'server_tool', block };
        } else blocks[event.index] = { kind: 'other' };
        break;
      }
      case 'content_block_delta': {
        const block = blocks[event.index];
        const d = event.delta;
        if (d.type === 'text_delta' && block?.kind === 'text') {
          block.text += d.text;
          if (d.text) yield { type: 'content_delta', text: d.text };
        } else if (d.type === 'thinking_delta' && block?.kind === 'thinking') {
          block.thinking += d.thinking;
          if (d.thinking) yield { type: 'thinking_delta', text: d.thinking };
        } else if (d.type === 'signature_delta' && block?.kind === 'thinking') {
          block.signature += d.signature;
        } else if (d.type === 'input_json_delta' && block?.kind === 'tool') {
          block.input += d.partial_json;
          if (d.partial_json) yield { type: 'tool_use_delta', id: block.id, inputDelta: d.partial_json };
        } else if (d.type === 'input_json_delta' && block?.kind === 'server') {
          block.input += d.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const block = blocks[event.index];
        if (block?.kind === 'tool') yield { type: 'tool_use_stop', id: block.id };
        break;
      }
      case 'message_delta': {
        const u: Partial<typeof event.usage> = event.usage ?? {};
        // output_tokens is cumulative and replaces the start value; input/cache counts only when given
        usage.output = u.output_tokens ?? usage.output;
        if (u.input_tokens != null) usage.input = u.input_tokens;
        if (u.cache_creation_input_tokens != null) usage.cacheWrite = u.cache_creation_input_tokens;
        if (u.cache_read_input_tokens != null) usage.cacheRead = u.cache_read_input_tokens;
        break;
      }
    }
  }
}

function responseOf(
  blocks: Block[],
  usage: Usage,
  stopReason: string | null,
  stopDetails: { explanation?: string; category?: string } | undefined,
): ProviderResponse {
  const response: ProviderResponse = {
    content: '',
    reasoning: [],
    toolCalls: [],
    usage,
    finishReason: 'unknown',
  };
  const content: ResponseContentBlock[] = [];
  for (const block of blocks) {
    if (!block) continue;
    if (block.kind === 'text') {
      const last = content.at(-1);
      if (last?.type === 'text') last.text += block.text;
      else content.push({ type: 'text', text: block.text });
    } else if (block.kind === 'server') content.push({ type: 'server_tool', block: serverBlock(block) });
    else if (block.kind === 'thinking') {
      response.reasoning.push({ thinking: block.thinking, ...(block.signature ? { signature: block.signature } : {}) });
    } else if (block.kind === 'redacted') response.reasoning.push({ thinking: '', redactedData: block.data });
    else if (block.kind === 'tool') {
      // no input deltas at all means the start block's input is the whole input (usually {})
      const input = block.input !== '' ? block.input : JSON.stringify(block.initialInput ?? {});
      response.toolCalls.push({ id: block.id, name: block.name, input });
    }
  }
  response.content = messageText({
    parts: content.map((c): MessagePart =>
      c.type === 'text' ? { type: 'text', text: c.text } : { type: 'server_tool', block: c.block },
    ),
  });
  if (content.some((c) => c.type === 'server_tool')) response.contentBlocks = content;
  response.finishReason = finishReasonOf(stopReason, response.toolCalls.length > 0);
  if (response.finishReason === 'unknown' && stopReason) response.stopReason = stopReason;
  if (response.finishReason === 'refusal') response.refusal = stopDetails ?? {};
  return response;
}

/** A server block as it goes back: its streamed input (a `server_tool_use`'s) parsed in place of the start's. */
function serverBlock(block: Extract<Block, { kind: 'server' }>): Record<string, unknown> {
  if (block.input === '') return block.block;
  try {
    return { ...block.block, input: JSON.parse(block.input) as unknown };
  } catch {
    return block.block;
  }
}

/** `stop_details` as we keep it: its explanation and category when they are strings. */
function detailsOf(details: unknown): { explanation?: string; category?: string } | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const { explanation, category } = details as { explanation?: unknown; category?: unknown };
  return {
    ...(typeof explanation === 'string' && explanation.trim() ? { explanation: explanation.trim() } : {}),
    ...(typeof category === 'string' && category ? { category } : {}),
  };
}
