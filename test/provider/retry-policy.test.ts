/**
 * The pure parts of the retry policy and request shaping: Retry-After parsing, error classification,
 * key scrubbing, and which thinking form a Claude model takes.
 */
import { describe, expect, it } from 'vitest';
import { thinkingForm } from '../../src/provider/anthropic.js';
import { MAX_RETRY_AFTER_MS, classifyError, retryAfterMs, scrubSecrets } from '../../src/provider/retry.js';

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after as seconds or an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs({ 'retry-after': '1.5' })).toBe(1500);
    const date = new Date(Date.now() + 10_000).toUTCString();
    const ms = retryAfterMs(new Headers({ 'retry-after': date }))!;
    expect(ms).toBeGreaterThan(8000);
    expect(ms).toBeLessThanOrEqual(10_000);
  });

  it('ignores garbage, clamps past dates to 0 and long waits to the maximum', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2015 00:00:00 GMT' }))).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': '86400' }))).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('classifyError', () => {
  const options = { providerName: 'Anthropic', secrets: ['my-custom-secret-value'] };

  it('treats an overloaded_error stream event (no HTTP status) as a retryable overload', () => {
    const err = Object.assign(new Error('Overloaded'), {
      status: undefined,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const { error, reason } = classifyError(err, undefined, options);
    expect(error).toMatchObject({
      code: 'overloaded',
      retryable: true,
      message: 'Anthropic API is overloaded: Overloaded',
    });
    expect(reason).toBe('overloaded');
  });

  it('does not retry a 400 and keeps its message', () => {
    const err = Object.assign(new Error('400'), {
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: 'bad thing' } },
    });
    expect(classifyError(err, undefined, options).error).toMatchObject({
      code: 'invalid_request',
      retryable: false,
      status: 400,
      message: 'Anthropic API rejected the request (HTTP 400): bad thing',
    });
  });

  it('scrubs the configured secret even when it looks like no known key format', () => {
    const err = Object.assign(new Error('x'), {
      status: 403,
      error: { error: { message: 'key my-custom-secret-value is revoked' } },
    });
    expect(classifyError(err, undefined, options).error.message).toBe(
      'Anthropic API refused the credentials (HTTP 403); check the API key: key [redacted] is revoked',
    );
  });
});

describe('scrubSecrets', () => {
  it('removes known key shapes and bearer tokens', () => {
    expect(scrubSecrets('sk-ant-api03-abcdefghijkl and gsk_1234567890abc and Bearer abc.def.ghi-jkl')).toBe(
      '[redacted] and [redacted] and Bearer [redacted]',
    );
  });
});

describe('thinkingForm', () => {
  it('uses the adaptive form from Claude 4.6 on, the budget form before', () => {
    expect(
      [
        'claude-sonnet-5-5',
        'claude-opus-5',
        'claude-opus-4-6',
        'claude-sonnet-4-6',
        'claude-fable-5-1',
        'claude-mythos-preview',
      ].map(thinkingForm),
    ).toEqual(['adaptive', 'adaptive', 'adaptive', 'adaptive', 'adaptive', 'adaptive']);
    expect(
      [
        'claude-opus-4-5-20251101',
        'claude-haiku-4-5-20251001',
        'claude-opus-4-20250514',
        'claude-3-7-sonnet-20250219',
        'my-proxy-model',
      ].map(thinkingForm),
    ).toEqual(['budget', 'budget', 'budget', 'budget', 'budget']);
  });
});
