/**
 * Cancellation and timeouts as error kinds. The platform reports both as errors whose `name` says the
 * kind (the WHATWG DOM standard's `AbortError` for an aborted signal and `TimeoutError` for
 * `AbortSignal.timeout`, thrown as `DOMException`s; Node's fs, fetch, timers and child processes throw
 * errors named the same). This module is the one place those names are read: the rest of the code
 * asks {@link interruptKind} or {@link isAbortError}, and throws {@link abortError}.
 */

/** How an operation was interrupted: `aborted` (a signal, esc) or `timeout` (a time limit). */
export type InterruptKind = 'aborted' | 'timeout';

/** The names the platform gives each kind (WHATWG DOM, "DOMException names" table). */
const KIND_BY_NAME: ReadonlyMap<string, InterruptKind> = new Map([
  ['AbortError', 'aborted'],
  ['TimeoutError', 'timeout'],
]);

/** The kind of `err` when it reports a cancellation or a timeout; undefined for any other error. */
export function interruptKind(err: unknown): InterruptKind | undefined {
  // a DOMException is an Error in Node 17 and later
  return err instanceof Error ? KIND_BY_NAME.get(err.name) : undefined;
}

/** true when `err` reports a cancellation (an aborted signal, ours or the platform's). */
export function isAbortError(err: unknown): err is Error {
  return interruptKind(err) === 'aborted';
}

/** A cancellation error, as our code throws when the operation it runs is cancelled. */
export function abortError(message = 'The operation was aborted'): Error {
  const err = new Error(message);
  err.name = 'AbortError';
  return err;
}

/** The error an aborted `signal` reports: its reason when that is a cancellation error, else a new one. */
export function abortReason(signal: AbortSignal): Error {
  return isAbortError(signal.reason) ? signal.reason : abortError();
}

/**
 * `promise`, or a rejection with {@link abortReason} as soon as `signal` aborts (at once when it
 * already has). What the promise does after that is ignored.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
