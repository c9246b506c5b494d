/**
 * Defensive reading of what a server sent, shared by both providers: token counts it reports, whether
 * an HTTP 200 really is the API's event stream, and the base URL as shown in messages.
 */
import type { Usage } from '../message.js';
import { displayURL, scrubSecrets } from './retry.js';
import { ProviderError } from './types.js';

/** Largest token count we record; anything above is a server bug (and would not fit the database sanely). */
export const MAX_TOKEN_COUNT = 1_000_000_000;

/**
 * A token count as a non-negative integer ≤ {@link MAX_TOKEN_COUNT}: fractions are floored, negatives,
 * NaN, ±Infinity and non-numbers give 0 (a numeric string is read as its number), huge values are clamped.
 */
export function tokenCount(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), MAX_TOKEN_COUNT);
}

/** `usage` with every count passed through {@link tokenCount} (a new object). */
export function sanitizeUsage(usage: Usage): Usage {
  return {
    input: tokenCount(usage.input),
    output: tokenCount(usage.output),
    cacheWrite: tokenCount(usage.cacheWrite),
    cacheRead: tokenCount(usage.cacheRead),
  };
}

/** Which streaming API a provider expects, as named in messages. */
export type StreamKind = 'Anthropic Messages' | 'OpenAI Chat Completions';

/** What identifies the server in an {@link invalidStreamError}. */
export interface StreamSource {
  /** provider display name, e.g. `Anthropic`, `Groq` */
  providerName: string;
  baseURL: string;
  kind: StreamKind;
  secrets: readonly string[];
}

/**
 * The error for an HTTP 200 that is not the expected event stream (an HTML page, plain JSON, an empty
 * body, events of another API): not retryable, since asking again gets the same answer; the base URL is
 * almost always what is wrong.
 */
export function invalidStreamError(source: StreamSource, detail: string): ProviderError {
  const message = `${source.providerName}: the server at ${displayURL(source.baseURL)} did not answer with an ${source.kind} event stream (${detail}) — check the base URL`;
  return new ProviderError(scrubSecrets(message, source.secrets), {
    status: 200,
    retryable: false,
    code: 'invalid_response',
  });
}

/** Media type of a `content-type` header, lower case, without parameters; '' when absent. */
function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Throws {@link invalidStreamError} when a successful response declares a content type other than
 * `text/event-stream` (a response without one is let through: its events decide). The error quotes
 * the start of the body; `abort` then releases the connection.
 */
export async function expectEventStream(response: Response, source: StreamSource, abort: () => void): Promise<void> {
  const type = mediaType(response);
  if (type === '' || type === 'text/event-stream') return;
  const snippet = await bodyStart(response);
  abort();
  throw invalidStreamError(
    source,
    `got content-type ${type}${snippet ? `: ${JSON.stringify(snippet)}` : ' with an empty body'}`,
  );
}

/** The detail for a stream that ended without any event of the expected API. */
export function noEventsDetail(response: Response, seen: number, noun: string, missing: string): string {
  const type = mediaType(response);
  const got = type ? `content-type ${type}` : 'no content-type';
  return seen === 0 ? `got ${got} and no events` : `got ${seen} ${noun}${seen === 1 ? '' : 's'} but ${missing}`;
}

const SNIPPET_CHARS = 120;
const SNIPPET_WAIT_MS = 2000;

/**
 * The first {@link SNIPPET_CHARS} characters of the body, whitespace collapsed; '' if none come quickly.
 * The body is read as an async iterable: a web `ReadableStream` is one, and so is node-fetch.ts's body.
 */
async function bodyStart(response: Response): Promise<string> {
  const body = response.body as AsyncIterable<Uint8Array> | null;
  if (!body) return '';
  const chunks = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SNIPPET_WAIT_MS);
  });
  try {
    while (text.length <= SNIPPET_CHARS) {
      const chunk = await Promise.race([chunks.next(), timeout]);
      if (chunk === 'timeout' || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch {
    // a body that fails while we peek at it only shortens the snippet
  } finally {
    clearTimeout(timer);
    chunks.return?.().catch(() => undefined);
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}
