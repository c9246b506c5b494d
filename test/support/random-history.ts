/**
 * For the request-encoder tests (test/provider/anthropic-body, openai-body): random histories — every part
 * type, text of every kind the JSON and UTF-8 encodings treat apart, tool calls with and without results,
 * orphan results, system and blank messages, messages of other models; deterministic per seed — and
 * edits of every part field in place ({@link editEveryPartField}).
 */
import type { Message, MessagePart } from '../../src/message.js';
import type { ToolSchema } from '../../src/provider/types.js';

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
export function rng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

// text of every kind the JSON and UTF-8 encodings treat apart: ASCII, Latin-1, two-byte, astral, lone
// surrogates, control characters, quotes and backslashes, blank
const TEXTS = [
  'hello',
  'café',
  'a → b … c — d',
  '😀 emoji',
  '\ud800 lone',
  'tab\tnew\nline "q" \\ ',
  '   ',
  '',
  '\u0000\u001f',
  'x'.repeat(300),
];

function randomText(r: ReturnType<typeof rng>): string {
  return Array.from({ length: 1 + r.int(3) }, () => r.pick(TEXTS)).join(r.pick(['', ' ', '\n']));
}

export function randomHistory(
  r: ReturnType<typeof rng>,
  length: number,
  assistantModels: readonly (string | undefined)[] = [undefined],
): Message[] {
  const messages: Message[] = [];
  let seq = 0;
  const message = (role: Message['role'], parts: MessagePart[], model?: string): Message => ({
    id: `m${seq}`,
    sessionId: 's',
    seq: seq++,
    role,
    parts,
    createdAt: 0,
    updatedAt: 0,
    ...(model ? { model } : {}),
  });
  for (let i = 0; i < length; i++) {
    const kind = r.int(10);
    if (kind < 3) {
      const parts: MessagePart[] = [{ type: 'text', text: randomText(r) }];
      if (r.int(4) === 0)
        parts.push({
          type: 'image',
          mimeType: r.pick(['image/png', 'image/bmp']),
          data: 'iVBORw0KGgo=',
          name: 'a.png',
        });
      messages.push(message('user', parts));
    } else if (kind < 7) {
      const parts: MessagePart[] = [];
      if (r.int(3) === 0) {
        parts.push(
          r.pick<MessagePart>([
            { type: 'reasoning', thinking: randomText(r), signature: 'sig==' },
            { type: 'reasoning', thinking: randomText(r) },
            { type: 'reasoning', thinking: '', redactedData: 'opaque' },
          ]),
        );
      }
      if (r.int(2) === 0) parts.push({ type: 'text', text: randomText(r) });
      const calls = r.int(3);
      for (let c = 0; c < calls; c++) {
        const input = r.pick([
          '{"file_path":"/a/b.ts"}',
          '',
          '{"command": "ls',
          '[1,2]',
          `{"text":${JSON.stringify(randomText(r))}}`,
        ]);
        parts.push({
          type: 'tool_call',
          id: `call_${seq}_${c}`,
          name: r.pick(['view', 'bash']),
          input,
          finished: true,
        });
      }
      parts.push({ type: 'finish', reason: calls > 0 ? 'tool_use' : 'end_turn', time: 1 });
      messages.push(message('assistant', parts, r.pick(assistantModels)));
      if (calls > 0 && r.int(5) > 0) {
        const results: MessagePart[] = [];
        for (let c = 0; c < calls; c++) {
          if (r.int(6) === 0) continue; // a missing result: the repair sends a placeholder
          results.push({
            type: 'tool_result',
            toolCallId: `call_${seq - 1}_${c}`,
            name: 'view',
            content: r.pick(['', randomText(r)]),
            isError: r.int(4) === 0,
            ...(r.int(4) === 0 ? { images: [{ mimeType: r.pick(['image/png', 'image/tiff']), data: 'AAAA' }] } : {}),
            ...(r.int(3) === 0 ? { metadata: { lines: r.int(100) } } : {}),
          });
        }
        messages.push(message('tool', results));
      }
    } else if (kind < 8) {
      messages.push(
        message('tool', [{ type: 'tool_result', toolCallId: 'orphan', name: 'bash', content: 'x', isError: false }]),
      );
    } else if (kind < 9) {
      messages.push(message('system', [{ type: 'text', text: 'summary' }]));
    } else {
      messages.push(message('user', [{ type: 'text', text: '  ' }]));
    }
  }
  return messages;
}

export const TOOLS: ToolSchema[] = [
  {
    name: 'view',
    description: 'Reads a file … with line numbers',
    inputSchema: {
      $schema: 'x',
      type: 'object',
      properties: { file_path: { type: 'string' } },
      required: ['file_path'],
    },
  },
  {
    name: 'bash',
    description: 'Runs a command — carefully',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
  },
];

/**
 * `value` changed but of the same kind: a string to another of the same length (or `x` for empty), a flag
 * flipped, a number + 1, an array with one more image entry, an object with one more key.
 */
export function changedValue(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? 'x' : value.slice(0, -1) + (value.endsWith('x') ? 'y' : 'x');
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (Array.isArray(value)) return [...value, { mimeType: 'image/gif', data: 'CCCC' }];
  return { ...(value as object), changed: true };
}

/**
 * For every field but `type` of every part of `base()`'s messages: a fresh history and `start(history)`
 * (an encoder that has seen it), then the field changed in place ({@link changedValue}) and `check`; an
 * `images` array also gets its first entry's `data`, then its `mimeType`, changed, each checked. Returns
 * how many fields were changed.
 */
export function editEveryPartField<S>(
  base: () => Message[],
  start: (history: Message[]) => S,
  check: (history: Message[], state: S) => void,
): number {
  let edits = 0;
  const shape = base();
  for (let m = 0; m < shape.length; m++) {
    for (let p = 0; p < shape[m]!.parts.length; p++) {
      for (const key of Object.keys(shape[m]!.parts[p]!)) {
        if (key === 'type') continue;
        const history = base();
        const state = start(history);
        const part = history[m]!.parts[p] as unknown as Record<string, unknown>;
        part[key] = changedValue(part[key]);
        check(history, state);
        if (key === 'images') {
          (part.images as { data: string }[])[0]!.data = 'DDDD';
          check(history, state);
          (part.images as { mimeType: string }[])[0]!.mimeType = 'image/jpeg';
          check(history, state);
        }
        edits++;
      }
    }
  }
  return edits;
}
