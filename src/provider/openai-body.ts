/**
 * The Chat Completions request body as UTF-8 bytes, encoded incrementally: the counterpart of
 * anthropic-body.ts for the OpenAI provider (and every OpenAI-compatible server). Each history message's
 * API messages are kept as bytes while the values they were built from are unchanged (`===`): the
 * message's role, whether the model takes images, and each part's type and the fields
 * {@link openAIMessagesOf} reads; the system prompt and the tools are kept too.
 *
 * The bytes are exactly `Buffer.from(JSON.stringify(toOpenAIParams(model, request)))`
 * (test/provider/openai-body.test.ts).
 */
import type { Message, MessagePart } from '../message.js';
import { pairToolResults } from './history.js';
import { openAIMessagesOf, openAIRequestPieces, openAITools } from './openai-request.js';
import {
  CLOSE_BODY,
  joinedBytes,
  jsonMembers,
  matchPartInputs,
  MESSAGES_OPEN,
  PromptBytes,
  pushPartInputs,
  ToolListBytes,
  type PartReads,
} from './body-encoding.js';
import type { ModelInfo, ProviderRequest } from './types.js';
import type { ReasoningField } from './openai-reasoning.js';

/** The fields of each part type that {@link openAIMessagesOf} reads (reasoning only for the APIs that take it back). */
const READS: PartReads = {
  text: ['text'],
  image: ['mimeType', 'data'],
  reasoning: ['thinking'],
  server_tool: ['block'],
  tool_call: ['id', 'name', 'input'],
  tool_result: ['toolCallId', 'content', 'images'],
  finish: [],
};

/** What an encoder keeps of a history message: the values its API messages were built from, and their bytes. */
interface Encoded {
  /** role, supportsImages, the number of parts, then each part ({@link pushPartInputs}) */
  inputs: unknown[];
  /** the API messages joined by commas; undefined when the message sends none */
  bytes: Buffer | undefined;
}

/**
 * Encodes Chat Completions request bodies, reusing what it encoded for earlier calls. One per provider; it
 * holds message encodings weakly, keyed by the message's first part (a tool message is rebuilt by the
 * history repair at each call, its parts are not), and the last system prompt and tool list strongly.
 */
export class OpenAIBodyEncoder {
  /** `reasoningField`: where reasoning goes back (openai-reasoning.ts), fixed for the encoder's provider */
  constructor(private readonly reasoningField?: ReasoningField) {}

  private readonly messages = new WeakMap<object, Encoded>();
  private readonly system = new PromptBytes();
  private readonly tools = new ToolListBytes(openAITools);

  /** The request body for `request` on `model`: the bytes of `JSON.stringify(toOpenAIParams(model, request, reasoningField))`. */
  encode(model: ModelInfo, request: ProviderRequest): Buffer {
    const pieces = openAIRequestPieces(model, request);
    const items: Buffer[] = [];
    const { system } = pieces;
    if (system) items.push(this.system.of(request.systemPrompt, () => JSON.stringify(system)));
    for (const message of pairToolResults(request.messages)) {
      const bytes = this.message(message, model.supportsImages);
      if (bytes) items.push(bytes);
    }
    const out = [
      Buffer.from(JSON.stringify({ model: pieces.model }).slice(0, -1)),
      MESSAGES_OPEN,
      joinedBytes(items),
      Buffer.from(`]${jsonMembers(pieces.streaming)}`),
    ];
    if (request.tools.length > 0) out.push(this.tools.of(request.tools));
    out.push(Buffer.from(jsonMembers(pieces.limits)), CLOSE_BODY);
    return Buffer.concat(out);
  }

  /** A message's API messages as bytes (reused while its inputs are unchanged), or undefined when it sends none. */
  private message(message: Message, supportsImages: boolean): Buffer | undefined {
    const key: object = message.parts[0] ?? message;
    const known = this.messages.get(key);
    if (known && sameInputs(known.inputs, message, supportsImages)) return known.bytes;
    const sent = openAIMessagesOf(message, supportsImages, this.reasoningField);
    const encoded: Encoded = {
      inputs: inputsOf(message, supportsImages),
      bytes: sent.length > 0 ? joinedBytes(sent.map((m) => Buffer.from(JSON.stringify(m)))) : undefined,
    };
    this.messages.set(key, encoded);
    return encoded.bytes;
  }
}

function inputsOf(message: Message, supportsImages: boolean): unknown[] {
  const out: unknown[] = [message.role, supportsImages, message.parts.length];
  for (const part of message.parts) pushPartInputs(out, part, READS);
  return out;
}

function sameInputs(inputs: readonly unknown[], message: Message, supportsImages: boolean): boolean {
  const parts: readonly MessagePart[] = message.parts;
  if (inputs[0] !== message.role || inputs[1] !== supportsImages || inputs[2] !== parts.length) return false;
  let i = 3;
  for (const part of parts) {
    i = matchPartInputs(inputs, i, part, READS);
    if (i < 0) return false;
  }
  return i === inputs.length;
}
