/**
 * Token counts of one Chat Completions stream chunk, from the shapes OpenAI-compatible servers send them in.
 *
 * | shape | who | what we do |
 * |---|---|---|
 * | `usage` on the last chunk (`stream_options.include_usage`) | OpenAI, DeepSeek, OpenRouter, most servers | read it |
 * | `usage.prompt_tokens_details.cached_tokens` | OpenAI, xAI, DeepSeek | counted as cache reads, not input |
 * | `usage.completion_tokens_details.reasoning_tokens` outside `completion_tokens` | xAI (its docs: reasoning tokens are reported apart from completion tokens and billed at the output price; `total_tokens` counts them) | added to the output |
 * | `x_groq.usage` on the last chunk, no top-level `usage` | Groq (its streaming responses put the counts in the `x_groq` object) | read it |
 * | no counts at all | some local servers | none: the caller estimates and says so |
 */
import type { Usage } from '../message.js';
import { tokenCount } from './wire.js';

/** A usage object as the servers send it; every field may be missing. */
interface WireUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
}

/**
 * The counts a chunk carries (top-level `usage`, else `x_groq.usage`), or undefined when it carries none.
 * Output includes reasoning tokens that a server reports outside `completion_tokens`: when
 * `total_tokens` exceeds prompt + completion by the reasoning count (xAI), they are added; when
 * `completion_tokens` already includes them (OpenAI: `total = prompt + completion`), nothing is.
 */
export function usageOfChunk(chunk: unknown): Pick<Usage, 'input' | 'output' | 'cacheRead'> | undefined {
  if (typeof chunk !== 'object' || chunk === null) return undefined;
  const c = chunk as { usage?: WireUsage | null; x_groq?: { usage?: WireUsage | null } | null };
  const wire = isUsage(c.usage) ? c.usage : isUsage(c.x_groq?.usage) ? c.x_groq!.usage! : undefined;
  if (!wire) return undefined;
  const prompt = tokenCount(wire.prompt_tokens);
  const completion = tokenCount(wire.completion_tokens);
  const cached = tokenCount(wire.prompt_tokens_details?.cached_tokens);
  const reasoning = tokenCount(wire.completion_tokens_details?.reasoning_tokens);
  const total = tokenCount(wire.total_tokens);
  const reasoningOutside = reasoning > 0 && total >= prompt + completion + reasoning;
  return {
    input: Math.max(0, prompt - cached),
    cacheRead: cached,
    output: completion + (reasoningOutside ? reasoning : 0),
  };
}

function isUsage(value: unknown): value is WireUsage {
  return typeof value === 'object' && value !== null && ('prompt_tokens' in value || 'completion_tokens' in value);
}
