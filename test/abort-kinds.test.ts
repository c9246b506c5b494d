/**
 * Cancellation and timeouts as error kinds: the platform's errors, ours, and what is neither.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { abortError, abortReason, interruptKind, isAbortError } from '../src/abort.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('interruptKind', () => {
  it('reads the platform’s cancellations and timeouts', async () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(interruptKind(aborted.signal.reason)).toBe('aborted');
    expect(interruptKind(await rejection(readFile(fileURLToPath(import.meta.url), { signal: aborted.signal })))).toBe(
      'aborted',
    );
    expect(interruptKind(await rejection(sleep(10, undefined, { signal: aborted.signal })))).toBe('aborted');
    const timedOut = AbortSignal.timeout(1);
    await sleep(20);
    expect(interruptKind(timedOut.reason)).toBe('timeout');
  });

  it('reads ours', () => {
    expect(interruptKind(abortError())).toBe('aborted');
    expect(abortError('The sub-agent was canceled').message).toBe('The sub-agent was canceled');
  });

  it('says nothing of other errors, of objects that only look like one, or of names Object.prototype has', () => {
    expect(interruptKind(new Error('boom'))).toBeUndefined();
    expect(interruptKind({ name: 'AbortError', message: 'not an Error' })).toBeUndefined();
    expect(interruptKind('AbortError')).toBeUndefined();
    expect(interruptKind(undefined)).toBeUndefined();
    expect(interruptKind(Object.assign(new Error('x'), { name: 'toString' }))).toBeUndefined();
    expect(isAbortError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(false);
  });
});

describe('abortReason', () => {
  it('is the signal’s own reason when that is a cancellation, else a new cancellation', () => {
    const plain = new AbortController();
    plain.abort();
    expect(abortReason(plain.signal)).toBe(plain.signal.reason);
    const withText = new AbortController();
    withText.abort('the person pressed esc');
    const reason = abortReason(withText.signal);
    expect([isAbortError(reason), reason.message]).toEqual([true, 'The operation was aborted']);
  });
});
