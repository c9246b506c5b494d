/**
 * The Anthropic Messages request body as UTF-8 bytes, encoded incrementally.
 *
 * Each call of an agent loop sends the whole history again, so `JSON.stringify` of the request and the
 * UTF-8 encoding of that text grow with the session: ~0.5–0.8 ms of main-thread CPU a call at 34 KB in
 * `bench/provider-call.ts` (more once one non-Latin-1 character makes V8 build the text two bytes a
 * character). An encoder keeps, for every history part it has encoded, the part's block as bytes, and for
 * the system prompt and the tools theirs; a call encodes only what is new or changed and concatenates.
 *
 * The bytes are exactly `Buffer.from(JSON.stringify(toAnthropicParams(model, request)))`
 * (test/provider/anthropic-body.test.ts checks this on random histories and after changing parts in place).
 * A part's encoding is reused only while every value it was built from is the same (`===`): the part's
 * fields that {@link anthropicBlock} reads (and its images' type and data), the message role, whether its
 * thinking may be sent back, and whether the model takes images. The two turns that carry
 * cache breakpoints get their marked block encoded afresh.
 */
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message, MessagePart } from '../message.js';
import {
  anthropicBlock,
  anthropicRequestPieces,
  anthropicTools,
  anthropicTurns,
  CACHE,
  markCacheBreakpoints,
} from './anthropic-request.js';
import {
  CLOSE_BODY,
  COMMA,
  jsonMembers,
  matchPartInputs,
  MESSAGES_OPEN,
  PromptBytes,
  pushPartInputs,
  ToolListBytes,
  type PartReads,
} from './body-encoding.js';
import type { ModelInfo, ProviderRequest } from './types.js';

/** What an encoder keeps of a part: the values its block was built from, and the block as bytes. */
interface Encoded {
  part: MessagePart;
  /** role, ownThinking, supportsImages and the part's type and fields read, flattened (see {@link inputsOf}) */
  inputs: unknown[];
  /** undefined for a part that sends nothing */
  block?: {
    /** the API block's `type` (to find the cache breakpoint) */
    type: ContentBlockParam['type'];
    bytes: Buffer;
  };
}

/** An encoded part that sends a block. */
type Sent = Encoded & { block: NonNullable<Encoded['block']> };

const CLOSE_TURN = Buffer.from(']}');
const TURN_OPEN = {
  user: Buffer.from('{"role":"user","content":['),
  assistant: Buffer.from('{"role":"assistant","content":['),
};
const MESSAGES_CLOSE = Buffer.from(']');

/**
 * Encodes Anthropic request bodies, reusing what it encoded for earlier calls. One per provider; it holds
 * part encodings weakly (a part no longer referenced drops its bytes) and the last system prompt and
 * tool list strongly.
 */
export class AnthropicBodyEncoder {
  private readonly parts = new WeakMap<MessagePart, Encoded>();
  private readonly system = new PromptBytes();
  private readonly tools = new ToolListBytes(anthropicTools);

  /**
   * The request body for `request` on `model`: the bytes of `JSON.stringify(toAnthropicParams(model, request))`.
   * `pieces`: {@link anthropicRequestPieces} of the same request, when the caller has them already.
   */
  encode(model: ModelInfo, request: ProviderRequest, pieces = anthropicRequestPieces(model, request)): Buffer {
    const supportsImages = model.supportsImages;
    const turns = anthropicTurns(request.messages, model, (part, message, ownThinking) =>
      this.block(part, message.role, ownThinking, supportsImages),
    );
    const out: Buffer[] = [];
    const head = JSON.stringify(pieces.head);
    out.push(Buffer.from(head.slice(0, -1)), MESSAGES_OPEN);
    turns.forEach((turn, t) => {
      if (t > 0) out.push(COMMA);
      out.push(TURN_OPEN[turn.role]);
      const marked = t >= turns.length - 2 ? markCacheBreakpoints(turn.blocks, (b) => b.block.type) : -1;
      turn.blocks.forEach((block, b) => {
        if (b > 0) out.push(COMMA);
        out.push(b === marked ? markedBytes(block) : block.block.bytes);
      });
      out.push(CLOSE_TURN);
    });
    out.push(MESSAGES_CLOSE);
    const { system } = pieces;
    if (system) out.push(this.system.of(request.systemPrompt, () => `,"system":${JSON.stringify(system)}`));
    if (request.tools.length > 0) out.push(this.tools.of(request.tools));
    const thinking = jsonMembers(pieces.thinking);
    if (thinking) out.push(Buffer.from(thinking));
    out.push(CLOSE_BODY);
    return Buffer.concat(out);
  }

  /** A part's encoding (reused while its inputs are unchanged), or undefined when it sends nothing (that too is kept). */
  private block(
    part: MessagePart,
    role: Message['role'],
    ownThinking: boolean,
    supportsImages: boolean,
  ): Sent | undefined {
    let encoded = this.parts.get(part);
    if (!encoded || !sameInputs(encoded.inputs, part, role, ownThinking, supportsImages)) {
      const block = anthropicBlock(part, role, ownThinking, supportsImages);
      encoded = {
        part,
        inputs: inputsOf(part, role, ownThinking, supportsImages),
        ...(block ? { block: { type: block.type, bytes: Buffer.from(JSON.stringify(block)) } } : {}),
      };
      this.parts.set(part, encoded);
    }
    return encoded.block ? (encoded as Sent) : undefined;
  }
}

/** A block that carries a turn's cache breakpoint: built from the same inputs and encoded afresh with `cache_control`. */
function markedBytes(sent: Sent): Buffer {
  const [role, ownThinking, supportsImages] = sent.inputs as [Message['role'], boolean, boolean];
  const object = anthropicBlock(sent.part, role, ownThinking, supportsImages)!;
  return Buffer.from(JSON.stringify({ ...object, cache_control: CACHE }));
}

/** The fields of each part type that {@link anthropicBlock} reads. */
const READS: PartReads = {
  text: ['text'],
  image: ['mimeType', 'data'],
  reasoning: ['thinking', 'signature', 'redactedData'],
  server_tool: ['block'],
  tool_call: ['id', 'name', 'input'],
  tool_result: ['toolCallId', 'content', 'isError', 'images'],
  finish: [],
};

/** What a part's block is built from: role, ownThinking, supportsImages, then the part ({@link pushPartInputs}). */
function inputsOf(part: MessagePart, role: Message['role'], ownThinking: boolean, supportsImages: boolean): unknown[] {
  const out: unknown[] = [role, ownThinking, supportsImages];
  pushPartInputs(out, part, READS);
  return out;
}

/** Whether {@link inputsOf} would give `inputs` now. */
function sameInputs(
  inputs: readonly unknown[],
  part: MessagePart,
  role: Message['role'],
  ownThinking: boolean,
  supportsImages: boolean,
): boolean {
  if (inputs[0] !== role || inputs[1] !== ownThinking || inputs[2] !== supportsImages) return false;
  return matchPartInputs(inputs, 3, part, READS) === inputs.length;
}
