/**
 * The SSE events of one scripted turn, exactly as the real APIs send them (Anthropic's Messages streaming, OpenAI's Chat Completions streaming).
 */
import type { FakeTurn } from './fake-provider.js';

/** One SSE event: `event:` line (Anthropic only) and `data:` (JSON, or a raw string such as `[DONE]`). */
export interface Chunk {
  event?: string;
  data: unknown;
}

/** A text as the chunks it streams in: the given array, or word by word (spaces kept). */
export function textChunks(text: string | string[]): string[] {
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Tool input JSON in 3 partial pieces (the raw text, byte for byte, when concatenated). */
export function inputChunks(input: Record<string, unknown> | string): string[] {
  const raw = typeof input === 'string' ? input : JSON.stringify(input);
  if (raw.length < 3) return raw ? [raw] : [];
  const a = Math.floor(raw.length / 3);
  const b = Math.floor((2 * raw.length) / 3);
  return [raw.slice(0, a), raw.slice(a, b), raw.slice(b)];
}

function usageOf(turn: FakeTurn) {
  return {
    input: turn.usage?.input ?? 10,
    output: turn.usage?.output ?? 5,
    cacheWrite: turn.usage?.cacheWrite ?? 0,
    cacheRead: turn.usage?.cacheRead ?? 0,
  };
}

function stopReasonOf(turn: FakeTurn): string {
  return turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
}

/** Anthropic Messages stream events for `turn` (`n` numbers the ids). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function anthropicChunks(turn: FakeTurn, n: number, request: any): Chunk[] {
  const usage = usageOf(turn);
  const out: Chunk[] = [];
  const send = (type: string, data: Record<string, unknown>) => out.push({ event: type, data: { type, ...data } });
  send('message_start', {
    message: {
      id: `msg_fake_${n}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: 1,
      },
    },
  });
  send('ping', {});
  let index = 0;
  if (turn.thinking) {
    send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of textChunks(turn.thinking.text)) {
      send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
    }
    send('content_block_delta', { index, delta: { type: 'signature_delta', signature: turn.thinking.signature } });
    send('content_block_stop', { index });
    index++;
  }
  if (turn.redactedThinking !== undefined) {
    send('content_block_start', { index, content_block: { type: 'redacted_thinking', data: turn.redactedThinking } });
    send('content_block_stop', { index });
    index++;
  }
  // text and server tool blocks in order (Messages API, "Server tools": a `server_tool_use` block streams
  // its input as input_json_delta, its result block comes whole in content_block_start)
  const blocks = turn.blocks ?? (turn.text !== undefined ? [{ text: turn.text }] : []);
  for (const block of blocks) {
    if ('text' in block) {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of textChunks(block.text))
        send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else if (block.server.type === 'server_tool_use') {
      send('content_block_start', { index, content_block: { ...block.server, input: {} } });
      for (const piece of inputChunks(block.server.input as Record<string, unknown>)) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    } else send('content_block_start', { index, content_block: block.server });
    send('content_block_stop', { index });
    index++;
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_${n}_${i}`;
    send('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of inputChunks(call.input)) {
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    send('content_block_stop', { index });
    index++;
  }
  const stopDetails = turn.stopDetails ? { stop_details: turn.stopDetails } : {};
  send('message_delta', {
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null, ...stopDetails },
    usage: { output_tokens: usage.output },
  });
  send('message_stop', {});
  return out;
}

const OPENAI_FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

/** OpenAI Chat Completions stream chunks for `turn`; the usage chunk only when the request asked for it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openaiChunks(turn: FakeTurn, n: number, request: any): Chunk[] {
  const usage = usageOf(turn);
  const out: Chunk[] = [];
  const base = {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + n,
    model: request.model,
  };
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    out.push({ data: { ...base, choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }] } });
  delta({ role: 'assistant', content: '' });
  if (turn.thinking) for (const piece of textChunks(turn.thinking.text)) delta({ reasoning_content: piece });
  if (turn.text !== undefined) for (const piece of textChunks(turn.text)) delta({ content: piece });
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? `call_${n}_${i}`;
    const pieces = inputChunks(call.input);
    delta({ tool_calls: [{ index: i, id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of pieces) delta({ tool_calls: [{ index: i, function: { arguments: piece } }] });
  }
  delta({}, turn.finishReason ?? OPENAI_FINISH[stopReasonOf(turn)] ?? stopReasonOf(turn));
  const shape = turn.usageShape ?? 'usage';
  if (request.stream_options?.include_usage && shape !== 'none') {
    const reasoning = turn.usage?.reasoningOutside ?? 0;
    const counts = {
      prompt_tokens: usage.input + usage.cacheRead,
      completion_tokens: usage.output,
      // xAI: reasoning tokens reported apart from completion_tokens, counted in total_tokens
      total_tokens: usage.input + usage.cacheRead + usage.output + reasoning,
      prompt_tokens_details: { cached_tokens: usage.cacheRead },
      ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
    };
    // Groq: the counts in the last chunk's `x_groq` object instead of `usage`
    out.push({
      data: {
        ...base,
        choices: [],
        ...(shape === 'x_groq' ? { x_groq: { id: `req_fake_${n}`, usage: counts } } : { usage: counts }),
      },
    });
  }
  out.push({ data: '[DONE]' });
  return out;
}
