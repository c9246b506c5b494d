/**
 * The body of a {@link nodeFetch} response: the bytes of a `node:http` response as an async iterable of
 * `Uint8Array` chunks, the form both SDKs read a body in when it offers one (`@anthropic-ai/sdk`
 * `internal/shims` `ReadableStreamToAsyncIterable`, `openai` the same: `stream[Symbol.asyncIterator]`
 * is used before `getReader()`). A web `ReadableStream` is not built: Node's is written in JavaScript and
 * costs more on the main thread than the HTTP parsing itself (issue 16).
 *
 * The idle stall clock lives here (stall.ts semantics): it runs only while the reader waits for a chunk
 * and none is queued, so a slow reader never trips it. Errors are those Node's fetch (undici) gives, so
 * the SDKs and retry.ts classify them as before: a connection that closes mid-body is
 * `TypeError: terminated` caused by `SocketError: other side closed` (`UND_ERR_SOCKET`).
 */
import type { Readable } from 'node:stream';
import { ProviderStallError } from './stall.js';

/** Bytes queued unread past which the socket is paused until the reader catches up. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** What the body needs from the exchange that owns the connection. */
export interface BodySource {
  /** the decoded response bytes (the response itself, or a zlib stream fed by it) */
  stream: Readable;
  /** longest wait between two chunks while the reader waits, ms; 0 = none */
  idleTimeoutMs: number;
  /** called with the first chunk (or the end of an empty body): stops the first-byte clock */
  onFirstByte(): void;
  /** ends the exchange: destroys the socket when `error` is given or the body is unfinished, removes listeners */
  finish(error?: unknown): void;
}

/** `TypeError: terminated` ← `SocketError: other side closed`, as Node's fetch reports a dropped body. */
export function terminatedError(cause?: unknown): TypeError {
  return new TypeError('terminated', { cause: cause ?? socketError('other side closed') });
}

/** undici's `SocketError` shape: name `SocketError`, code `UND_ERR_SOCKET`. */
export function socketError(message: string): Error {
  const error = new Error(message);
  error.name = 'SocketError';
  (error as Error & { code: string }).code = 'UND_ERR_SOCKET';
  return error;
}

/**
 * A stream error as Node's fetch reports it: a connection that closed mid-body (Node: `aborted`
 * ECONNRESET, or a premature close seen through the decompressor) is {@link terminatedError}; anything
 * else (a corrupt gzip stream) is `terminated` caused by that error.
 */
function bodyError(err: unknown): TypeError {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const closed = (code === 'ECONNRESET' && message === 'aborted') || code === 'ERR_STREAM_PREMATURE_CLOSE';
  return terminatedError(closed ? undefined : err);
}

/**
 * A response body read once, as an async iterable (see the module comment). Asking for an iterator
 * again gives the same one, so `iterator().return()` on a fresh iterator (how the SDKs cancel a body they
 * do not need) cancels the body.
 */
export class ResponseBody implements AsyncIterable<Uint8Array>, AsyncIterator<Uint8Array> {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: unknown;
  private failed = false;
  private started = false;
  private waiting?: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: unknown) => void };
  private idleTimer?: NodeJS.Timeout;
  private paused = false;
  /** true once anything read or cancelled the body (fetch's `bodyUsed`) */
  disturbed = false;

  constructor(private readonly source: BodySource) {
    const { stream } = source;
    stream.on('data', (chunk: Buffer) => this.push(chunk));
    stream.on('end', () => this.end());
    stream.on('error', (err: unknown) => this.fail(bodyError(err)));
    // a response whose socket closed before its end emits 'close' without 'end' (and, on Node 20, an
    // 'error' "aborted" first, which fail() has taken)
    stream.on('close', () => {
      if (!this.ended) this.fail(terminatedError());
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    this.disturbed = true;
    const chunk = this.queue.shift();
    if (chunk) {
      this.queuedBytes -= chunk.length;
      if (this.paused && this.queuedBytes < HIGH_WATER_BYTES / 2) {
        this.paused = false;
        this.source.stream.resume();
      }
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failed) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      // before the first chunk the first-byte clock (the exchange's) is running
      if (this.started && this.source.idleTimeoutMs > 0) {
        const limitMs = this.source.idleTimeoutMs;
        this.idleTimer = setTimeout(() => this.fail(new ProviderStallError('idle', limitMs)), limitMs);
      }
    });
  }

  /** Cancels the body: the connection is closed unless the body had already ended. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.disturbed = true;
    if (this.ended || this.failed) return Promise.resolve({ done: true, value: undefined });
    // a cancelled body reads as ended, as a cancelled web stream does
    this.ended = true;
    this.clear();
    this.source.finish(new Error('body cancelled'));
    this.waiting?.resolve({ done: true, value: undefined });
    this.waiting = undefined;
    return Promise.resolve({ done: true, value: undefined });
  }

  /** Fails the body with `error`: a pending read rejects with it, and so does every later one. */
  fail(error: unknown): void {
    if (this.ended || this.failed) return;
    this.failed = true;
    this.failure = error;
    this.clear();
    this.source.finish(error);
    this.waiting?.reject(error);
    this.waiting = undefined;
  }

  private clear(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
    clearTimeout(this.idleTimer);
  }

  /** The whole body as one buffer (for `text()`, `json()`, `arrayBuffer()`). */
  async bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(chunk as Buffer);
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  private push(chunk: Buffer): void {
    if (this.ended || this.failed || chunk.length === 0) return;
    if (!this.started) {
      this.started = true;
      this.source.onFirstByte();
    }
    if (this.waiting) {
      clearTimeout(this.idleTimer);
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.paused && this.queuedBytes >= HIGH_WATER_BYTES) {
      this.paused = true;
      this.source.stream.pause();
    }
  }

  private end(): void {
    if (this.ended || this.failed) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    this.source.onFirstByte();
    this.source.finish();
    if (this.waiting && this.queue.length === 0) this.waiting.resolve({ done: true, value: undefined });
    this.waiting = undefined;
  }
}
