/**
 * Anthropic Messages API provider (`@anthropic-ai/sdk` 1.14, raw `messages.create({stream: true})`).
 *
 * Request building is pure ({@link toAnthropicParams}); the SDK is imported lazily on the first stream so
 * `opencode --version` never loads it. Wire format: reference deps.md §3a.
 *
 * What differs from the original (reference §3): tool schemas carry `required`; thinking blocks are kept
 * with their signatures (and `redacted_thinking`) and sent back, which the API requires within a tool-use
 * turn; a tool call whose input is not valid JSON is sent wrapped instead of dropped; newer models get
 * adaptive thinking; no temperature is sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool,
  Usage as ApiUsage,
} from '@anthropic-ai/sdk/resources/messages';
import type { FinishReason, Message, Usage } from '../message.js';
import { emptyUsage } from '../message.js';
import { pairToolResults, toolInputObject, toolParameters } from './history.js';
import { StreamTruncatedError, streamWithRetry, type ProviderCallOptions } from './retry.js';
import { DEFAULT_STALL_TIMEOUTS, type StallTimeouts } from './stall.js';
import type { ModelInfo, Provider, ProviderEvent, ProviderRequest, ProviderResponse } from './types.js';
import { expectEventStream, invalidStreamError, noEventsDetail, sanitizeUsage, type StreamSource } from './wire.js';

/** Where and how to reach the API. `baseURL` is passed to the SDK explicitly (it would read `ANTHROPIC_BASE_URL` itself). */
export interface AnthropicConnection {
  apiKey: string;
  /** without `/v1`; the SDK appends `/v1/messages` */
  baseURL: string;
  headers?: Record<string, string>;
}

/** Smallest thinking budget the API accepts (`budget_tokens` ≥ 1024, Anthropic "extended thinking" docs). */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

const CACHE = { type: 'ephemeral' } as const;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Which extended-thinking form a Claude model takes. Claude 4.6 and later (and the Fable / Mythos lines)
 * take `{type: "adaptive"}` with an optional `output_config.effort`; the Claude 5 family rejects the
 * budget form with HTTP 400 and 4.6 deprecates it (platform.claude.com "Adaptive thinking"; the SDK warns
 * for claude-opus-4-6 with `enabled`). Earlier models take `{type: "enabled", budget_tokens}`.
 */
export function thinkingForm(apiModel: string): 'adaptive' | 'budget' {
  if (/^claude-(fable|mythos)\b/.test(apiModel)) return 'adaptive';
  const m = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/.exec(apiModel);
  if (!m) return 'budget';
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 6) ? 'adaptive' : 'budget';
}

/**
 * The streaming request for `request` on `model`. Prompt caching (reference §3): `cache_control` on the
 * system block, the last tool, and the last block of each of the last 2 messages (4 breakpoints, the
 * API's maximum). Thinking, when `request.thinking` and `model.canReason` ({@link thinkingForm}):
 * budget form with `budget_tokens = floor(0.8 × maxTokens)` (skipped if under
 * {@link MIN_THINKING_BUDGET_TOKENS}), or adaptive form with `output_config.effort` from
 * `request.reasoningEffort`. No temperature is sent: the original sent 0 without thinking, but thinking
 * needs 1 and the Claude 5 family rejects any non-default sampling parameter with HTTP 400.
 */
export function toAnthropicParams(model: ModelInfo, request: ProviderRequest): MessageCreateParamsStreaming {
  const maxTokens = request.maxTokens > 0 ? request.maxTokens : model.defaultMaxTokens;
  const budget = Math.floor(0.8 * maxTokens);
  const form = thinkingForm(model.apiModel);
  const wantsThinking = Boolean(request.thinking && model.canReason);
  const tools: Tool[] = request.tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toolParameters(tool.inputSchema) as Tool.InputSchema,
    ...(i === request.tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
  const system: TextBlockParam[] | undefined = request.systemPrompt.trim()
    ? [{ type: 'text', text: request.systemPrompt, cache_control: CACHE }]
    : undefined;
  const thinking: Pick<MessageCreateParamsStreaming, 'thinking' | 'output_config'> = !wantsThinking
    ? {}
    : form === 'adaptive'
      ? { thinking: { type: 'adaptive' }, ...(request.reasoningEffort ? { output_config: { effort: request.reasoningEffort } } : {}) }
      : budget >= MIN_THINKING_BUDGET_TOKENS
        ? { thinking: { type: 'enabled', budget_tokens: budget } }
        : {};
  return {
    model: model.apiModel,
    max_tokens: maxTokens,
    stream: true,
    messages: toAnthropicMessages(request.messages, model),
    ...(system ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...thinking,
  };
}

/**
 * Our history as API messages: `user` and `tool` messages become `user` turns (tool results as
 * `tool_result` blocks), assistant reasoning parts with a signature become `thinking` blocks (unsigned
 * ones are dropped: the API rejects them; so are those of messages written by another model, since
 * thinking blocks are bound to the model that wrote them), blank text and empty messages are dropped,
 * consecutive same-role turns are merged, and the last 2 turns get a cache breakpoint. Images are sent
 * base64 when the model supports them and the type is one the API takes (jpeg, png, gif, webp).
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  model: Pick<ModelInfo, 'id' | 'supportsImages'>,
): MessageParam[] {
  const { supportsImages } = model;
  const out: MessageParam[] = [];
  for (const message of pairToolResults(messages)) {
    const ownThinking = message.model === undefined || message.model === model.id;
    const blocks: ContentBlockParam[] = [];
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
          if (part.text.trim()) blocks.push({ type: 'text', text: part.text });
          break;
        case 'image':
          if (supportsImages && IMAGE_TYPES.has(part.mimeType)) {
            blocks.push({ type: 'image', source: { type: 'base64', media_type: part.mimeType as 'image/png', data: part.data } });
          }
          break;
        case 'reasoning':
          if (message.role !== 'assistant' || !ownThinking) break;
          if (part.redactedData) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
          else if (part.signature) blocks.push({ type: 'thinking', thinking: part.thinking, signature: part.signature });
          break;
        case 'tool_call':
          if (message.role === 'assistant') {
            blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: toolInputObject(part.input) });
          }
          break;
        case 'tool_result': {
          const images = supportsImages ? (part.images ?? []).filter((img) => IMAGE_TYPES.has(img.mimeType)) : [];
          const content =
            images.length === 0
              ? part.content || undefined
              : [
                  ...(part.content.trim() ? [{ type: 'text' as const, text: part.content }] : []),
                  ...images.map((img) => ({
                    type: 'image' as const,
                    source: { type: 'base64' as const, media_type: img.mimeType as 'image/png', data: img.data },
                  })),
                ];
          blocks.push({
            type: 'tool_result',
            tool_use_id: part.toolCallId,
            ...(content !== undefined ? { content } : {}),
            ...(part.isError ? { is_error: true } : {}),
          });
          break;
        }
        case 'finish':
          break;
      }
    }
    if (blocks.length === 0) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = out.at(-1);
    if (last && last.role === role) (last.content as ContentBlockParam[]).push(...blocks);
    else out.push({ role, content: blocks });
  }
  for (const turn of out.slice(-2)) {
    const blocks = turn.content as ContentBlockParam[];
    const target = blocks.findLast((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
    if (target) (target as { cache_control?: typeof CACHE }).cache_control = CACHE;
  }
  return out;
}

/**
 * Maps the API's `stop_reason` to ours. `refusal` ends the turn; `pause_turn` (server tools only) is unknown.
 * A reply carrying tool calls is `tool_use` whatever the stop reason (some servers say `end_turn`), except
 * `max_tokens`, which is kept so the caller can tell the output (maybe a tool input) was cut.
 */
export function finishReasonOf(stopReason: StopReason | string | null | undefined, hasToolCalls = false): FinishReason {
  const reason = baseFinishReason(stopReason);
  return hasToolCalls && reason !== 'max_tokens' ? 'tool_use' : reason;
}

function baseFinishReason(stopReason: StopReason | string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'refusal':
      return 'end_turn';
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
  | { kind: 'other' };

/** A Claude model bound to the Anthropic API. */
export class AnthropicProvider implements Provider {
  private client?: Promise<Anthropic>;

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
    });
  }

  private get source(): StreamSource {
    return { providerName: 'Anthropic', baseURL: this.connection.baseURL, kind: 'Anthropic Messages', secrets: [this.connection.apiKey] };
  }

  private get stallTimeouts(): StallTimeouts {
    return { ...DEFAULT_STALL_TIMEOUTS, ...this.retry.stallTimeouts };
  }

  private sdk(): Promise<Anthropic> {
    // node-fetch.ts loads node:http, node:https, node:zlib (80–116 ms at load 10): with the SDK, at the first call
    this.client ??= Promise.all([import('@anthropic-ai/sdk'), import('./node-fetch.js')]).then(
      ([{ default: AnthropicClient }, { nodeFetch }]) =>
        new AnthropicClient({
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
          // (issue 16; documented ClientOptions.openTelemetry: `false` disables the spans)
          openTelemetry: false,
        }),
    );
    return this.client;
  }

  private async *attempt(request: ProviderRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const client = await this.sdk();
    const { data: stream, response } = await client.messages.create(toAnthropicParams(this.model, request), { signal }).withResponse();
    // an HTTP 200 that is not an event stream (wrong base URL: a web page, a JSON API) fails at once, unretried
    await expectEventStream(response, this.source, () => stream.controller.abort());
    const blocks: Block[] = [];
    const usage: Usage = emptyUsage();
    let stopReason: string | null = null;
    let stopped = false;
    let started = false;
    let seen = 0;
    try {
      for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
        seen++;
        if (event.type === 'message_start') started = true;
        yield* this.handle(event, blocks, usage);
        if (event.type === 'message_delta') stopReason = event.delta?.stop_reason ?? stopReason;
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
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    // a stream that ended cleanly without a single message event is not a dropped connection
    if (!started) throw invalidStreamError(this.source, noEventsDetail(response, seen, 'event', 'no message_start'));
    if (!stopped) throw new StreamTruncatedError();
    yield { type: 'complete', response: responseOf(blocks, sanitizeUsage(usage), stopReason) };
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
        else if (b.type === 'thinking') blocks[event.index] = { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
        else if (b.type === 'redacted_thinking') blocks[event.index] = { kind: 'redacted', data: b.data };
        else if (b.type === 'tool_use') {
          blocks[event.index] = { kind: 'tool', id: b.id, name: b.name, input: '', initialInput: b.input };
          yield { type: 'tool_use_start', id: b.id, name: b.name };
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

function responseOf(blocks: Block[], usage: Usage, stopReason: string | null): ProviderResponse {
  const response: ProviderResponse = {
    content: '',
    reasoning: [],
    toolCalls: [],
    usage,
    finishReason: 'unknown',
  };
  for (const block of blocks) {
    if (!block) continue;
    if (block.kind === 'text') response.content += block.text;
    else if (block.kind === 'thinking') {
      response.reasoning.push({ thinking: block.thinking, ...(block.signature ? { signature: block.signature } : {}) });
    } else if (block.kind === 'redacted') response.reasoning.push({ thinking: '', redactedData: block.data });
    else if (block.kind === 'tool') {
      // no input deltas at all means the start block's input is the whole input (usually {})
      const input = block.input !== '' ? block.input : JSON.stringify(block.initialInput ?? {});
      response.toolCalls.push({ id: block.id, name: block.name, input });
    }
  }
  response.finishReason = finishReasonOf(stopReason, response.toolCalls.length > 0);
  return response;
}
