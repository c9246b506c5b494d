/**
 * One streaming POST over `node:http` / `node:https` and its Server-Sent Events, for the Anthropic
 * provider (issue 16: the agent loop's cost per model call). The SDK's path — its request machinery,
 * undici's `fetch` with web streams, and our stall wrapper around the body as a second web stream — cost
 * ~3.7 ms of main-thread CPU per call with a 33 KB request; this path ~1 ms (bench/agent-loop.ts).
 *
 * What it keeps of the SDK's behaviour (`@anthropic-ai/sdk` 1.14, `core/streaming.mjs`, `core/error.mjs`):
 * - a non-2xx answer fails with an {@link HttpStatusError} shaped as the SDK's `APIError` (`status`,
 *   `headers`, `error` = the parsed JSON body, message `"<status> <body>"`), which retry.ts reads by shape;
 * - the event parser is the SDK's `_iterSSEMessages` (lines end in `\n`, `\r\n` or `\r`; `event` and
 *   `data` fields; a blank line dispatches), and an `error` event fails with an {@link HttpStatusError}
 *   without status whose `error` is the event's data;
 * - the stall clocks of stall.ts: the first byte of the body within `firstByteTimeoutMs` of sending, then
 *   no gap over `idleTimeoutMs` while we wait for the next chunk (a slow consumer never trips them); a
 *   stall fails with {@link ProviderStallError}.
 * Connections are kept alive per {@link EventStreamClient} (one per provider), as undici did. No
 * `accept-encoding` is sent, so the body comes uncompressed. `node:http` and `node:https` (which loads
 * TLS) are imported on the first request, so start-up paths that make none do not pay for them.
 */
import type http from 'node:http';
import { ProviderStallError, type StallTimeouts } from './stall.js';

/** One Server-Sent Event: its `event` field (null when absent) and its `data` lines joined by `\n`. */
export interface SseMessage {
  event: string | null;
  data: string;
}

/** Response headers by lower-case name, as fetch's `Headers.get` reads them. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

/**
 * A failed request, shaped as the SDKs' `APIError` (retry.ts reads `status`, `headers`, `error`):
 * an HTTP status outside 2xx (`error`: the body's JSON, or undefined and the text in the message), or
 * an `error` event in the stream (`status` undefined, `error`: the event's data).
 */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number | undefined,
    /** the parsed JSON of the body or event data; undefined when it was not JSON */
    readonly error: unknown,
    /** the body's text when it was not JSON */
    text: string | undefined,
    readonly headers: ResponseHeaders,
  ) {
    super(statusMessage(status, error, text));
    this.name = 'APIError';
  }
}

/** The SDK's `APIError.makeMessage`: `"<status> <body message or JSON or text>"`. */
function statusMessage(status: number | undefined, error: unknown, text: string | undefined): string {
  const body = error as { message?: unknown } | undefined;
  const msg = body?.message ? (typeof body.message === 'string' ? body.message : JSON.stringify(body.message)) : error ? JSON.stringify(error) : text;
  if (status && msg) return `${status} ${msg}`;
  if (status) return `${status} status code (no body)`;
  return msg || '(no status code or body)';
}

/** An answer with a 2xx status whose body is being read. */
export interface EventStreamResponse {
  status: number;
  headers: ResponseHeaders;
  /** the body's events, in order; throws on a stall, an abort, a dropped connection or an `error` event */
  events(): AsyncGenerator<SseMessage>;
  /** up to `maxChars` of the body (whitespace as sent), waiting at most `waitMs`; then the request is closed */
  bodyStart(maxChars: number, waitMs: number): Promise<string>;
  /** closes the connection (nothing more is read) */
  abort(): void;
}

/** What one request takes. */
export interface EventStreamRequest {
  /** absolute http(s) URL */
  url: string;
  headers: Record<string, string>;
  /** the JSON text sent as is */
  body: string;
  signal?: AbortSignal;
  timeouts: StallTimeouts;
}

const abortError = () => Object.assign(new Error('Request was aborted.'), { name: 'AbortError' });

/** The HTTP modules and their keep-alive agents, loaded on the first request. */
interface Transport {
  http: typeof import('node:http');
  https: typeof import('node:https');
  httpAgent: http.Agent;
  httpsAgent: import('node:https').Agent;
}

/** Sends streaming POSTs over keep-alive connections of its own. */
export class EventStreamClient {
  private transport?: Transport;

  private async load(): Promise<Transport> {
    if (!this.transport) {
      const [httpModule, httpsModule] = await Promise.all([import('node:http'), import('node:https')]);
      this.transport ??= {
        http: httpModule.default,
        https: httpsModule.default,
        httpAgent: new httpModule.default.Agent({ keepAlive: true }),
        httpsAgent: new httpsModule.default.Agent({ keepAlive: true }),
      };
    }
    return this.transport;
  }

  /**
   * Sends the request and resolves once the status and headers arrived with a 2xx status.
   * @throws {HttpStatusError} for another status (after reading its body); {@link ProviderStallError};
   *   an `AbortError` when `signal` aborts; an `APIConnectionError` whose cause is Node's socket error
   *   (`code` ECONNREFUSED, ENOTFOUND, DEPTH_ZERO_SELF_SIGNED_CERT, …) when no answer came
   */
  async post(request: EventStreamRequest): Promise<EventStreamResponse> {
    const transport = this.transport ?? (await this.load());
    return this.send(transport, request);
  }

  private send(transport: Transport, request: EventStreamRequest): Promise<EventStreamResponse> {
    const { signal, timeouts } = request;
    if (signal?.aborted) return Promise.reject(abortError());
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const body = Buffer.from(request.body, 'utf8');
    return new Promise((resolve, reject) => {
      let failure: Error | undefined;
      const fail = (err: Error) => {
        failure ??= err;
        req.destroy(failure);
      };
      const onAbort = () => fail(abortError());
      signal?.addEventListener('abort', onAbort, { once: true });
      const detach = () => signal?.removeEventListener('abort', onAbort);
      const startedAt = Date.now();
      // the first byte of the body must come within the limit, counted from sending
      let timer: NodeJS.Timeout | undefined = setTimeout(
        () => fail(new ProviderStallError('first-byte', timeouts.firstByteTimeoutMs)),
        timeouts.firstByteTimeoutMs,
      );
      const stopTimer = () => {
        clearTimeout(timer);
        timer = undefined;
      };
      const options: http.RequestOptions = {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(body.length) },
        agent: secure ? transport.httpsAgent : transport.httpAgent,
      };
      const req = (secure ? transport.https : transport.http).request(url, options, (res) => {
        const headers = headerReader(res.headers);
        res.setEncoding('utf8');
        const chunks = res[Symbol.asyncIterator]() as AsyncIterator<string>;
        let first = true;
        /** the next chunk of the body, under the first-byte or idle clock; undefined at the end */
        const next = async (): Promise<string | undefined> => {
          if (failure) throw failure;
          const limitMs = first ? timeouts.firstByteTimeoutMs : timeouts.idleTimeoutMs;
          const waitMs = first ? Math.max(0, limitMs - (Date.now() - startedAt)) : limitMs;
          stopTimer();
          timer = setTimeout(() => fail(new ProviderStallError(first ? 'first-byte' : 'idle', limitMs)), waitMs);
          try {
            const chunk = await chunks.next();
            if (failure) throw failure;
            first = false;
            return chunk.done ? undefined : chunk.value;
          } catch (err) {
            throw failure ?? err;
          } finally {
            stopTimer();
          }
        };
        const finish = () => {
          stopTimer();
          detach();
        };
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          void readAll(next).then(
            (text) => {
              finish();
              const json = parseJson(text);
              reject(new HttpStatusError(status, json, json === undefined ? text : undefined, headers));
            },
            (err: unknown) => {
              finish();
              reject(err);
            },
          );
          return;
        }
        resolve({
          status,
          headers,
          async *events() {
            try {
              yield* parseEvents(next);
              const error = failure;
              if (error) throw error;
            } finally {
              finish();
              if (!res.complete) req.destroy();
            }
          },
          async bodyStart(maxChars, waitMs) {
            let text = '';
            let deadlineTimer: NodeJS.Timeout | undefined;
            const deadline = new Promise<undefined>((done) => {
              deadlineTimer = setTimeout(() => done(undefined), waitMs);
            });
            try {
              while (text.length <= maxChars) {
                const chunk = await Promise.race([next(), deadline]);
                if (chunk === undefined) break;
                text += chunk;
              }
            } catch {
              // a body that fails while we peek at it only shortens the snippet
            }
            clearTimeout(deadlineTimer);
            finish();
            req.destroy();
            return text;
          },
          abort() {
            finish();
            req.destroy();
          },
        });
      });
      req.on('error', (err) => {
        stopTimer();
        detach();
        reject(failure ?? connectionError(err));
      });
      req.end(body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.transport?.httpAgent.destroy();
    this.transport?.httpsAgent.destroy();
  }
}

/**
 * A failure to connect or to send (refused, unknown host, TLS, reset before an answer), wrapped as the
 * SDK wrapped fetch's: named `APIConnectionError`, the socket error (its `code`) as the cause, which
 * retry.ts reads to name the address and retry.
 */
function connectionError(cause: Error): Error {
  return Object.assign(new Error('Connection error.', { cause }), { name: 'APIConnectionError' });
}

function headerReader(headers: http.IncomingHttpHeaders): ResponseHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function readAll(next: () => Promise<string | undefined>): Promise<string> {
  let text = '';
  for (let chunk = await next(); chunk !== undefined; chunk = await next()) text += chunk;
  return text;
}

/**
 * The events of a body read with `next`, as the SDK's `Stream.fromSSEResponse` filters them: `ping`
 * and events without an `event` field are skipped, as are events without data; an `error` event throws
 * {@link HttpStatusError}. Parsing as the SDK's `_iterSSEMessages`.
 */
async function* parseEvents(next: () => Promise<string | undefined>): AsyncGenerator<SseMessage> {
  const noHeaders: ResponseHeaders = { get: () => null };
  for await (const sse of sseMessages(next)) {
    if (sse.event === 'ping' || sse.event === null) continue;
    if (sse.event === 'error') {
      const json = parseJson(sse.data);
      throw new HttpStatusError(undefined, json ?? sse.data, undefined, noHeaders);
    }
    if (sse.data) yield sse;
  }
}

/** Server-Sent Events of a text body: the SDK's `_iterSSEMessages` (`@anthropic-ai/sdk` 1.14), on strings. */
export async function* sseMessages(next: () => Promise<string | undefined>): AsyncGenerator<SseMessage> {
  let text = '';
  let endsWithCR = false;
  let event: string | null = null;
  let data: string[] = [];
  const takeLine = (raw: string): SseMessage | null => {
    const line = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (!line) {
      if (!event && !data.length) return null;
      const sse = { event, data: data.join('\n') };
      event = null;
      data = [];
      return sse;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return null;
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'event' && field !== 'data') return null;
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === 'event') event = value;
    else data.push(value);
    return null;
  };
  for (let chunk = await next(); chunk !== undefined; chunk = await next()) {
    text += chunk;
    // a chunk without a line ending cannot complete a line
    if (!endsWithCR && !chunk.includes('\n') && !chunk.includes('\r')) continue;
    let start = 0;
    if (!text.includes('\r')) {
      let end: number;
      while ((end = text.indexOf('\n', start)) !== -1) {
        const sse = takeLine(text.slice(start, end));
        start = end + 1;
        if (sse) yield sse;
      }
    } else {
      for (let i = 0; i < text.length; i++) {
        const char = text[i];
        if (char !== '\n' && char !== '\r') continue;
        if (char === '\r' && i + 1 === text.length) break;
        const sse = takeLine(text.slice(start, i));
        if (char === '\r' && text[i + 1] === '\n') i++;
        start = i + 1;
        if (sse) yield sse;
      }
    }
    text = text.slice(start);
    endsWithCR = text.endsWith('\r');
  }
  if (text) {
    for (const line of text.replace(/\r$/, '').split(/\r\n|[\n\r]/)) {
      const sse = takeLine(line);
      if (sse) yield sse;
    }
  }
}
