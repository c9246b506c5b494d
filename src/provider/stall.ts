/**
 * Stall detection for provider requests: a `fetch` wrapper, handed to both SDKs, that fails a request
 * whose server accepted the connection but stopped talking (a silent provider kept `-p`
 * waiting 55 minutes, 300 s per attempt × 8 retries).
 *
 * Two clocks, both counting only time spent waiting for the server (a slow consumer never trips them):
 * - first byte: from sending the request until the first byte of the body (the response headers alone
 *   do not count: a server that sends headers and then nothing is as silent as one that sends nothing);
 * - idle: between two chunks of the body once it flows (Anthropic `ping` events count as life).
 *
 * A stall fails the request with a {@link ProviderStallError}, which retry.ts classifies as a retryable
 * connection failure. Both SDKs wrap a rejected fetch in `APIConnectionError` (cause: our error) and
 * rethrow a body error as is, so the error is found in the cause chain; its message avoids the words
 * "timed out", which the SDKs would turn into a cause-less `APIConnectionTimeoutError`.
 */

/** The two stall clocks, in milliseconds. */
export interface StallTimeouts {
  /** longest wait from sending the request to the first byte of the response body */
  firstByteTimeoutMs: number;
  /** longest wait between two chunks of the response body */
  idleTimeoutMs: number;
}

/** Defaults of {@link StallTimeouts}: 60 s to the first byte, 120 s between chunks. */
export const DEFAULT_STALL_TIMEOUTS: StallTimeouts = { firstByteTimeoutMs: 60_000, idleTimeoutMs: 120_000 };

/** Thrown (as the fetch rejection or the body's error) when the server went silent. */
export class ProviderStallError extends Error {
  constructor(
    /** `first-byte`: nothing at all arrived; `idle`: the body stopped flowing */
    readonly phase: 'first-byte' | 'idle',
    /** the limit that was reached, ms */
    readonly limitMs: number,
  ) {
    super(phase === 'first-byte' ? `no response within ${seconds(limitMs)}` : `no data for ${seconds(limitMs)}`);
    this.name = 'ProviderStallError';
  }
}

/** `1.5 s`, `60 s`: a duration for messages. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** The first {@link ProviderStallError} in `err`'s cause chain (SDKs wrap fetch failures), if any. */
export function findStall(err: unknown): ProviderStallError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProviderStallError) return e;
  }
  return undefined;
}

/** Statuses whose responses may not carry a body (the Response constructor throws on one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` that applies `timeouts` to every request (see the module comment). The caller's
 * `init.signal` still aborts the request as before.
 */
export function stallGuardedFetch(timeouts: StallTimeouts, baseFetch: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    const detach = () => outer?.removeEventListener('abort', onOuterAbort);
    let stall: ProviderStallError | undefined;
    const stallNow = (phase: ProviderStallError['phase'], limitMs: number) => {
      stall = new ProviderStallError(phase, limitMs);
      controller.abort(stall);
    };

    const started = Date.now();
    const headerTimer = setTimeout(
      () => stallNow('first-byte', timeouts.firstByteTimeoutMs),
      timeouts.firstByteTimeoutMs,
    );
    let response: Response;
    try {
      response = await baseFetch(input, { ...init, signal: controller.signal });
    } catch (err) {
      detach();
      throw stall ?? err;
    } finally {
      clearTimeout(headerTimer);
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      detach();
      return response;
    }

    const reader = response.body.getReader();
    let firstChunk = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        // the first chunk gets what is left of the first-byte limit; later ones the idle limit
        const limitMs = firstChunk ? timeouts.firstByteTimeoutMs : timeouts.idleTimeoutMs;
        const waitMs = firstChunk
          ? Math.max(0, timeouts.firstByteTimeoutMs - (Date.now() - started))
          : timeouts.idleTimeoutMs;
        const timer = setTimeout(() => {
          stallNow(firstChunk ? 'first-byte' : 'idle', limitMs);
          reader.cancel(stall).catch(() => undefined);
        }, waitMs);
        try {
          const chunk = await reader.read();
          if (stall) throw stall;
          if (chunk.done) {
            detach();
            out.close();
            return;
          }
          firstChunk = false;
          out.enqueue(chunk.value);
        } catch (err) {
          detach();
          out.error(stall ?? err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        detach();
        return reader.cancel(reason);
      },
    });
    const guarded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(guarded, 'url', { value: response.url });
    return guarded;
  };
}
