/**
 * Our own retry loop around one streaming provider call (the SDKs' own retries are turned off with
 * `maxRetries: 0`), and the mapping of SDK errors to {@link ProviderError}.
 *
 * Behaviour (the original's retries, with its faults fixed):
 * - up to `maxRetries` (default 8) retries on HTTP 429, 500, 502, 503, 504, 529, an `overloaded_error` /
 *   `api_error` stream event, connection failures and stalls (stall.ts: no first byte, or a body that
 *   stopped flowing) — but only while no event has been yielded, so text is never duplicated (the
 *   original retried mid-stream and duplicated text);
 * - all of it within a retry budget (`retryBudgetMs`, default 3 minutes, counted from the first
 *   attempt): a retry whose wait would end past the budget is not made, and a retry attempt still
 *   silent when the budget runs out is cut (8 stalled attempts took 55 minutes);
 * - a refused connection or an unknown host is retried at most {@link UNREACHABLE_MAX_RETRIES} times,
 *   quickly, then reported as `cannot reach <origin> (connection refused): is the server running?`
 *   (so a typo or a stopped Ollama does not look like 8 retries over ~10 minutes);
 * - backoff `baseDelayMs · 2^(n−1)` plus a random 0–20% jitter (the original added a fixed 20%);
 *   a `retry-after-ms` or `Retry-After` (seconds or HTTP date) header wins, capped at {@link MAX_RETRY_AFTER_MS};
 * - a `retry` event is yielded before each wait; the wait ends early when the signal aborts;
 * - 529 / `overloaded_error` is reported as "overloaded", never as "rate limited";
 * - messages are scrubbed of API keys.
 *
 * Knows no SDK: errors are read by shape (`status`, `headers`, `error` body, `name`), which both
 * `@anthropic-ai/sdk` and `openai` `APIError`s share.
 */
import { isAbortError } from '../abort.js';
import { describeHtmlPage } from './html-page.js';
import { findStall, seconds, type StallTimeouts } from './stall.js';
import { ProviderError, type ProviderErrorCode, type ProviderEvent } from './types.js';

/** Longest wait a server's `Retry-After` may impose before we give up waiting that long: 5 minutes. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Default of {@link RetryOptions.retryBudgetMs}: 3 minutes. */
export const DEFAULT_RETRY_BUDGET_MS = 3 * 60_000;

/** Retries after a refused connection or an unknown host: the answer will not change, so few and quick. */
export const UNREACHABLE_MAX_RETRIES = 2;

/** Longest first wait before retrying a refused connection or unknown host, ms (doubles per retry). */
export const UNREACHABLE_BASE_DELAY_MS = 500;

/** Statuses retried (the original's, plus the usual gateway errors). */
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 529]);

/** Options of {@link streamWithRetry}. */
export interface RetryOptions {
  /** e.g. `Anthropic`, `OpenAI`, `Groq`: used in messages */
  providerName: string;
  /** the base URL, named in connection-error messages (without credentials or query, see {@link displayURL}) */
  baseURL?: string;
  /** retries after the first call; default 8 */
  maxRetries?: number;
  /** first backoff in ms; default 2000 (tests pass a few ms) */
  baseDelayMs?: number;
  /**
   * longest time, from the start of the first attempt, spent failing and retrying before giving up;
   * default {@link DEFAULT_RETRY_BUDGET_MS}. The first attempt itself is never cut by it.
   */
  retryBudgetMs?: number;
  /** strings removed from every message (API keys) */
  secrets?: readonly string[];
  /** the error classes of the provider's SDK, once it is loaded (it is imported at the first stream) */
  sdkErrors?: () => SdkErrorClasses | undefined;
  /** source of jitter in [0, 1); default Math.random */
  random?: () => number;
}

/** What a provider class takes beside its connection: the retry policy and the stall limits (stall.ts). */
export interface ProviderCallOptions extends Omit<RetryOptions, 'providerName' | 'secrets' | 'baseURL' | 'sdkErrors'> {
  /** limits of silence per attempt; each missing one takes its default (`DEFAULT_STALL_TIMEOUTS`) */
  stallTimeouts?: Partial<StallTimeouts>;
}

/** One attempt: yields deltas then `complete`, or throws. The signal is the caller's. */
export type StreamAttempt = (signal: AbortSignal | undefined) => AsyncIterable<ProviderEvent>;

/** Thrown by an attempt whose stream ended before the API's end marker (dropped connection). */
export class StreamTruncatedError extends Error {
  constructor(message = 'the response stream ended before the message was complete') {
    super(message);
    this.name = 'StreamTruncatedError';
  }
}

/**
 * Runs `attempt`, retrying as described in the module comment. Never throws: the last event is
 * `complete` or `error` (an aborted signal gives an `error` whose `name` is `AbortError`).
 */
export async function* streamWithRetry(
  attempt: StreamAttempt,
  signal: AbortSignal | undefined,
  options: RetryOptions,
): AsyncGenerator<ProviderEvent> {
  const maxRetries = options.maxRetries ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 2000;
  const budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
  const random = options.random ?? Math.random;
  const startedAt = Date.now();
  for (let retries = 0; ; retries++) {
    let yielded = 0;
    // a retry attempt gets what is left of the budget to produce its first event
    const attemptControl = retries > 0 ? budgetedAttempt(signal, budgetMs - (Date.now() - startedAt)) : undefined;
    try {
      if (signal?.aborted) throw abortError(options);
      for await (const event of attempt(attemptControl?.signal ?? signal)) {
        if (yielded++ === 0) attemptControl?.release();
        yield event;
        if (event.type === 'complete' || event.type === 'error') return;
      }
      if (attemptControl?.expired() && !signal?.aborted) throw budgetError(options, budgetMs);
      if (signal?.aborted) throw abortError(options);
      throw new StreamTruncatedError('the provider returned no final message');
    } catch (err) {
      const cutByBudget = attemptControl?.expired() === true && !signal?.aborted;
      const failure = cutByBudget
        ? { error: budgetError(options, budgetMs), reason: 'retry budget used up' }
        : classifyError(err, signal, options);
      const unreachable = failure.unreachable === true;
      const retryCap = unreachable ? Math.min(maxRetries, UNREACHABLE_MAX_RETRIES) : maxRetries;
      const backoff = (unreachable ? Math.min(baseDelayMs, UNREACHABLE_BASE_DELAY_MS) : baseDelayMs) * 2 ** retries;
      const delayMs = Math.round(failure.retryAfterMs ?? backoff + backoff * 0.2 * random());
      const withinBudget = Date.now() - startedAt + delayMs < budgetMs;
      const canRetry = failure.error.retryable && !cutByBudget && yielded === 0 && retries < retryCap && withinBudget;
      if (!canRetry) {
        const giveUp = retries > 0 && failure.error.retryable && !unreachable;
        yield { type: 'error', error: giveUp ? withRetryCount(failure.error, retries) : failure.error };
        return;
      }
      yield { type: 'retry', attempt: retries + 1, maxRetries: retryCap, delayMs, reason: failure.reason };
      if (!(await sleep(delayMs, signal))) {
        yield { type: 'error', error: abortError(options) };
        return;
      }
    } finally {
      attemptControl?.release();
    }
  }
}

/** A retry attempt's signal: the caller's, plus an abort when `remainingMs` pass before {@link release}. */
function budgetedAttempt(signal: AbortSignal | undefined, remainingMs: number) {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => {
      expired = true;
      controller.abort();
    },
    Math.max(0, remainingMs),
  );
  return {
    signal: controller.signal,
    expired: () => expired,
    release() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

function budgetError(options: RetryOptions, budgetMs: number): ProviderError {
  const at = options.baseURL ? ` at ${displayURL(options.baseURL)}` : '';
  return new ProviderError(
    `${options.providerName} API${at} did not answer within the retry budget of ${seconds(budgetMs)}`,
    {
      retryable: true,
      code: 'connection',
    },
  );
}

/** A classified failure: the error to report, a short reason for `retry` events, and the server's wait. */
export interface ClassifiedError {
  error: ProviderError;
  reason: string;
  retryAfterMs?: number;
  /** nothing listens at the address, or the host does not exist: retried only a few times, quickly */
  unreachable?: boolean;
}

/**
 * Maps anything an SDK or our attempt threw to a {@link ProviderError} with a key-free message.
 * HTTP 429 → `rate_limited`; 529 or body type `overloaded_error` → `overloaded`; 500/502/503/504 or
 * `api_error`/`server_error` → `server_error`; connection failures → `connection` ("Connection to
 * Anthropic API at <baseURL> failed: ECONNREFUSED"); all retryable.
 * 401/403 → `auth`; other 4xx → `invalid_request`.
 */
export function classifyError(err: unknown, signal: AbortSignal | undefined, options: RetryOptions): ClassifiedError {
  if (err instanceof ProviderError) return { error: err, reason: err.code };
  const classes = options.sdkErrors?.();
  if (signal?.aborted || isAbort(err, classes)) return { error: abortError(options), reason: 'aborted' };
  const e = (err ?? {}) as SdkErrorShape;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const body = e.error as { type?: string; message?: string; error?: { type?: string; message?: string } } | undefined;
  const apiType = body?.error?.type ?? (typeof e.type === 'string' ? e.type : undefined) ?? body?.type;
  const rawMessage = body?.error?.message ?? body?.message ?? (err instanceof Error ? err.message : String(err));
  // a proxy's HTML error page must not flood the UI: named in one line, anything else cut at 500 characters
  const described = describeHtmlPage(rawMessage);
  const apiMessage = described.length > 500 ? `${described.slice(0, 500)}…` : described;
  const name = options.providerName;
  const scrub = (text: string) => scrubSecrets(text, options.secrets);
  const make = (code: ProviderErrorCode, label: string, retryable: boolean, reason: string): ClassifiedError => ({
    error: new ProviderError(scrub(`${label}: ${apiMessage}`), {
      status,
      retryable,
      code,
      cause: scrubbedCause(err, scrub),
    }),
    reason,
    retryAfterMs: retryable ? retryAfterMs(e.headers) : undefined,
  });
  const http = status !== undefined ? ` (HTTP ${status})` : '';

  if (status === 529 || apiType === 'overloaded_error') {
    return make('overloaded', `${name} API is overloaded${http}`, true, `overloaded${http}`);
  }
  if (status === 429) return make('rate_limited', `${name} API rate limit reached${http}`, true, `rate limited${http}`);
  if (status !== undefined && RETRYABLE_STATUS.has(status)) {
    return make('server_error', `${name} API server error${http}`, true, `server error${http}`);
  }
  if (status === undefined && (apiType === 'api_error' || apiType === 'server_error')) {
    return make('server_error', `${name} API server error`, true, 'server error');
  }
  if (status === 401 || status === 403) {
    return make('auth', `${name} API refused the credentials${http}; check the API key`, false, 'auth');
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return make('invalid_request', `${name} API rejected the request${http}`, false, 'invalid request');
  }
  const stall = status === undefined ? findStall(err) : undefined;
  if (stall) {
    const at = options.baseURL ? ` at ${displayURL(options.baseURL)}` : '';
    return {
      error: new ProviderError(scrub(`${name} API${at}: ${stall.message}`), {
        retryable: true,
        code: 'connection',
        cause: scrubbedCause(err, scrub),
      }),
      reason: stall.message,
    };
  }
  if (status === undefined && isConnectionError(err, classes)) {
    const detail = connectionDetail(err, classes);
    const unreachable = unreachableMessage(detail, options.baseURL);
    if (unreachable) {
      return {
        error: new ProviderError(scrub(unreachable.message), {
          retryable: true,
          code: 'connection',
          cause: scrubbedCause(err, scrub),
        }),
        reason: unreachable.reason,
        unreachable: true,
      };
    }
    const at = options.baseURL ? ` at ${displayURL(options.baseURL)}` : '';
    return {
      error: new ProviderError(scrub(`Connection to ${name} API${at} failed: ${detail || apiMessage}`), {
        status,
        retryable: true,
        code: 'connection',
        cause: scrubbedCause(err, scrub),
      }),
      reason: `connection error${detail ? `: ${detail}` : ''}`,
    };
  }
  return make('other', `${name} API error${http}`, false, 'error');
}

/**
 * The message for a connection that cannot be made at all, by system error code, or undefined for other
 * failures: `cannot reach http://127.0.0.1:11434 (connection refused): is the server running?`
 * (ECONNREFUSED), `cannot reach https://api.example.com (host api.example.com not found): check the
 * base URL` (ENOTFOUND), and the like for a failed DNS lookup (EAI_AGAIN). The address is the base URL's
 * origin, since that is what was refused.
 */
export function unreachableMessage(
  code: string,
  baseURL: string | undefined,
): { message: string; reason: string } | undefined {
  let origin = baseURL ? displayURL(baseURL) : 'the server';
  let host = 'the host';
  try {
    if (baseURL) {
      const url = new URL(baseURL);
      origin = url.origin;
      host = url.hostname;
    }
  } catch {
    // an unparsable base URL is shown as given
  }
  switch (code) {
    case 'ECONNREFUSED':
      return {
        message: `cannot reach ${origin} (connection refused): is the server running?`,
        reason: 'connection refused',
      };
    case 'ENOTFOUND':
      return {
        message: `cannot reach ${origin} (host ${host} not found): check the base URL`,
        reason: `host ${host} not found`,
      };
    case 'bad port': {
      // undici refuses the ports browsers block (the Fetch standard's "bad port" list), before connecting
      const port = baseURL ? new URL(baseURL).port : '';
      return {
        message: `cannot reach ${origin} (Node's fetch refuses port ${port || 'this port'} as unsafe): use another port`,
        reason: 'port refused by fetch',
      };
    }
    case 'EAI_AGAIN':
      return {
        message: `cannot reach ${origin} (the DNS lookup of ${host} failed): check the network connection and the base URL`,
        reason: `DNS lookup of ${host} failed`,
      };
    default:
      return undefined;
  }
}

/** `baseURL` for messages: without credentials, query or fragment (they may carry a key), no trailing slash. */
export function displayURL(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return baseURL.replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
}

/** Replaces every secret (and anything shaped like an API key or bearer token) with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 6 && secret !== 'dummy') out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/\b(?:sk|xai|gsk)[-_][A-Za-z0-9_-]{8,}/g, '[redacted]')
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]');
}

/**
 * Milliseconds a server asked us to wait: `retry-after-ms`, else `retry-after` as seconds or an HTTP
 * date; undefined when absent or unparsable. Clamped to 0…{@link MAX_RETRY_AFTER_MS}. `headers` is a
 * fetch `Headers` or a plain lower-case record.
 */
export function retryAfterMs(headers: unknown): number | undefined {
  const get = (name: string): string | undefined => {
    if (!headers || typeof headers !== 'object') return undefined;
    const h = headers as { get?: (n: string) => string | null } & Record<string, unknown>;
    const value = typeof h.get === 'function' ? h.get(name) : h[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  let ms: number | undefined;
  const msHeader = get('retry-after-ms');
  if (msHeader !== undefined && Number.isFinite(Number(msHeader))) ms = Number(msHeader);
  const header = get('retry-after');
  if (ms === undefined && header !== undefined) {
    if (/^\d+(\.\d+)?$/.test(header)) ms = Number(header) * 1000;
    else if (!Number.isNaN(Date.parse(header))) ms = Date.parse(header) - Date.now();
  }
  if (ms === undefined) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/** Waits `ms`; resolves false at once if `signal` aborts (or has aborted), true when the time is up. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface SdkErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  type?: unknown;
  name?: unknown;
  code?: unknown;
  cause?: unknown;
}

function abortError(options: RetryOptions): ProviderError {
  const error = new ProviderError(`${options.providerName} request canceled`, { code: 'aborted' });
  error.name = 'AbortError';
  return error;
}

function withRetryCount(error: ProviderError, retries: number): ProviderError {
  if (error.code === 'aborted') return error;
  const again = new ProviderError(
    `${error.message} (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})`,
    {
      status: error.status,
      retryable: error.retryable,
      code: error.code,
      cause: error.cause,
    },
  );
  again.name = error.name;
  return again;
}

/** What one of an SDK's own error classes says about a failure. */
export type SdkFailureKind = 'aborted' | 'connection' | 'connection-timeout';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The error classes a provider's SDK throws beside HTTP errors (`@anthropic-ai/sdk` and `openai` both
 * export them, `core/error`, and hang them on the client class). Checked with `instanceof`: the
 * `openai` SDK's errors are all named `Error`, so their names say nothing.
 */
export interface SdkErrorClasses {
  /** the caller's signal ended the request */
  APIUserAbortError: ErrorClass;
  /** no response: refused, reset, unknown host ("Connection error.", the reason in its cause) */
  APIConnectionError: ErrorClass;
  /** the SDK's own request timeout ("Request timed out."); a kind of APIConnectionError */
  APIConnectionTimeoutError: ErrorClass;
}

/** The kind of `err` among `classes`; undefined without classes (the SDK not loaded yet) or for any other error. */
export function sdkFailureKind(err: unknown, classes: SdkErrorClasses | undefined): SdkFailureKind | undefined {
  if (!classes) return undefined;
  if (err instanceof classes.APIUserAbortError) return 'aborted';
  // the subclass first
  if (err instanceof classes.APIConnectionTimeoutError) return 'connection-timeout';
  if (err instanceof classes.APIConnectionError) return 'connection';
  return undefined;
}

function isAbort(err: unknown, classes: SdkErrorClasses | undefined): boolean {
  return isAbortError(err) || sdkFailureKind(err, classes) === 'aborted';
}

const CONNECTION_CODES =
  /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

function isConnectionError(err: unknown, classes: SdkErrorClasses | undefined): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as SdkErrorShape).cause, depth++) {
    const { code } = e as SdkErrorShape;
    const kind = sdkFailureKind(e, classes);
    if (e instanceof StreamTruncatedError || kind === 'connection' || kind === 'connection-timeout') return true;
    if (typeof code === 'string' && CONNECTION_CODES.test(code)) return true;
    const message = e instanceof Error ? e.message : '';
    if (/^(terminated|fetch failed|other side closed|socket hang up)$/i.test(message)) return true;
  }
  return false;
}

/**
 * The innermost system error code of a connection failure (`ECONNREFUSED`), else its innermost message
 * (Node's fetch wraps the reason: `fetch failed` ← `bad port`). `classes`: the SDK's, when it threw `err`.
 */
export function connectionDetail(err: unknown, classes?: SdkErrorClasses): string {
  let code = '';
  let message = '';
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as SdkErrorShape).cause, depth++) {
    const shape = e as SdkErrorShape;
    if (typeof shape.code === 'string') code = shape.code;
    // the SDK's wrapper says only "Connection error.": the cause's message says what happened
    else if (e instanceof Error && sdkFailureKind(e, classes) !== 'connection' && e.message) message = e.message;
  }
  return code || message;
}

/** A copy of the cause with a scrubbed message, so logging `error.cause` cannot leak a key either. */
function scrubbedCause(err: unknown, scrub: (text: string) => string): Error | undefined {
  if (!(err instanceof Error)) return undefined;
  const copy = new Error(scrub(err.message));
  copy.name = err.name;
  return copy;
}
