/**
 * The rows of `message_chunks` (migration 0002): what a streaming write of a long message stores instead
 * of rewriting it whole. Text that grew by an append is stored as the appended text; any other change to
 * a part, as the whole part. Readers apply the rows in order to the message's stored parts.
 */
import type { MessagePart } from '../message.js';

/** The field of each part type that grows while streaming; other fields are compared as JSON. */
const GROWING_FIELD: Partial<Record<MessagePart['type'], string>> = {
  text: 'text', // "Hello" → "Hello, world"
  reasoning: 'thinking', // thinking deltas
  tool_call: 'input', // partial JSON of the call's input
  tool_result: 'content', // not streamed today; listed so a growing result is appended too
};

/** What was last written of one part: its type, its growing field's value, the JSON of the rest. */
export interface PartSnapshot {
  type: MessagePart['type'];
  value: string;
  rest: string;
}

/** A row of `message_chunks`, as written and read. */
export interface ChunkRow {
  message_id: string;
  part_index: number;
  kind: 'append' | 'part';
  body: string;
}

/** What is written of `part`: its growing field's value apart from the JSON of the rest. */
export function snapshotOf(part: MessagePart): PartSnapshot {
  const field = GROWING_FIELD[part.type];
  if (!field) return { type: part.type, value: '', rest: JSON.stringify(part) };
  const { [field]: value, ...rest } = part as unknown as Record<string, unknown>;
  return { type: part.type, value: typeof value === 'string' ? value : '', rest: JSON.stringify(rest) };
}

/** Characters the snapshots hold: text plus the JSON of the other fields. */
export const sizeOf = (snapshots: readonly PartSnapshot[]): number =>
  snapshots.reduce((sum, s) => sum + s.value.length + s.rest.length, 0);

/**
 * The rows that turn the parts last written (`before`) into `after`, or `undefined` when only a whole
 * rewrite can (a part removed or changed type). Text that grew by an append becomes an `append` row of
 * the new text; any other change to a part (a new part, a flag set, text replaced) a `part` row.
 */
export function chunksBetween(
  before: readonly PartSnapshot[],
  after: readonly PartSnapshot[],
  parts: readonly MessagePart[],
): { partIndex: number; kind: 'append' | 'part'; body: string }[] | undefined {
  if (after.length < before.length) return undefined;
  const rows: { partIndex: number; kind: 'append' | 'part'; body: string }[] = [];
  for (let i = 0; i < after.length; i++) {
    const old = before[i];
    const now = after[i]!;
    if (!old) {
      rows.push({ partIndex: i, kind: 'part', body: JSON.stringify(parts[i]) });
      continue;
    }
    if (old.type !== now.type) return undefined;
    if (old.rest === now.rest && old.value === now.value) continue;
    if (old.rest === now.rest && now.value.length > old.value.length && now.value.startsWith(old.value)) {
      rows.push({ partIndex: i, kind: 'append', body: now.value.slice(old.value.length) });
    } else {
      rows.push({ partIndex: i, kind: 'part', body: JSON.stringify(parts[i]) });
    }
  }
  return rows;
}

/** `parts` with the chunk rows of their message applied in order (see migration 0002). */
export function applyChunks(parts: MessagePart[], chunks: readonly ChunkRow[]): MessagePart[] {
  for (const chunk of chunks) {
    if (chunk.kind === 'part') {
      if (chunk.part_index <= parts.length) parts[chunk.part_index] = JSON.parse(chunk.body) as MessagePart;
      continue;
    }
    const part = parts[chunk.part_index] as unknown as Record<string, unknown> | undefined;
    const field = part && GROWING_FIELD[part.type as MessagePart['type']];
    if (part && field) part[field] = String(part[field] ?? '') + chunk.body;
  }
  return parts;
}
