/**
 * The Chat Completions request for a {@link ProviderRequest}: pure functions, no SDK at run time.
 * {@link toOpenAIParams} builds it as an object; openai-body.ts encodes the same request as bytes, reusing
 * each history message's encoding from call to call, from the pieces exported here
 * ({@link openAIRequestPieces}, {@link openAITools}, {@link openAIMessagesOf}). Wire format: Chat Completions streaming (https://platform.openai.com/docs/api-reference/chat-streaming).
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { Message } from '../message.js';
import { messageText } from '../message.js';
import { pairToolResults, toolInputJson, toolParameters } from './history.js';
import type { ModelInfo, ProviderRequest, ToolSchema } from './types.js';
import type { ReasoningField } from './openai-reasoning.js';

/** Text of the user message that carries images returned by tools (tool messages can hold only text). */
export const TOOL_IMAGES_NOTE = 'Images returned by the tool calls above:';

/** The parts of a request besides its history and tools, in the order {@link toOpenAIParams} puts them. */
export interface OpenAIRequestPieces {
  model: string;
  /** the system message, when the prompt is not blank */
  system: ChatCompletionMessageParam | undefined;
  /** after `messages`, before `tools` */
  streaming: Pick<ChatCompletionCreateParamsStreaming, 'stream' | 'stream_options'>;
  /** after `tools`: the token limit and the reasoning effort */
  limits: Pick<ChatCompletionCreateParamsStreaming, 'max_tokens' | 'max_completion_tokens' | 'reasoning_effort'>;
}

/**
 * Everything of the request but its history and tools. Reasoning models (`canReason`) get
 * `max_completion_tokens` and `reasoning_effort` (default `medium`, as the original); the others
 * `max_tokens`. Usage is asked for with `stream_options.include_usage`.
 */
export function openAIRequestPieces(model: ModelInfo, request: ProviderRequest): OpenAIRequestPieces {
  const maxTokens = request.maxTokens > 0 ? request.maxTokens : model.defaultMaxTokens;
  return {
    model: model.apiModel,
    system: request.systemPrompt.trim() ? { role: 'system', content: request.systemPrompt } : undefined,
    streaming: { stream: true, stream_options: { include_usage: true } },
    limits: model.canReason
      ? { max_completion_tokens: maxTokens, reasoning_effort: request.reasoningEffort ?? 'medium' }
      : { max_tokens: maxTokens },
  };
}

/** Our tool schemas as API tools (schemas with `required`). */
export function openAITools(tools: readonly ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: toolParameters(tool.inputSchema) },
  }));
}

/** The streaming request (see {@link openAIRequestPieces}, {@link toOpenAIMessages}); tool schemas carry `required`. */
export function toOpenAIParams(
  model: ModelInfo,
  request: ProviderRequest,
  reasoningField?: ReasoningField,
): ChatCompletionCreateParamsStreaming {
  const { model: apiModel, system, streaming, limits } = openAIRequestPieces(model, request);
  const tools = openAITools(request.tools);
  return {
    model: apiModel,
    messages: [
      ...(system ? [system] : []),
      ...toOpenAIMessages(request.messages, model.supportsImages, reasoningField),
    ],
    ...streaming,
    ...(tools.length > 0 ? { tools } : {}),
    ...limits,
  };
}

/**
 * Our history as Chat Completions messages: user text and images (as `data:` URLs), assistant text and
 * `tool_calls`, one `tool` message per result. Images a tool returned follow the tool messages in a user
 * message (tool messages hold text only). Empty messages are dropped. Reasoning goes back only in
 * `reasoningField` (openai-reasoning.ts: the APIs that require it), on the assistant messages with tool calls.
 */
export function toOpenAIMessages(
  messages: readonly Message[],
  supportsImages: boolean,
  reasoningField?: ReasoningField,
): ChatCompletionMessageParam[] {
  return pairToolResults(messages).flatMap((message) => openAIMessagesOf(message, supportsImages, reasoningField));
}

/**
 * The API messages of one history message, after `pairToolResults` (see {@link toOpenAIMessages}): none,
 * one, or for a tool message one per result and then the images they returned. Reads only the message's
 * role and its parts' fields (openai-body.ts reuses a message's encoding while those are unchanged).
 */
export function openAIMessagesOf(
  message: Message,
  supportsImages: boolean,
  reasoningField?: ReasoningField,
): ChatCompletionMessageParam[] {
  const imageUrl = (mimeType: string, data: string): ChatCompletionContentPart => ({
    type: 'image_url',
    image_url: { url: `data:${mimeType};base64,${data}` },
  });
  if (message.role === 'user') {
    const parts: ChatCompletionContentPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'text' && part.text.trim()) parts.push({ type: 'text', text: part.text });
      if (part.type === 'image' && supportsImages) parts.push(imageUrl(part.mimeType, part.data));
    }
    if (parts.length === 0) return [];
    const textOnly = parts.every((p) => p.type === 'text');
    return [{ role: 'user', content: textOnly ? parts.map((p) => (p as { text: string }).text).join('\n') : parts }];
  }
  if (message.role === 'assistant') {
    const text = messageText(message);
    const calls = message.parts.flatMap((p) =>
      p.type === 'tool_call'
        ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: toolInputJson(p.input) } }]
        : [],
    );
    if (!text.trim() && calls.length === 0) return [];
    // only on a turn with tool calls, where DeepSeek requires it (even empty: its check asks for the field);
    // on other turns its docs have the field ignored, and its older reasoner model rejected it there
    const reasoning =
      reasoningField && calls.length > 0
        ? message.parts.map((p) => (p.type === 'reasoning' ? p.thinking : '')).join('')
        : undefined;
    return [
      {
        role: 'assistant',
        content: text.trim() ? text : null,
        ...(reasoningField && reasoning !== undefined ? { [reasoningField]: reasoning } : {}),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  if (message.role === 'tool') {
    const out: ChatCompletionMessageParam[] = [];
    const images: ChatCompletionContentPart[] = [];
    for (const part of message.parts) {
      if (part.type !== 'tool_result') continue;
      out.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.content });
      if (supportsImages) for (const img of part.images ?? []) images.push(imageUrl(img.mimeType, img.data));
    }
    if (images.length > 0) out.push({ role: 'user', content: [{ type: 'text', text: TOOL_IMAGES_NOTE }, ...images] });
    return out;
  }
  return [];
}
