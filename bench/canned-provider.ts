/**
 * A provider that answers the agent-loop bench's script from memory (`tsx bench/agent-loop.ts 3 canned`):
 * the events the Anthropic provider yields for the fake's replies — a `view` tool call per step with its
 * input in three deltas, then the final text — with no request built, no SDK, no HTTP. What the bench
 * measures with it is the loop's own share of a provider call (store writes, events, bookkeeping, GC),
 * the rest of the headline figure being the provider's.
 */
import type { Provider, ProviderEvent, ProviderRequest } from '../src/provider/types.js';
import type { ModelInfo } from '../src/provider/types.js';

const USAGE = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };

/** `steps` tool steps reading `file`, then a text turn; the first step starts with a short text, as the script's does. */
export function cannedProvider(model: ModelInfo, steps: number, file: string, finalText: string): Provider {
  let calls = 0;
  return {
    model,
    async *stream(_request: ProviderRequest): AsyncGenerator<ProviderEvent> {
      calls++;
      if (calls > steps) {
        yield { type: 'content_delta', text: finalText };
        yield {
          type: 'complete',
          response: { content: finalText, reasoning: [], toolCalls: [], usage: USAGE, finishReason: 'end_turn' },
        };
        return;
      }
      const id = `toolu_canned_${calls}`;
      const input = JSON.stringify({ file_path: file });
      const text = calls === 1 ? 'Let me look.' : '';
      if (text) yield { type: 'content_delta', text };
      yield { type: 'tool_use_start', id, name: 'view' };
      for (const piece of [input.slice(0, 10), input.slice(10, 20), input.slice(20)])
        yield { type: 'tool_use_delta', id, inputDelta: piece };
      yield { type: 'tool_use_stop', id };
      yield {
        type: 'complete',
        response: {
          content: text,
          reasoning: [],
          toolCalls: [{ id, name: 'view', input }],
          usage: USAGE,
          finishReason: 'tool_use',
        },
      };
    },
  };
}
