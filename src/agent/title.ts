/**
 * Session titles (as the original): the first user message alone goes to the title model, with no
 * tools and at most 80 output tokens; the answer becomes the title (one line, ≤ 50 characters).
 */
import type { Provider } from '../provider/types.js';
import { systemPrompt } from './prompts.js';

/** Output cap of a title call, tokens (the original forces 80). */
export const TITLE_MAX_TOKENS = 80;
/** Longest title kept, characters. */
export const TITLE_MAX_CHARS = 50;

/**
 * Asks `provider` for a title of `firstMessage`. Resolves with the cleaned title, or '' when the model
 * gave nothing usable. @throws Error with the provider's message when the call fails.
 */
export async function generateTitle(provider: Provider, firstMessage: string, signal?: AbortSignal): Promise<string> {
  const now = Date.now();
  const stream = provider.stream({
    systemPrompt: systemPrompt('title'),
    messages: [
      {
        id: 'title',
        sessionId: 'title',
        role: 'user',
        seq: 0,
        createdAt: now,
        updatedAt: now,
        parts: [{ type: 'text', text: firstMessage }],
      },
    ],
    tools: [],
    maxTokens: TITLE_MAX_TOKENS,
    signal,
  });
  for await (const event of stream) {
    if (event.type === 'error') throw event.error;
    if (event.type === 'complete') return cleanTitle(event.response.content);
  }
  return '';
}

/** One line, no surrounding quotes, at most {@link TITLE_MAX_CHARS} characters. */
export function cleanTitle(raw: string): string {
  const line = raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim();
  const chars = [...line];
  return chars.length <= TITLE_MAX_CHARS
    ? line
    : `${chars
        .slice(0, TITLE_MAX_CHARS - 1)
        .join('')
        .trimEnd()}…`;
}
