/**
 * HTTP plumbing shared by the `fetch` and `sourcegraph` tools: one request with a deadline, a body read
 * with a byte limit, and a message of its own for each way a request fails.
 *
 * Built on `node:http`/`node:https` rather than the global `fetch`: undici's fetch refuses the "bad
 * ports" of the Fetch standard (a browser rule, e.g. :6000 or :10080 fail with "bad port") and hides
 * the socket error codes under `TypeError: fetch failed`.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { VERSION } from '../version.js';
import { abortError } from '../abort.js';
import { ToolError } from './tool.js';

/** Sent with every request, e.g. `opencode/0.1.0` (the original sent `opencode/1.0`). */
export const USER_AGENT = `opencode/${VERSION}`;

/** A response whose body is not read yet. `body` is already decompressed. */
export interface HttpResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface HttpRequestOptions {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** request body (POST) */
  body?: string;
  /** aborts the request and any body still being read */
  signal: AbortSignal;
}

/** Sends one request (no redirects followed) and resolves when the response headers arrive. */
export function sendRequest(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  const headers = { ...options.headers };
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      { method: options.method ?? 'GET', headers, signal: options.signal },
      (res) => {
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage || http.STATUS_CODES[res.statusCode ?? 0] || '',
          headers: res.headers,
          body: decodedBody(res),
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The response body with its Content-Encoding undone (gzip, deflate, br). */
function decodedBody(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  // pipeline carries an error (or a destroy on abort) from either side to the other
  pipeline(res, decoder, () => {});
  return decoder;
}

/** The `Accept-Encoding` this module can undo. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Thrown by {@link readBodyLimited} when the body is larger than allowed. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The response is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads `body` to the end, but never more than `maxBytes`: past that it stops reading, destroys the
 * stream and throws {@link BodyTooLargeError}. `signal` destroys the stream at once.
 */
export async function readBodyLimited(
  body: Readable,
  maxBytes: number,
  signal: AbortSignal,
  onProgress?: (bytes: number) => void,
): Promise<Buffer> {
  // one byte past the limit tells a body of exactly maxBytes from a larger one
  const { bytes, complete } = await readBodyPrefix(body, maxBytes + 1, signal, onProgress);
  if (!complete || bytes.length > maxBytes) throw new BodyTooLargeError(maxBytes);
  return bytes;
}

/**
 * Reads `body` up to `maxBytes`: all of it, or its first `maxBytes` bytes, after which the stream is
 * destroyed (the rest is never downloaded). `complete` says which. `signal` destroys the stream at once.
 */
export async function readBodyPrefix(
  body: Readable,
  maxBytes: number,
  signal: AbortSignal,
  onProgress?: (bytes: number) => void,
): Promise<{ bytes: Buffer; complete: boolean }> {
  const onAbort = () => body.destroy(abortError());
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        onProgress?.(size);
        discardBody(body);
        return { bytes: Buffer.concat(chunks), complete: false };
      }
      chunks.push(chunk);
      size += chunk.length;
      onProgress?.(size);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}

/** Throws away a body that will not be read, freeing the connection. */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * A time limit for a whole operation (request, body and conversion), joined with the caller's
 * cancel signal. `signal` aborts when either fires; {@link explain} then says which.
 */
export class RequestDeadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #endsAt: number;
  readonly #timer: NodeJS.Timeout;
  #timedOut = false;

  constructor(
    readonly timeoutMs: number,
    private readonly parent: AbortSignal,
  ) {
    this.signal = this.#controller.signal;
    this.#endsAt = Date.now() + timeoutMs;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(abortError());
    }, timeoutMs);
    if (parent.aborted) this.#controller.abort(abortError());
    else parent.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  #onParentAbort = () => this.#controller.abort(abortError());

  /** true once the time limit passed (and the caller had not canceled first) */
  get timedOut(): boolean {
    return this.#timedOut && !this.parent.aborted;
  }

  /** milliseconds left, never below 0 */
  remainingMs(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  /** Stops the timer; call when the operation ends. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.parent.removeEventListener('abort', this.#onParentAbort);
  }

  /**
   * Turns whatever a request threw into what the tool should throw: an AbortError when the caller
   * canceled (the kernel reports "canceled by user"), a timeout {@link ToolError} after the limit,
   * a {@link ToolError} naming the network failure, or `err` itself when it is already a ToolError.
   * `timeoutMessage` is used when the limit passed.
   */
  explain(err: unknown, url: URL, timeoutMessage: string): Error {
    if (this.parent.aborted) return abortError();
    if (this.timedOut) return new ToolError(timeoutMessage);
    if (err instanceof ToolError) return err;
    const message = networkErrorMessage(err, url);
    if (message) return new ToolError(message);
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Error codes of a failed certificate check (OpenSSL's names, as Node reports them). */
const CERTIFICATE_ERROR_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * One sentence for a network failure of a request to `url`, or undefined when `err` is not one.
 * DNS, refused, reset, unreachable and TLS failures each have their own wording.
 */
export function networkErrorMessage(err: unknown, url: URL): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const host = url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return `DNS lookup failed: the host "${host}" could not be resolved (${code}). Check the URL; the machine may also be offline.`;
    case 'EAI_AGAIN':
      return `DNS lookup failed: no answer for the host "${host}" (EAI_AGAIN, a temporary failure). The machine may be offline.`;
    case 'ECONNREFUSED':
      return `Connection refused by ${host}:${port} (ECONNREFUSED): nothing is accepting connections there.`;
    case 'ECONNRESET':
      return `The connection to ${host}:${port} was reset (ECONNRESET) before the response was complete.`;
    case 'ETIMEDOUT':
      return `The connection to ${host}:${port} timed out (ETIMEDOUT).`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return `The network cannot reach ${host} (${code}). The machine may be offline.`;
  }
  // zlib's codes (gzip, deflate) start Z_, brotli's ERR__ (e.g. ERR__ERROR_FORMAT_PADDING_1)
  if (code.startsWith('Z_') || code.startsWith('ERR__')) {
    return `The response from ${host} could not be decompressed (${code}): ${err.message}`;
  }
  if (CERTIFICATE_ERROR_CODES.has(code)) {
    return `TLS error: the certificate of ${host} was rejected (${code}: ${err.message}).`;
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    // OpenSSL's text is "write EPROTO 80FC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…"
    const reason = /SSL routines:[^:]*:([^:]+)/.exec(err.message)?.[1] ?? firstLine(err.message);
    const plainHttp = /wrong version number|packet length too long|http request/i.test(reason);
    return `TLS error while connecting to ${host}:${port} (${code}: ${reason}).${plainHttp ? ' The server does not seem to speak https; try http://.' : ''}`;
  }
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || err.message === 'aborted') {
    return `The connection to ${host}:${port} closed before the response was complete.`;
  }
  if (code) return `Request to ${url.href} failed (${code}): ${firstLine(err.message)}`;
  return undefined;
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim();
}

/** `n` bytes in the unit a person reads, e.g. `5 MB`, `512 KB`, `300 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
