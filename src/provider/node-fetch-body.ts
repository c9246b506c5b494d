/**
 * The body of a {@link nodeFetch} response: the bytes of a `node:http` response as an async iterable of
 * `Uint8Array` chunks, the form both SDKs read a body in when it offers one (`@anthropic-ai/sdk`
 * `internal/shims` `ReadableStreamToAsyncIterable`, `openai` the same: `stream[Symbol.asyncIterator]`
 * is used before `getReader()`). A web `ReadableStream` is not built: Node's is written in JavaScript and
 * costs more on the main thread than the HTTP parsing itself.
 *
 * The body tells the exchange's stall clock (node-fetch-clock.ts) of its first byte and of every wait for
 * a chunk with none queued, so a slow reader never trips the idle clock. A chunk that arrives while the
 * reader waits goes straight to it (no queue, no timer). Errors are those Node's fetch (undici) gives, so
 * the SDKs and retry.ts classify them as before: a connection that closes mid-body is
 * `TypeError: terminated` caused by `SocketError: other side closed` (`UND_ERR_SOCKET`).
 */
import type { Readable } from 'node:stream';
import type { BodyClock } from './node-fetch-clock.js';

/** Bytes queued unread past which the socket is paused until the reader catches up. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** The exchange that owns the connection, as the body sees it. */
export interface BodyOwner {
  /** ends the exchange: destroys the socket when `error` is given (the body failed or was cancelled), removes listeners */
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
  /** the pending read's settle functions, while the reader waits */
  private resolveRead: ((result: IteratorResult<Uint8Array>) => void) | undefined;
  private rejectRead: ((error: unknown) => void) | undefined;
  private paused = false;
  /** true once anything read or cancelled the body (fetch's `bodyUsed`) */
  disturbed = false;

  /**
   * @param stream the decoded response bytes (the response itself, or a zlib stream fed by it)
   * @param clock the exchange's stall clocks, told of the first byte and of the reader's waits
   */
  constructor(
    private readonly stream: Readable,
    private readonly clock: BodyClock,
    private readonly owner: BodyOwner,
  ) {
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
        this.stream.resume();
      }
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failed) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.resolveRead = resolve;
      this.rejectRead = reject;
      this.clock.waitStarted();
    });
  }

  /** Cancels the body: the connection is closed unless the body had already ended. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.disturbed = true;
    if (this.ended || this.failed) return Promise.resolve({ done: true, value: undefined });
    // a cancelled body reads as ended, as a cancelled web stream does
    this.ended = true;
    this.clear();
    this.owner.finish(new Error('body cancelled'));
    this.settleRead()?.resolve({ done: true, value: undefined });
    return Promise.resolve({ done: true, value: undefined });
  }

  /** Fails the body with `error`: a pending read rejects with it, and so does every later one. */
  fail(error: unknown): void {
    if (this.ended || this.failed) return;
    this.failed = true;
    this.failure = error;
    this.clear();
    this.owner.finish(error);
    this.settleRead()?.reject(error);
  }

  private clear(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  /** Ends the reader's wait, if it waits: its settle functions (to call once). */
  private settleRead():
    { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void } | undefined {
    const resolve = this.resolveRead;
    const reject = this.rejectRead;
    if (!resolve || !reject) return undefined;
    this.resolveRead = this.rejectRead = undefined;
    this.clock.waitEnded();
    return { resolve, reject };
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
      this.clock.firstByte();
    }
    const resolve = this.resolveRead;
    if (resolve) {
      // the reader waits: the chunk goes straight to it
      this.resolveRead = this.rejectRead = undefined;
      this.clock.waitEnded();
      resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.paused && this.queuedBytes >= HIGH_WATER_BYTES) {
      this.paused = true;
      this.stream.pause();
    }
  }

  private end(): void {
    if (this.ended || this.failed) return;
    this.ended = true;
    this.clock.firstByte();
    this.owner.finish();
    // a waiting reader has nothing queued (a chunk would have gone to it)
    this.settleRead()?.resolve({ done: true, value: undefined });
  }
}
