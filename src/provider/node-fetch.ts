/**
 * A `fetch` over `node:http` / `node:https` (keep-alive connections) for the SDKs' documented `fetch`
 * client option (`@anthropic-ai/sdk` and `openai` `ClientOptions.fetch`), with the stall clocks of
 * stall.ts built in. The SDKs still build the request, parse the event stream, and make their errors;
 * this replaces only Node's fetch (undici) and our stall wrapper's second web stream, which cost ~1 ms
 * of the main thread's CPU a call (SDK + undici + wrapper 3.74 ms a call, bare `node:http`
 * 1.0 ms, for a 33 KB request).
 *
 * What the SDKs use of a response (read in node_modules, `client.mjs` `makeRequest`, `core/streaming`,
 * `internal/parse`, `internal/shims`): `status`, `ok`, `statusText`, `url`, `headers` (`get`,
 * `entries`), `body` (iterated with `Symbol.asyncIterator` when it has one; cancelled with
 * `iterator().return()`), `text()` and `json()` for error and JSON bodies. The body is therefore an
 * async iterable ({@link ResponseBody}), not a web `ReadableStream`.
 *
 * Behaviour kept from Node's fetch, so the SDKs and retry.ts see the same things:
 * - the request headers it adds when absent (`accept: *\/*`, `accept-language: *`, `sec-fetch-mode:
 *   cors`, `user-agent: node`, `accept-encoding: gzip, deflate`), and gzip / deflate (zlib or raw) / br
 *   bodies decoded, leniently (`Z_SYNC_FLUSH`), as undici does;
 * - redirects followed (at most 20; 301/302 POST and 303 become GET without the body; credentials
 *   dropped on a change of origin), or refused / returned as asked by `init.redirect`;
 * - the Fetch standard's bad ports refused before connecting (`fetch failed` ← `bad port`);
 * - errors: a connection that cannot be made or breaks before the response rejects with
 *   `TypeError: fetch failed` whose `cause` is the system error (`ECONNREFUSED`, `ENOTFOUND`, a TLS
 *   error) or undici's `SocketError: other side closed`; a body cut short throws `TypeError: terminated`;
 *   an abort rejects (or fails the body) with `signal.reason`.
 * One addition: a request whose reused keep-alive connection turns out closed by the server (reset
 * before any response) is sent once more on a new connection, as browsers do.
 *
 * Stall clocks (stall.ts, on one timer: node-fetch-clock.ts): the first-byte limit runs from sending until
 * the first byte of the body (the headers alone do not stop it); the idle limit between chunks while the
 * reader waits. Either fails the request with a {@link ProviderStallError}.
 *
 * Cost: the work per call is kept to what the request needs: a URL string is parsed once
 * (the SDKs send every call to the same few) into the request's options; a string body is encoded once
 * ({@link utf8}); one timer serves both stall clocks; the exchange is its own abort listener, so a call
 * makes no closures for it; the body's chunks go straight to a waiting reader.
 *
 * Requests this module does not handle — a `Request` object as input, a URL that is not http(s), a body
 * that is a stream, `Blob` or `FormData` (file uploads; none of our calls sends one) — go to `fallback`
 * (by default Node's fetch wrapped in {@link stallGuardedFetch}).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import zlib from 'node:zlib';
import { ResponseBody, socketError, type BodyOwner } from './node-fetch-body.js';
import { StallClock, type StallListener } from './node-fetch-clock.js';
import { DEFAULT_STALL_TIMEOUTS, stallGuardedFetch, type ProviderStallError, type StallTimeouts } from './stall.js';

/** Options of {@link nodeFetch}. */
export interface NodeFetchOptions {
  /** the stall limits; each missing one takes its default (`DEFAULT_STALL_TIMEOUTS`); 0 turns a clock off */
  stallTimeouts?: Partial<StallTimeouts>;
  /** for the requests this module does not handle (see the module comment); default Node's fetch with the stall clocks */
  fallback?: typeof fetch;
}

/**
 * Ports the Fetch standard blocks ("bad port", fetch.spec.whatwg.org §2.9 "port blocking"), refused by
 * Node's fetch before connecting: e.g. 9 (discard), 6000 (X11), 10080 (amanda). Kept so a base URL on
 * one of them fails as it does with Node's own fetch (retry.ts names it).
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Statuses whose responses carry no body (the Fetch standard's "null body status"). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** undici's limit (the Fetch standard: 20). */
const MAX_REDIRECTS = 20;
/** Request headers removed when a redirect turns the request into a GET without a body (Fetch standard). */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Request headers removed when a redirect goes to another origin (as undici does). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];
/** Added when the caller did not set them: what Node's fetch sends (Node 20's undici). */
const DEFAULT_HEADERS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];
/** How long an idle connection waits in the pool for the next request: undici's default (4 s). */
const KEEP_ALIVE_MS = 4_000;

const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
};

/** A request URL, parsed, and the `node:http` options that address it. */
interface Target {
  url: URL;
  /** protocol, hostname, port, path, auth, as `urlToHttpOptions` gives them (what `request(url)` reads of a URL) */
  options: Pick<http.RequestOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'auth'>;
}

/**
 * Targets by URL string. The SDKs build the URL string anew each call, but to the same few endpoints:
 * parsing each once saves a `URL` parse and `urlToHttpOptions` a call. Bounded: emptied when full (a
 * client whose URLs vary, e.g. by a query parameter, only parses as before).
 */
const targets = new Map<string, Target>();
const MAX_TARGETS = 64;

/** The target of `href`; throws the URL parser's TypeError for a malformed one. */
function targetOf(href: string): Target {
  let target = targets.get(href);
  if (!target) {
    target = targetOfUrl(new URL(href));
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(href, target);
  }
  return target;
}

function targetOfUrl(url: URL): Target {
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  return { url, options: { protocol, hostname, port, path, auth } };
}

/** A request this module sends itself. */
interface Plan {
  target: Target;
  method: string;
  headers: Record<string, string>;
  /** the bytes to send (a string body encoded once: {@link utf8}); dropped once the final response came */
  body: Buffer | undefined;
  redirect: 'follow' | 'error' | 'manual';
  signal: AbortSignal | undefined;
}

/**
 * A `fetch` for the SDKs' `fetch` option (see the module comment). Never throws synchronously;
 * rejects as Node's fetch does.
 */
export function nodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const timeouts: StallTimeouts = { ...DEFAULT_STALL_TIMEOUTS, ...options.stallTimeouts };
  let fallback = options.fallback;
  // not async: the exchange's promise is returned as it is (one promise less a call)
  const fetchOverNode = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let plan: Plan | undefined;
    try {
      plan = planOf(input, init);
    } catch (err) {
      return Promise.reject(err);
    }
    if (!plan) {
      fallback ??= stallGuardedFetch(timeouts);
      return fallback(input, init);
    }
    return new Exchange(plan, timeouts).start();
  };
  return fetchOverNode as typeof fetch;
}

/** The request as this module sends it, or undefined for one it hands to the fallback. */
function planOf(input: string | URL | Request, init: RequestInit | undefined): Plan | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  let target: Target;
  try {
    target = targetOf(typeof input === 'string' ? input : input.href);
  } catch (err) {
    throw new TypeError(`Failed to parse URL from ${String(input)}`, { cause: err });
  }
  const { protocol } = target.url;
  if (protocol !== 'http:' && protocol !== 'https:') return undefined;
  const body = bodyOf(init?.body);
  if (body === null) return undefined;
  const headers: Record<string, string> = {};
  const given = init?.headers;
  if (given instanceof Headers) {
    for (const [name, value] of given) headers[name] = value;
  } else if (Array.isArray(given)) {
    for (const [name, value] of given) addHeader(headers, name!, value!);
  } else if (given) {
    for (const [name, value] of Object.entries(given)) addHeader(headers, name, value);
  }
  if (body?.contentType && headers['content-type'] === undefined) headers['content-type'] = body.contentType;
  for (const [name, value] of DEFAULT_HEADERS) headers[name] ??= value;
  const method = (init?.method ?? 'GET').toUpperCase();
  return {
    target,
    method,
    headers,
    body: body?.data,
    redirect: init?.redirect ?? 'follow',
    signal: init?.signal ?? undefined,
  };
}

/** Adds a header as fetch does: names lower-cased, repeated names (or a list of values) joined by `, `. */
function addHeader(headers: Record<string, string>, name: string, value: string | readonly string[]): void {
  const key = name.toLowerCase();
  const text = typeof value === 'string' ? value : value.join(', ');
  headers[key] = headers[key] === undefined ? String(text) : `${headers[key]}, ${text}`;
}

/** A request body as `RequestInit` types it (`BodyInit` is not a global type under `lib: ES2023` alone). */
type FetchBody = NonNullable<RequestInit['body']>;

/**
 * A request body this module sends (a string, bytes, form parameters), undefined for none, or null
 * for one it does not handle. The content type is the one fetch gives such a body.
 */
function bodyOf(body: FetchBody | null | undefined): { data: Buffer; contentType?: string } | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return { data: utf8(body), contentType: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams)
    return { data: utf8(body.toString()), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (Buffer.isBuffer(body)) return { data: body };
  if (body instanceof ArrayBuffer) return { data: Buffer.from(body) };
  if (ArrayBuffer.isView(body) && !(body instanceof DataView))
    return { data: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  return null;
}

/**
 * A string's UTF-8 bytes, encoded once (a lone surrogate becomes U+FFFD, as fetch encodes it). Sent as a
 * string, a body took two passes: `Buffer.byteLength` for the content-length, then the socket's own
 * encoding (which sizes its buffer for the worst case, as here). On a string with any character past
 * Latin-1 (the SDKs' JSON of our prompts has some) the first pass alone cost ~50–150 µs for 33 KB on
 * Node 20.
 */
function utf8(text: string): Buffer {
  // at most 3 bytes for each UTF-16 unit (a surrogate pair, 2 units, is 4 bytes)
  const bytes = Buffer.allocUnsafe(text.length * 3);
  return bytes.subarray(0, bytes.write(text));
}

/**
 * One fetch: its requests (redirects, one resend), the response, and the body until it ends. It is
 * itself the abort listener (`handleEvent`), the stall clock's listener and the body's owner, so a
 * call makes no closures for them.
 */
class Exchange implements StallListener, BodyOwner {
  private resolve!: (response: Response) => void;
  private reject!: (error: unknown) => void;
  private settled = false;
  private finished = false;
  private request?: http.ClientRequest;
  private response?: IncomingMessage;
  private body?: ResponseBody;
  private readonly clock: StallClock;
  private redirects = 0;

  constructor(
    private readonly plan: Plan,
    timeouts: StallTimeouts,
  ) {
    this.clock = new StallClock(timeouts, this);
  }

  start(): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      const { signal, target } = this.plan;
      if (signal?.aborted) return this.failBeforeResponse(abortReason(signal));
      if (BAD_PORTS.has(Number(target.url.port)))
        return this.failBeforeResponse(new TypeError('fetch failed', { cause: new Error('bad port') }));
      // no `once`: finish() removes it, and an abort fires once
      signal?.addEventListener('abort', this);
      this.clock.start();
      this.send(false);
    });
  }

  /** The signal aborted. */
  handleEvent(): void {
    this.stop(abortReason(this.plan.signal!));
  }

  stalled(error: ProviderStallError): void {
    this.stop(error);
  }

  /** Ends the exchange with `error` (an abort, a stall): the pending promise or the body gets it. */
  private stop(error: unknown): void {
    if (this.body) this.body.fail(error);
    else this.failBeforeResponse(error);
  }

  private send(resent: boolean): void {
    const { target, method, headers, body } = this.plan;
    const secure = target.url.protocol === 'https:';
    if (body !== undefined) headers['content-length'] = String(body.length);
    const { protocol, hostname, port, path, auth } = target.options;
    // a literal, not a spread: `{ ...options, method }` took ~5 µs on Node 20
    const options: http.RequestOptions = {
      protocol,
      hostname,
      port,
      path,
      auth,
      method,
      headers,
      agent: secure ? agents['https:'] : agents['http:'],
    };
    const request = (secure ? https : http).request(options, this.respond.bind(this));
    this.request = request;
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (this.settled) return;
      // a kept-alive connection the server closed meanwhile: nothing was answered, so ask again once
      const stale =
        request.reusedSocket && !resent && !this.response && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      if (stale) return this.send(true);
      const cause =
        err.code === 'ECONNRESET' && err.message === 'socket hang up' ? socketError('other side closed') : err;
      this.failBeforeResponse(new TypeError('fetch failed', { cause }));
    });
    if (secure) {
      // on a new connection, write once the TLS handshake is done, as undici does: a handshake that fails
      // is then reported as such (ERR_SSL_WRONG_VERSION_NUMBER), not as the failed write of the request (EPROTO)
      request.once('socket', (socket) => {
        if (request.reusedSocket) request.end(body);
        else socket.once('secureConnect', () => request.end(body));
      });
    } else {
      request.end(body);
    }
  }

  /** The response to the request last sent. */
  private respond(res: IncomingMessage): void {
    if (this.settled) {
      res.destroy();
      return;
    }
    const status = res.statusCode ?? 0;
    const raw = res.rawHeaders;
    if (REDIRECT_STATUS.has(status) && this.plan.redirect !== 'manual') {
      const location = res.headers.location;
      if (location !== undefined) {
        res.resume();
        this.redirect(status, location);
        return;
      }
    }
    this.response = res;
    // no resend or redirect can follow: the request's bytes are not needed while the body streams
    this.plan.body = undefined;
    const headers = new Headers();
    for (let i = 0; i < raw.length; i += 2) {
      try {
        headers.append(raw[i]!, raw[i + 1]!);
      } catch {
        // a header value Headers rejects (control characters) is left out, as undici would fail on it
      }
    }
    const noBody = this.plan.method === 'HEAD' || NULL_BODY_STATUS.has(status);
    if (noBody) {
      this.clock.stop();
      res.resume();
      res.on('end', () => this.finish());
    } else {
      this.body = new ResponseBody(decoded(res, headers.get('content-encoding')), this.clock, this);
    }
    this.settled = true;
    const statusText = res.statusMessage || http.STATUS_CODES[status] || '';
    const response = new NodeFetchResponse(
      status,
      statusText,
      headers,
      this.plan.target.url.href,
      this.redirects > 0,
      noBody ? null : this.body!,
    );
    // the parts of Response the SDKs read (module comment); the type says more than is there
    this.resolve(response as unknown as Response);
  }

  /** Follows a redirect as the Fetch standard says (see the module comment). */
  private redirect(status: number, location: string): void {
    const plan = this.plan;
    let next: URL;
    try {
      next = new URL(location, plan.target.url);
    } catch (err) {
      return this.failBeforeResponse(new TypeError('fetch failed', { cause: err }));
    }
    if (plan.redirect === 'error')
      return this.failBeforeResponse(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }));
    if (++this.redirects > MAX_REDIRECTS)
      return this.failBeforeResponse(new TypeError('fetch failed', { cause: new Error('redirect count exceeded') }));
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return this.failBeforeResponse(
        new TypeError('fetch failed', { cause: new TypeError('URL scheme must be a HTTP(S) scheme') }),
      );
    }
    if (
      ((status === 301 || status === 302) && plan.method === 'POST') ||
      (status === 303 && plan.method !== 'GET' && plan.method !== 'HEAD')
    ) {
      plan.method = 'GET';
      plan.body = undefined;
      for (const name of BODY_HEADERS) delete plan.headers[name];
    }
    if (next.origin !== plan.target.url.origin) for (const name of CREDENTIAL_HEADERS) delete plan.headers[name];
    plan.target = targetOfUrl(next);
    this.send(false);
  }

  private failBeforeResponse(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.finish(error);
    this.reject(error);
  }

  /** Releases the exchange; with `error` the connection is destroyed (not reused). */
  finish(error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.clock.stop();
    this.plan.signal?.removeEventListener('abort', this);
    if (error !== undefined) {
      this.response?.destroy();
      this.request?.destroy();
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** `res` with its `content-encoding` undone as undici does: gzip, x-gzip, deflate, br, in reverse order; an unknown coding leaves the body as it is. */
function decoded(res: IncomingMessage, contentEncoding: string | null): Readable {
  if (!contentEncoding) return res;
  const decoders: Transform[] = [];
  const codings = contentEncoding.toLowerCase().split(',');
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') {
      decoders.push(
        zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      );
    } else if (coding === 'deflate') {
      decoders.push(new InflateAny());
    } else if (coding === 'br') {
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    } else {
      return res;
    }
  }
  if (decoders.length === 0) return res;
  // pipeline carries an error (or a destroy) from either end to the other
  return pipeline([res, ...decoders], () => {}) as unknown as Readable;
}

/** `deflate` as servers send it: zlib-wrapped (RFC 1950) or raw (RFC 1951), told by the first byte, as undici does. */
class InflateAny extends Transform {
  private inflate?: zlib.Inflate | zlib.InflateRaw;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inflate) {
      if (chunk.length === 0) return callback();
      const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
      this.inflate = (chunk[0]! & 0x0f) === 8 ? zlib.createInflate(options) : zlib.createInflateRaw(options);
      this.inflate.on('data', (data: Buffer) => this.push(data));
      this.inflate.on('error', (err) => this.destroy(err));
    }
    this.inflate.write(chunk, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inflate) return callback();
    this.inflate.once('end', () => callback());
    this.inflate.end();
  }
}

/**
 * The response {@link nodeFetch} resolves with: the parts of `Response` the SDKs and our code read.
 * `body` is an async iterable of chunks (or null); `clone()` and `formData()` are not offered.
 */
export class NodeFetchResponse {
  readonly type = 'basic';
  readonly ok: boolean;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
    readonly redirected: boolean,
    readonly body: ResponseBody | null,
  ) {
    this.ok = status >= 200 && status <= 299;
  }

  get bodyUsed(): boolean {
    return this.body?.disturbed ?? false;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (!this.body) return new Uint8Array(0);
    if (this.body.disturbed) throw new TypeError('Body is unusable: Body has already been read');
    return this.body.bytes();
  }

  async text(): Promise<string> {
    // TextDecoder drops a leading BOM, as fetch's text() does
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): never {
    throw new TypeError(
      'clone() is not supported by the provider fetch (src/provider/node-fetch.ts): read the body once',
    );
  }

  formData(): never {
    throw new TypeError('formData() is not supported by the provider fetch (src/provider/node-fetch.ts)');
  }
}
