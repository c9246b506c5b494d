/**
 * A provider that accepts the connection and then says nothing: the first-byte and idle
 * limits fail the attempt and the retry loop tries again, all within the retry budget; a refused
 * connection or an unknown host fails after at most 2 quick retries, naming the address. Real SDKs
 * against the loopback fake provider; limits are set small in the provider config, and nothing here
 * measures time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  catalogModel,
  createProvider,
  type CreateProviderOptions,
  type ProviderConfig,
} from '../../src/provider/index.js';
import { unreachableMessage, UNREACHABLE_BASE_DELAY_MS } from '../../src/provider/retry.js';
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

type Api = 'anthropic' | 'openai';
/** A provider of `api` at `baseURL` with these `providers.<id>` settings (the stall limits) and retry options. */
function providerFor(
  api: Api,
  baseURL: string,
  config: ProviderConfig = {},
  options: CreateProviderOptions = { baseDelayMs: 5 },
) {
  return api === 'anthropic'
    ? createProvider(
        catalogModel('anthropic/claude-haiku-4-5')!,
        envSettings(
          { ANTHROPIC_API_KEY: 'sk-ant-test-key-123456', ANTHROPIC_BASE_URL: baseURL },
          { anthropic: config },
        ),
        options,
      )
    : createProvider(
        catalogModel('openai/gpt-4.1-mini')!,
        envSettings({ OPENAI_API_KEY: 'sk-proj-test-key-123456', OPENAI_BASE_URL: baseURL }, { openai: config }),
        options,
      );
}
const base = (api: Api, f: FakeProvider) => (api === 'anthropic' ? f.anthropicBaseURL : f.openaiBaseURL);
const retries = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'retry' ? [e] : []));
const displayName = (api: Api) => (api === 'anthropic' ? 'Anthropic' : 'OpenAI');
/** a delay no test waits out: the stall limits end the attempt long before */
const FOREVER_MS = 120_000;

describe.each<Api>(['anthropic', 'openai'])('%s: a silent server', (api) => {
  it('stalling before the response headers is retried after firstByteTimeoutMs, and the retry answers', async () => {
    const fake = await fakeWith([{ delayMs: FOREVER_MS, text: 'never' }, { text: 'Second try.' }]);
    const events = await collect(
      providerFor(api, base(api, fake), { firstByteTimeoutMs: 300 }).stream(request([user('hi')])),
    );
    expect(retries(events)).toEqual([
      { type: 'retry', attempt: 1, maxRetries: 8, delayMs: expect.any(Number), reason: 'no response within 0.3 s' },
    ]);
    expect(completed(events).content).toBe('Second try.');
    expect(fake.requests).toHaveLength(2);
  }, 20_000);

  it('headers followed by silence count as no response (the first byte of the body is awaited)', async () => {
    const fake = await fakeWith([{ text: 'never', stallAfterChunks: 0 }, { text: 'Second try.' }]);
    const events = await collect(
      providerFor(api, base(api, fake), { firstByteTimeoutMs: 300 }).stream(request([user('hi')])),
    );
    expect(retries(events).map((e) => e.reason)).toEqual(['no response within 0.3 s']);
    expect(completed(events).content).toBe('Second try.');
  }, 20_000);

  it('a stream that stops after text was shown ends with the idle error, not a retry that would repeat the text', async () => {
    const fake = await fakeWith([{ text: 'slow words here', stallAfterChunks: api === 'anthropic' ? 4 : 2 }]);
    const events = await collect(
      providerFor(api, base(api, fake), { idleTimeoutMs: 300 }).stream(request([user('hi')])),
    );
    expect(events.map((e) => e.type)).toEqual(['content_delta', 'error']);
    const error = failed(events);
    expect(error.code).toBe('connection');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`${displayName(api)} API at ${base(api, fake)}: no data for 0.3 s`);
    expect(fake.requests).toHaveLength(1);
  }, 20_000);

  it('a retry attempt still silent when the retry budget runs out is cut, and the error says so', async () => {
    // the first attempt fails at once (503); the retry stalls with the default 60 s limits; the 0.5 s budget ends it
    const fake = await fakeWith([{ httpStatus: 503 }, { delayMs: FOREVER_MS, text: 'never' }]);
    const events = await collect(
      providerFor(api, base(api, fake), { retryBudgetMs: 500 }).stream(request([user('hi')])),
    );
    expect(events.map((e) => e.type)).toEqual(['retry', 'error']);
    const error = failed(events);
    expect(error.code).toBe('connection');
    expect(error.message).toBe(
      `${displayName(api)} API at ${base(api, fake)} did not answer within the retry budget of 0.5 s (gave up after 1 retry)`,
    );
  }, 20_000);

  it('a retry whose wait would end past the budget is not made', async () => {
    const fake = await fakeWith([{ httpStatus: 429, headers: { 'retry-after': '30' } }, { text: 'not asked' }]);
    const events = await collect(
      providerFor(api, base(api, fake), { retryBudgetMs: 5_000 }).stream(request([user('hi')])),
    );
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(failed(events).code).toBe('rate_limited');
    expect(fake.requests).toHaveLength(1);
  }, 20_000);

  it('every attempt stalling ends with the stall error within the budget, long before maxRetries', async () => {
    const fake = await fakeWith([], { fallback: { delayMs: FOREVER_MS, text: 'never' } });
    const events = await collect(
      providerFor(
        api,
        base(api, fake),
        { firstByteTimeoutMs: 200, retryBudgetMs: 1_500 },
        { baseDelayMs: 5, maxRetries: 50 },
      ).stream(request([user('hi')])),
    );
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    expect(failed(events).message).toMatch(
      new RegExp(
        `^${displayName(api)} API at \\S+(: no response within 0\\.2 s| did not answer within the retry budget of 1\\.5 s) \\(gave up after \\d+ retries\\)$`,
      ),
    );
    // 1.5 s of 0.2 s attempts: far fewer than the 50 retries allowed
    expect(retries(events).length).toBeLessThan(10);
    expect(retries(events).every((e) => e.reason === 'no response within 0.2 s')).toBe(true);
  }, 30_000);
});

describe('anthropic: a stall between events before any text', () => {
  it('is retried like a connection error (message_start alone yields nothing to repeat)', async () => {
    const fake = await fakeWith([{ text: 'never shown', stallAfterChunks: 1 }, { text: 'Fresh.' }]);
    const events = await collect(
      providerFor('anthropic', fake.anthropicBaseURL, { idleTimeoutMs: 300 }).stream(request([user('hi')])),
    );
    expect(retries(events).map((e) => e.reason)).toEqual(['no data for 0.3 s']);
    expect(completed(events).content).toBe('Fresh.');
  }, 20_000);
});

describe.each<Api>(['anthropic', 'openai'])('%s: nothing listening', (api) => {
  it('a refused connection fails after 2 quick retries with the address and a hint', async () => {
    const port = await closedPort();
    const url = api === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    // the default retry policy: 8 retries, 2 s first backoff — a refused connection takes neither
    const events = await collect(providerFor(api, url, {}, {}).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'error']);
    expect(retries(events).map((e) => [e.attempt, e.maxRetries, e.reason])).toEqual([
      [1, 2, 'connection refused'],
      [2, 2, 'connection refused'],
    ]);
    const [first, second] = retries(events);
    expect(first!.delayMs).toBeGreaterThanOrEqual(UNREACHABLE_BASE_DELAY_MS);
    expect(first!.delayMs).toBeLessThanOrEqual(UNREACHABLE_BASE_DELAY_MS * 1.2);
    expect(second!.delayMs).toBeGreaterThanOrEqual(UNREACHABLE_BASE_DELAY_MS * 2);
    expect(second!.delayMs).toBeLessThanOrEqual(UNREACHABLE_BASE_DELAY_MS * 2 * 1.2);
    const error = failed(events);
    expect(error.code).toBe('connection');
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port} (connection refused): is the server running?`);
  }, 20_000);

  it('a port Node\'s fetch refuses (9, on the Fetch standard\'s bad-port list) is named, not "fetch failed"', async () => {
    const url = api === 'anthropic' ? 'http://127.0.0.1:9' : 'http://127.0.0.1:9/v1';
    const events = await collect(providerFor(api, url, {}, {}).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'error']);
    expect(failed(events).message).toBe(
      "cannot reach http://127.0.0.1:9 (Node's fetch refuses port 9 as unsafe): use another port",
    );
  }, 20_000);

  it('an unknown host fails after 2 quick retries naming the host', async () => {
    const url = api === 'anthropic' ? 'http://no-such-host.invalid' : 'http://no-such-host.invalid/v1';
    const events = await collect(providerFor(api, url).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'error']);
    // without a resolver the lookup fails as EAI_AGAIN rather than ENOTFOUND: both name the host
    expect([
      'cannot reach http://no-such-host.invalid (host no-such-host.invalid not found): check the base URL',
      'cannot reach http://no-such-host.invalid (the DNS lookup of no-such-host.invalid failed): check the network connection and the base URL',
    ]).toContain(failed(events).message);
  }, 20_000);
});

describe('unreachableMessage', () => {
  it.each([
    [
      'ECONNREFUSED',
      'http://127.0.0.1:11434/v1',
      'cannot reach http://127.0.0.1:11434 (connection refused): is the server running?',
    ],
    [
      'ECONNREFUSED',
      'https://user:pw@proxy.example:8443/anthropic',
      'cannot reach https://proxy.example:8443 (connection refused): is the server running?',
    ],
    [
      'bad port',
      'http://127.0.0.1:6000/v1',
      "cannot reach http://127.0.0.1:6000 (Node's fetch refuses port 6000 as unsafe): use another port",
    ],
    [
      'ENOTFOUND',
      'https://api.antrhopic.com',
      'cannot reach https://api.antrhopic.com (host api.antrhopic.com not found): check the base URL',
    ],
    [
      'EAI_AGAIN',
      'https://api.openai.com/v1',
      'cannot reach https://api.openai.com (the DNS lookup of api.openai.com failed): check the network connection and the base URL',
    ],
  ])('%s at %s', (code, baseURL, message) => {
    expect(unreachableMessage(code, baseURL)?.message).toBe(message);
  });

  it('is undefined for failures after the connection was made', () => {
    expect(unreachableMessage('ECONNRESET', 'http://127.0.0.1:1')).toBeUndefined();
  });
});
