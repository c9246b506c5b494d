/**
 * The Anthropic Messages request for a {@link ProviderRequest}: pure functions, no SDK at run time.
 * {@link toAnthropicParams} builds it as an object; anthropic-body.ts encodes the same request as bytes,
 * reusing each history part's encoding from call to call, from the pieces exported here
 * ({@link anthropicRequestPieces}, {@link anthropicTurns}, {@link anthropicBlock}, {@link markCacheBreakpoints}).
 * Wire format: the Messages API's streaming (https://docs.anthropic.com/en/api/messages-streaming).
 */
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message, MessagePart } from '../message.js';
import { pairToolResults, toolInputObject, toolParameters } from './history.js';
import type { ModelInfo, ProviderRequest, ToolSchema } from './types.js';

/** Smallest thinking budget the API accepts (`budget_tokens` ≥ 1024, Anthropic "extended thinking" docs). */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

/** The prompt-cache breakpoint marker (`cache_control`). */
export const CACHE = { type: 'ephemeral' } as const;
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

/** The parts of a request besides its messages and tools ({@link anthropicTools}), in the order {@link toAnthropicParams} puts them. */
export interface AnthropicRequestPieces {
  head: Pick<MessageCreateParamsStreaming, 'model' | 'max_tokens' | 'stream'>;
  system: TextBlockParam[] | undefined;
  thinking: Pick<MessageCreateParamsStreaming, 'thinking' | 'output_config'>;
}

/**
 * Everything of the request but its messages and tools. Prompt caching (as the original): `cache_control` on
 * the system block. Thinking: see {@link toAnthropicParams}.
 */
export function anthropicRequestPieces(model: ModelInfo, request: ProviderRequest): AnthropicRequestPieces {
  const maxTokens = request.maxTokens > 0 ? request.maxTokens : model.defaultMaxTokens;
  const budget = Math.floor(0.8 * maxTokens);
  const form = thinkingForm(model.apiModel);
  const wantsThinking = Boolean(request.thinking && model.canReason);
  const system: TextBlockParam[] | undefined = request.systemPrompt.trim()
    ? [{ type: 'text', text: request.systemPrompt, cache_control: CACHE }]
    : undefined;
  const thinking: AnthropicRequestPieces['thinking'] = !wantsThinking
    ? {}
    : form === 'adaptive'
      ? {
          thinking: { type: 'adaptive' },
          ...(request.reasoningEffort ? { output_config: { effort: request.reasoningEffort } } : {}),
        }
      : budget >= MIN_THINKING_BUDGET_TOKENS
        ? { thinking: { type: 'enabled', budget_tokens: budget } }
        : {};
  return {
    head: { model: model.apiModel, max_tokens: maxTokens, stream: true },
    system,
    thinking,
  };
}

/** Our tool schemas as API tools, the last one a cache breakpoint. */
export function anthropicTools(tools: readonly ToolSchema[]): Tool[] {
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toolParameters(tool.inputSchema) as Tool.InputSchema,
    ...(i === tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
}

/**
 * The streaming request for `request` on `model`. Prompt caching (as the original): `cache_control` on the
 * system block, the last tool, and the last block of each of the last 2 messages (4 breakpoints, the
 * API's maximum). Thinking, when `request.thinking` and `model.canReason` ({@link thinkingForm}):
 * budget form with `budget_tokens = floor(0.8 × maxTokens)` (skipped if under
 * {@link MIN_THINKING_BUDGET_TOKENS}), or adaptive form with `output_config.effort` from
 * `request.reasoningEffort`. No temperature is sent: the original sent 0 without thinking, but thinking
 * needs 1 and the Claude 5 family rejects any non-default sampling parameter with HTTP 400.
 */
export function toAnthropicParams(model: ModelInfo, request: ProviderRequest): MessageCreateParamsStreaming {
  const { head, system, thinking } = anthropicRequestPieces(model, request);
  const tools = request.tools.length > 0 ? anthropicTools(request.tools) : undefined;
  return {
    ...head,
    messages: toAnthropicMessages(request.messages, model),
    ...(system ? { system } : {}),
    ...(tools ? { tools } : {}),
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
  const turns = anthropicTurns(messages, model, (part, message, ownThinking) =>
    anthropicBlock(part, message.role, ownThinking, model.supportsImages),
  );
  for (const turn of turns.slice(-2)) {
    const at = markCacheBreakpoints(turn.blocks, (b) => b.type);
    if (at >= 0) (turn.blocks[at] as { cache_control?: typeof CACHE }).cache_control = CACHE;
  }
  return turns.map((turn) => ({ role: turn.role, content: turn.blocks }));
}

/** One API turn being built: its role and its blocks in any form (objects, or their encodings). */
export interface Turn<B> {
  role: 'user' | 'assistant';
  blocks: B[];
}

/**
 * The history as API turns (see {@link toAnthropicMessages}): tool results re-paired
 * (`pairToolResults`), each part turned into a block by `convert` (undefined: the part sends nothing),
 * messages without blocks dropped, consecutive turns of one role merged. `ownThinking`: whether the
 * message was written by `model` (or by no recorded model), so its thinking blocks may be sent back.
 */
export function anthropicTurns<B>(
  messages: readonly Message[],
  model: Pick<ModelInfo, 'id'>,
  convert: (part: MessagePart, message: Message, ownThinking: boolean) => B | undefined,
): Turn<B>[] {
  const out: Turn<B>[] = [];
  for (const message of pairToolResults(messages)) {
    const ownThinking = message.model === undefined || message.model === model.id;
    const blocks: B[] = [];
    for (const part of message.parts) {
      const block = convert(part, message, ownThinking);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length === 0) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = out.at(-1);
    if (last && last.role === role) last.blocks.push(...blocks);
    else out.push({ role, blocks });
  }
  return out;
}

/**
 * Which block of a turn carries its cache breakpoint: the last one that is not a thinking block (the API
 * takes no `cache_control` on those) nor a server tool's block (sent back exactly as received), or -1 for none. `typeOf` gives a block's API `type`.
 */
export function markCacheBreakpoints<B>(blocks: readonly B[], typeOf: (block: B) => string): number {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const type = typeOf(blocks[i]!);
    if (
      type !== 'thinking' &&
      type !== 'redacted_thinking' &&
      type !== 'server_tool_use' &&
      !type.endsWith('_tool_result')
    )
      return i;
  }
  return -1;
}

/**
 * The API block for one part of a message with role `role`, or undefined for a part that sends nothing
 * (blank text, a finish marker, an image the model cannot take, reasoning without a signature or of
 * another model). Reads only the part's own fields (and its `images` entries'), `role`, `ownThinking`
 * and `supportsImages`: anthropic-body.ts reuses a part's encoding while those are unchanged.
 */
export function anthropicBlock(
  part: MessagePart,
  role: Message['role'],
  ownThinking: boolean,
  supportsImages: boolean,
): ContentBlockParam | undefined {
  switch (part.type) {
    case 'text':
      return part.text.trim() ? { type: 'text', text: part.text } : undefined;
    case 'image':
      return supportsImages && IMAGE_TYPES.has(part.mimeType)
        ? { type: 'image', source: { type: 'base64', media_type: part.mimeType as 'image/png', data: part.data } }
        : undefined;
    case 'reasoning':
      if (role !== 'assistant' || !ownThinking) return undefined;
      if (part.redactedData) return { type: 'redacted_thinking', data: part.redactedData };
      return part.signature ? { type: 'thinking', thinking: part.thinking, signature: part.signature } : undefined;
    case 'tool_call':
      return role === 'assistant'
        ? { type: 'tool_use', id: part.id, name: part.name, input: toolInputObject(part.input) }
        : undefined;
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
      return {
        type: 'tool_result',
        tool_use_id: part.toolCallId,
        ...(content !== undefined ? { content } : {}),
        ...(part.isError ? { is_error: true } : {}),
      };
    }
    case 'server_tool':
      // the API's own block, sent back unchanged (a paused turn continues from it)
      return role === 'assistant' ? (part.block as unknown as ContentBlockParam) : undefined;
    case 'finish':
      return undefined;
  }
}
