/**
 * Shared pieces of the incremental request-body encoders (anthropic-body.ts, openai-body.ts): what
 * an encoding of a history part was built from, flattened, so an encoder can tell with `===` whether a part
 * it encoded before is unchanged; tool lists compared the same way; JSON items joined as bytes.
 */
import type { MessagePart } from '../message.js';
import type { ToolSchema } from './types.js';

/**
 * For each part type, the fields a conversion reads. A field read and missed here would let a changed
 * part be sent stale: each encoder's test changes every field of every part type in place and compares
 * with the request built afresh.
 */
export type PartReads = { readonly [T in MessagePart['type']]: readonly (keyof Extract<MessagePart, { type: T }>)[] };

/**
 * Appends `part`'s type and the values of the fields `reads` names; an array (`images`) as its length and
 * each entry's `mimeType` and `data`. Values are compared later with `===` (strings by content when not
 * the same string object), so a field changed in place, even to a text of the same length, is seen.
 */
export function pushPartInputs(out: unknown[], part: MessagePart, reads: PartReads): void {
  out.push(part.type);
  const fields = part as unknown as Record<string, unknown>;
  for (const key of reads[part.type]) {
    const value = fields[key];
    if (!Array.isArray(value)) {
      out.push(value);
      continue;
    }
    out.push(value.length);
    for (const entry of value as { mimeType?: unknown; data?: unknown }[]) out.push(entry.mimeType, entry.data);
  }
}

/**
 * Whether {@link pushPartInputs} would append what `inputs` holds from index `at` now (compared as it
 * goes, no array built): the index after it, or -1 when anything differs.
 */
export function matchPartInputs(inputs: readonly unknown[], at: number, part: MessagePart, reads: PartReads): number {
  let i = at;
  if (inputs[i++] !== part.type) return -1;
  const fields = part as unknown as Record<string, unknown>;
  for (const key of reads[part.type]) {
    const value = fields[key];
    if (!Array.isArray(value)) {
      if (inputs[i++] !== value) return -1;
      continue;
    }
    if (inputs[i++] !== value.length) return -1;
    for (const entry of value as { mimeType?: unknown; data?: unknown }[]) {
      if (inputs[i++] !== entry.mimeType || inputs[i++] !== entry.data) return -1;
    }
  }
  return i;
}

/** Bytes of `pieces` joined by commas (JSON array items). */
export function joinedBytes(pieces: readonly Buffer[]): Buffer {
  const out: Buffer[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) out.push(COMMA);
    out.push(piece);
  });
  return Buffer.concat(out);
}

/** `,` */
export const COMMA = Buffer.from(',');

/** `,"messages":[`: after the request's leading members, before the history */
export const MESSAGES_OPEN = Buffer.from(',"messages":[');

/** `}`: the end of the request body */
export const CLOSE_BODY = Buffer.from('}');

/**
 * The system prompt's bytes as an API sends them, kept while the prompt's text is the same: `encode` builds
 * them from that text (one encoder per provider, so per model: nothing else they depend on changes).
 */
export class PromptBytes {
  private kept?: { text: string; bytes: Buffer };

  of(text: string, encode: () => string): Buffer {
    if (this.kept?.text !== text) this.kept = { text, bytes: Buffer.from(encode()) };
    return this.kept.bytes;
  }
}

/** An object's JSON members to follow others: `,"a":1,"b":2` for `{a: 1, b: 2}`; empty for `{}`. */
export function jsonMembers(object: object): string {
  const json = JSON.stringify(object);
  return json === '{}' ? '' : `,${json.slice(1, -1)}`;
}

/**
 * Whether two tool lists hold the same names, descriptions and schema objects, in order. A schema object is
 * taken as unchanging, which every source of tools ensures by building its own: built-in tools from zod at
 * definition, MCP tools (cleanInputSchema) when registered, declarative tools from each parse of their
 * file, plugin and program tools by a JSON copy of their `args` (plugin/tool.ts: a plugin may edit its own
 * object later). A schema edited in place would be sent stale (test/agent/agent-encoder-break.test.ts).
 */
function sameTools(a: readonly ToolSchema[], b: readonly ToolSchema[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.description !== y.description || x.inputSchema !== y.inputSchema) return false;
  }
  return true;
}

/**
 * `,"tools":[…]` as bytes, kept while the tool list holds the same names, descriptions and schema objects
 * ({@link sameTools}); `toApi` turns our schemas into the API's tools.
 */
export class ToolListBytes {
  private kept?: { tools: ToolSchema[]; bytes: Buffer };

  constructor(private readonly toApi: (tools: readonly ToolSchema[]) => unknown) {}

  of(tools: readonly ToolSchema[]): Buffer {
    if (!this.kept || !sameTools(this.kept.tools, tools)) {
      this.kept = {
        tools: tools.map((t) => ({ ...t })),
        bytes: Buffer.from(`,"tools":${JSON.stringify(this.toApi(tools))}`),
      };
    }
    return this.kept.bytes;
  }
}
