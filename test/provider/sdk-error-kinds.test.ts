/**
 * The SDKs' own failures (a cancelled request, no connection, the SDK's timeout) are told apart by
 * their classes, for both SDKs: the `openai` SDK names every error `Error`, so its timeout was taken
 * for a fatal error and its cancellation for an API error.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError, connectionDetail, sdkFailureKind, type RetryOptions } from '../../src/provider/retry.js';

const SDKS = [
  ['Anthropic', Anthropic],
  ['OpenAI', OpenAI],
] as const;

describe.each(SDKS)('the %s SDK', (providerName, sdk) => {
  const options: RetryOptions = { providerName, baseURL: 'http://127.0.0.1:9/v1', sdkErrors: () => sdk };

  it('knows its three failure classes, and nothing else', () => {
    expect(sdkFailureKind(new sdk.APIUserAbortError(), sdk)).toBe('aborted');
    expect(sdkFailureKind(new sdk.APIConnectionError({ message: 'x' }), sdk)).toBe('connection');
    expect(sdkFailureKind(new sdk.APIConnectionTimeoutError(), sdk)).toBe('connection-timeout');
    expect(sdkFailureKind(new Error('Connection error.'), sdk)).toBeUndefined();
    expect(sdkFailureKind(new sdk.APIUserAbortError(), undefined)).toBeUndefined();
  });

  it('a cancelled request is a cancellation', () => {
    const { error, reason } = classifyError(new sdk.APIUserAbortError(), undefined, options);
    expect([error.message, error.code, error.name, reason]).toEqual([
      `${providerName} request canceled`,
      'aborted',
      'AbortError',
      'aborted',
    ]);
  });

  it('its timeout is a connection failure, retried', () => {
    const { error, reason } = classifyError(new sdk.APIConnectionTimeoutError(), undefined, options);
    expect([error.message, error.code, error.retryable, reason]).toEqual([
      `Connection to ${providerName} API at http://127.0.0.1:9/v1 failed: Request timed out.`,
      'connection',
      true,
      'connection error: Request timed out.',
    ]);
  });

  it('a refused connection names the address, from the cause the SDK wraps', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { error } = classifyError(new sdk.APIConnectionError({ cause }), undefined, options);
    expect([error.message, error.code, error.retryable]).toEqual([
      'cannot reach http://127.0.0.1:9 (connection refused): is the server running?',
      'connection',
      true,
    ]);
  });

  it('the detail of a connection failure is its cause’s, not the wrapper’s "Connection error."', () => {
    const wrapped = new sdk.APIConnectionError({ message: 'Connection error.', cause: new Error('socket exploded') });
    expect(connectionDetail(wrapped, sdk)).toBe('socket exploded');
    expect(connectionDetail(new sdk.APIConnectionTimeoutError(), sdk)).toBe('Request timed out.');
  });
});
