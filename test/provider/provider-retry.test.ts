/**
 * Retries, failures and cancellation of both providers against the fake provider (real SDKs, our own
 * retry loop with a tiny base delay).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, createProvider, type CreateProviderOptions } from '../../src/provider/index.js';
import type { ProviderEvent } from '../../src/provider/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collect, completed, envSettings, failed, request, user } from '../support/provider-helpers.js';
import { closedPort } from '../support/ports.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fakeWith(...args: Parameters<typeof startFakeProvider>) {
  const f = await startFakeProvider(...args);
  fakes.push(f);
  return f;
}

const ANTHROPIC_KEY = 'sk-ant-secret-key-abcdef123456';
const OPENAI_KEY = 'sk-proj-secret-openai-987654321';

type Api = 'anthropic' | 'openai';
function providerFor(api: Api, baseURL: string, options: CreateProviderOptions = {}) {
  const retry = { baseDelayMs: 5, maxRetries: 3, ...options };
  return api === 'anthropic'
    ? createProvider(
        catalogModel('anthropic/claude-haiku-4-5')!,
        envSettings({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: baseURL }),
        retry,
      )
    : createProvider(
        catalogModel('openai/gpt-4.1-mini')!,
        envSettings({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: baseURL }),
        retry,
      );
}
const base = (api: Api, f: FakeProvider) => (api === 'anthropic' ? f.anthropicBaseURL : f.openaiBaseURL);
const texts = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'content_delta' ? [e.text] : []));

describe.each<Api>(['anthropic', 'openai'])('%s retries', (api) => {
  it('retries a 429 with Retry-After 0, emits one retry event and streams the text once', async () => {
    const fake = await fakeWith([{ httpStatus: 429, headers: { 'retry-after': '0' } }, { text: 'Hello there.' }]);
    const events = await collect(providerFor(api, base(api, fake)).stream(request([user('hi')])));
    expect(events[0]).toEqual({
      type: 'retry',
      attempt: 1,
      maxRetries: 3,
      delayMs: 0,
      reason: 'rate limited (HTTP 429)',
    });
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(texts(events)).toEqual(['Hello ', 'there.']);
    expect(completed(events).content).toBe('Hello there.');
    expect(fake.requests).toHaveLength(2);
  });

  it('reports 529 as overloaded (not rate limited) once retries are exhausted', async () => {
    const fake = await fakeWith([{ httpStatus: 529 }, { httpStatus: 529 }, { httpStatus: 529 }]);
    const events = await collect(providerFor(api, base(api, fake), { maxRetries: 2 }).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'error']);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason)).toEqual([
      'overloaded (HTTP 529)',
      'overloaded (HTTP 529)',
    ]);
    const error = failed(events);
    expect(error.code).toBe('overloaded');
    expect(error.status).toBe(529);
    expect(error.message).toMatch(/overloaded/i);
    expect(error.message).not.toMatch(/rate limit/i);
    expect(error.message).toMatch(/gave up after 2 retries\)$/);
    expect(fake.requests).toHaveLength(3);
  });

  it('backs off base × 2^(n−1) plus at most 20% jitter on 500/503 without Retry-After', async () => {
    const fake = await fakeWith([{ httpStatus: 500 }, { httpStatus: 503 }, { text: 'ok' }]);
    const events = await collect(providerFor(api, base(api, fake), { baseDelayMs: 20 }).stream(request([user('hi')])));
    const retries = events.filter((e): e is Extract<ProviderEvent, { type: 'retry' }> => e.type === 'retry');
    expect(retries.map((r) => r.reason)).toEqual(['server error (HTTP 500)', 'server error (HTTP 503)']);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(20);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(24);
    expect(retries[1]!.delayMs).toBeGreaterThanOrEqual(40);
    expect(retries[1]!.delayMs).toBeLessThanOrEqual(48);
    expect(completed(events).content).toBe('ok');
  });

  it('honours retry-after-ms over the backoff', async () => {
    const fake = await fakeWith([{ httpStatus: 429, headers: { 'retry-after-ms': '35' } }, { text: 'ok' }]);
    const events = await collect(
      providerFor(api, base(api, fake), { baseDelayMs: 5000 }).stream(request([user('hi')])),
    );
    expect(events[0]).toMatchObject({ type: 'retry', delayMs: 35 });
    expect(completed(events).content).toBe('ok');
  });

  it('gives an error, without retrying, when the stream drops after text was streamed', async () => {
    const fake = await fakeWith([
      { text: 'one two three four', dropAfterChunks: api === 'anthropic' ? 5 : 3 },
      { text: 'never' },
    ]);
    const events = await collect(providerFor(api, base(api, fake)).stream(request([user('hi')])));
    expect(texts(events).length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
    expect(failed(events).code).toBe('connection');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a connection dropped before any response, then succeeds', async () => {
    const fake = await fakeWith([{ dropAfterChunks: 0 }, { text: 'back' }]);
    const events = await collect(providerFor(api, base(api, fake)).stream(request([user('hi')])));
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1 });
    expect((events[0] as { reason: string }).reason).toMatch(/^connection error/);
    expect(completed(events).content).toBe('back');
  });

  it('retries a mid-stream overload error that came before any content, but not one after content', async () => {
    const overloaded = { type: api === 'anthropic' ? 'overloaded_error' : 'server_error', message: 'Overloaded' };
    const fake = await fakeWith([
      { text: 'lost', streamError: overloaded },
      { text: 'first try text', streamError: overloaded, streamErrorAfterChunks: api === 'anthropic' ? 5 : 3 },
    ]);
    const events = await collect(providerFor(api, base(api, fake)).stream(request([user('hi')])));
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1 });
    expect(texts(events).join('')).not.toContain('lost');
    const error = failed(events);
    expect(error.code).toBe(api === 'anthropic' ? 'overloaded' : 'server_error');
    expect(error.message).toContain('Overloaded');
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a refused connection until the server is up', async () => {
    const port = await closedPort();
    const url = api === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const events: ProviderEvent[] = [];
    for await (const event of providerFor(api, url, { baseDelayMs: 300 }).stream(request([user('hi')]))) {
      events.push(event);
      if (event.type === 'retry' && event.attempt === 1) await fakeWith([{ text: 'up now' }], { port });
    }
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, reason: 'connection refused' });
    expect(completed(events).content).toBe('up now');
  });

  it('reports a refused connection after the last retry, naming the address', async () => {
    const port = await closedPort();
    const url = api === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const events = await collect(providerFor(api, url, { maxRetries: 1 }).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['retry', 'error']);
    const error = failed(events);
    expect(error.code).toBe('connection');
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port} (connection refused): is the server running?`);
  });

  it('ends promptly with AbortError when aborted mid-stream', async () => {
    // the stream stalls after the first text delta; the abort must not wait for another chunk
    const fake = await fakeWith([{ text: 'slow words here', stallAfterChunks: api === 'anthropic' ? 4 : 2 }]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    let abortedAt = 0;
    for await (const event of providerFor(api, base(api, fake)).stream(
      request([user('hi')], { signal: controller.signal }),
    )) {
      events.push(event);
      if (event.type === 'content_delta') {
        setTimeout(() => controller.abort(), 50);
        abortedAt = Date.now() + 50;
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(texts(events)).toEqual(['slow ']);
    expect(failed(events).name).toBe('AbortError');
    expect(failed(events).code).toBe('aborted');
  });

  it('ends promptly with AbortError when aborted during a retry wait', async () => {
    const fake = await fakeWith([{ httpStatus: 429, headers: { 'retry-after': '60' } }]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const started = Date.now();
    for await (const event of providerFor(api, base(api, fake)).stream(
      request([user('hi')], { signal: controller.signal }),
    )) {
      events.push(event);
      if (event.type === 'retry') setTimeout(() => controller.abort(), 20);
    }
    expect(events[0]).toMatchObject({ type: 'retry', delayMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failed(events).name).toBe('AbortError');
  });

  it('never puts the API key in an error message', async () => {
    const key = api === 'anthropic' ? ANTHROPIC_KEY : OPENAI_KEY;
    const fake = await fakeWith([{ httpStatus: 401, message: `Invalid API key: ${key} (Bearer ${key})` }]);
    const error = failed(await collect(providerFor(api, base(api, fake)).stream(request([user('hi')]))));
    expect(error.code).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(key);
    expect(String((error.cause as Error | undefined)?.message)).not.toContain(key);
    expect(error.message).toContain('[redacted]');
  });
});
