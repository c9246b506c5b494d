/**
 * What both providers do with servers that misbehave: an HTTP 200 that is no event stream (wrong base
 * URL), OpenAI-compatible tool-call quirks, nonsense token counts, and tool calls with a stop reason
 * that does not say so. Real SDKs against the fake provider.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { finishReasonOf as anthropicFinish } from '../../src/provider/anthropic.js';
import { catalogModel, createProvider } from '../../src/provider/index.js';
import { argumentsText, finishReasonOf as openaiFinish } from '../../src/provider/openai.js';
import { displayURL } from '../../src/provider/retry.js';
import { MAX_TOKEN_COUNT, sanitizeUsage, tokenCount } from '../../src/provider/wire.js';
import { startFakeProvider, type Chunk, type FakeProvider, type FakeTurn } from '../support/fake-provider.js';
import { collect, completed, envSettings, failed, request, user } from '../support/provider-helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fakeWith(turns: FakeTurn[]) {
  const f = await startFakeProvider(turns);
  fakes.push(f);
  return f;
}

type Api = 'anthropic' | 'openai';
const KEY = { anthropic: 'sk-ant-robust-key-123456', openai: 'sk-robust-openai-key-654321' };
const base = (api: Api, f: FakeProvider) => (api === 'anthropic' ? f.anthropicBaseURL : f.openaiBaseURL);
function providerFor(api: Api, f: FakeProvider) {
  // retries allowed: the point is that an invalid answer is not retried
  const retry = { baseDelayMs: 5, maxRetries: 3 };
  return api === 'anthropic'
    ? createProvider(
        catalogModel('anthropic/claude-haiku-4-5')!,
        envSettings({ ANTHROPIC_API_KEY: KEY.anthropic, ANTHROPIC_BASE_URL: base(api, f) }),
        retry,
      )
    : createProvider(
        catalogModel('openai/gpt-4.1-mini')!,
        envSettings({ OPENAI_API_KEY: KEY.openai, OPENAI_BASE_URL: base(api, f) }),
        retry,
      );
}
const expected = (api: Api, url: string, detail: string) =>
  api === 'anthropic'
    ? `Anthropic: the server at ${url} did not answer with an Anthropic Messages event stream (${detail}) — check the base URL`
    : `OpenAI: the server at ${url} did not answer with an OpenAI Chat Completions event stream (${detail}) — check the base URL`;

describe.each<Api>(['anthropic', 'openai'])('%s: HTTP 200 that is not an event stream', (api) => {
  const cases: { name: string; turn: FakeTurn; detail: string }[] = [
    {
      name: 'an HTML page',
      turn: {
        rawBody: { body: '<!DOCTYPE html>\n<html>\n  <head><title>Welcome to nginx!</title></head>\n</html>\n' },
      },
      detail:
        'got content-type text/html: "<!DOCTYPE html> <html> <head><title>Welcome to nginx!</title></head> </html>"',
    },
    {
      name: 'plain JSON',
      turn: { rawBody: { body: '{"status":"ok"}', contentType: 'application/json' } },
      detail: 'got content-type application/json: "{\\"status\\":\\"ok\\"}"',
    },
    {
      name: 'an empty body without content-type',
      turn: { rawBody: { body: '', contentType: null } },
      detail: 'got no content-type and no events',
    },
    {
      name: 'an empty text/plain body',
      turn: { rawBody: { body: '', contentType: 'text/plain' } },
      detail: 'got content-type text/plain with an empty body',
    },
    {
      name: 'an empty event stream',
      turn: { rawEvents: [] },
      detail: 'got content-type text/event-stream and no events',
    },
    {
      name: 'only unknown events',
      turn: {
        rawEvents: [
          { event: 'hello', data: { type: 'hello' } },
          { event: 'bye', data: { type: 'bye' } },
        ],
      },
      detail: api === 'anthropic' ? 'got 2 events but no message_start' : 'got 2 chunks but none with choices',
    },
  ];
  for (const { name, turn, detail } of cases) {
    it(`fails at once, unretried, on ${name}`, async () => {
      const fake = await fakeWith([turn, { text: 'never' }]);
      const events = await collect(providerFor(api, fake).stream(request([user('hi')])));
      expect(events.map((e) => e.type)).toEqual(['error']);
      const error = failed(events);
      expect(error.message).toBe(expected(api, base(api, fake), detail));
      expect(error).toMatchObject({ code: 'invalid_response', retryable: false, status: 200 });
      expect(fake.requests).toHaveLength(1);
    });
  }

  it('fails at once when the first event carries data that is not JSON', async () => {
    const fake = await fakeWith([
      { rawEvents: [{ event: api === 'anthropic' ? 'message_start' : undefined, data: '<html>' }] },
    ]);
    const events = await collect(providerFor(api, fake).stream(request([user('hi')])));
    expect(events.map((e) => e.type)).toEqual(['error']);
    const prefix = expected(api, base(api, fake), "an event's data is not JSON: ").replace(
      /\) — check the base URL$/,
      '',
    );
    expect(failed(events).message.startsWith(prefix)).toBe(true);
    expect(failed(events).message.endsWith(') — check the base URL')).toBe(true);
    expect(failed(events).code).toBe('invalid_response');
    expect(fake.requests).toHaveLength(1);
  });

  it('still retries a connection dropped before the first event', async () => {
    const fake = await fakeWith([{ dropAfterChunks: 0 }, { text: 'back' }]);
    const events = await collect(providerFor(api, fake).stream(request([user('hi')])));
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1 });
    expect(completed(events).content).toBe('back');
    expect(fake.requests).toHaveLength(2);
  });
});

describe('openai: HTTP 200 stream of chunks without choices', () => {
  it('fails at once with the exact message', async () => {
    const chunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [] };
    const fake = await fakeWith([
      { rawEvents: [{ data: chunk }, { data: chunk }, { data: chunk }, { data: '[DONE]' }] },
    ]);
    const events = await collect(providerFor('openai', fake).stream(request([user('hi')])));
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ code: 'invalid_response' }) }]);
    expect(failed(events).message).toBe(expected('openai', fake.openaiBaseURL, 'got 3 chunks but none with choices'));
    expect(fake.requests).toHaveLength(1);
  });
});

describe('displayURL', () => {
  it('drops credentials, query, fragment and trailing slashes', () => {
    expect(displayURL('https://user:pw@proxy.example.com/v1/?key=abc#x')).toBe('https://proxy.example.com/v1');
    expect(displayURL('http://127.0.0.1:1')).toBe('http://127.0.0.1:1');
    expect(displayURL('not a url/?token=1')).toBe('not a url');
  });
});

const oa = (delta: Record<string, unknown>, finish: string | null = null): Chunk => ({
  data: {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  },
});

describe('openai tool-call quirks', () => {
  it('starts a new call for a new id at a used index, continues a repeated id, and stringifies object arguments', async () => {
    const fake = await fakeWith([
      {
        rawEvents: [
          oa({
            role: 'assistant',
            tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          }),
          oa({
            tool_calls: [
              { index: 0, id: 'call_b', type: 'function', function: { name: 'glob', arguments: '{"pattern":' } },
            ],
          }),
          oa({ tool_calls: [{ index: 0, id: 'call_b', function: { arguments: '"*"}' } }] }),
          oa({
            tool_calls: [
              { index: 1, id: 'call_c', type: 'function', function: { name: 'view', arguments: { path: 'a.ts' } } },
            ],
          }),
          oa({}, 'tool_calls'),
          { data: '[DONE]' },
        ],
      },
    ]);
    const events = await collect(providerFor('openai', fake).stream(request([user('go')])));
    expect(events).toEqual([
      { type: 'tool_use_start', id: 'call_a', name: 'ls' },
      { type: 'tool_use_delta', id: 'call_a', inputDelta: '{}' },
      { type: 'tool_use_stop', id: 'call_a' },
      { type: 'tool_use_start', id: 'call_b', name: 'glob' },
      { type: 'tool_use_delta', id: 'call_b', inputDelta: '{"pattern":' },
      { type: 'tool_use_delta', id: 'call_b', inputDelta: '"*"}' },
      { type: 'tool_use_start', id: 'call_c', name: 'view' },
      { type: 'tool_use_delta', id: 'call_c', inputDelta: '{"path":"a.ts"}' },
      { type: 'tool_use_stop', id: 'call_b' },
      { type: 'tool_use_stop', id: 'call_c' },
      {
        type: 'complete',
        response: {
          content: '',
          reasoning: [],
          toolCalls: [
            { id: 'call_a', name: 'ls', input: '{}' },
            { id: 'call_b', name: 'glob', input: '{"pattern":"*"}' },
            { id: 'call_c', name: 'view', input: '{"path":"a.ts"}' },
          ],
          usage: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
          // this stream carries no usage chunk
          usageMissing: true,
          finishReason: 'tool_use',
        },
      },
    ]);
  });

  it('argumentsText keeps strings and JSON-encodes anything else', () => {
    expect(argumentsText('{"a":1}')).toBe('{"a":1}');
    expect(argumentsText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(argumentsText(null)).toBe('');
    expect(argumentsText(undefined)).toBe('');
    expect(argumentsText(42)).toBe('42');
  });
});

describe('token usage sanity', () => {
  it('tokenCount gives non-negative integers no larger than 1e9', () => {
    expect([-5, 10.5, 1e308, Infinity, -Infinity, NaN, null, undefined, '12', 'abc', 7].map(tokenCount)).toEqual([
      0, 10, 1_000_000_000, 0, 0, 0, 0, 0, 12, 0, 7,
    ]);
    expect(MAX_TOKEN_COUNT).toBe(1_000_000_000);
    expect(sanitizeUsage({ input: -1, output: 2.9, cacheWrite: Number.POSITIVE_INFINITY, cacheRead: 3 })).toEqual({
      input: 0,
      output: 2,
      cacheWrite: 0,
      cacheRead: 3,
    });
  });

  it('anthropic: negative, fractional, absurd and null counts become sane integers', async () => {
    // NaN travels as null in JSON
    const fake = await fakeWith([
      { text: 'ok', usage: { input: 10.5, output: -5, cacheWrite: 1e308, cacheRead: NaN } },
    ]);
    const response = completed(await collect(providerFor('anthropic', fake).stream(request([user('hi')]))));
    expect(response.usage).toEqual({ input: 10, output: 0, cacheWrite: 1_000_000_000, cacheRead: 0 });
  });

  it('openai: negative, fractional and absurd counts become sane integers', async () => {
    const fake = await fakeWith([
      {
        rawEvents: [
          oa({ role: 'assistant', content: 'ok' }),
          oa({}, 'stop'),
          {
            data: {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'm',
              choices: [],
              usage: { prompt_tokens: 10.5, completion_tokens: 1e308, prompt_tokens_details: { cached_tokens: -3 } },
            },
          },
          { data: '[DONE]' },
        ],
      },
      {
        rawEvents: [
          oa({ role: 'assistant', content: 'ok' }),
          oa({}, 'stop'),
          {
            data: {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'm',
              choices: [],
              usage: { prompt_tokens: 4, completion_tokens: -5, prompt_tokens_details: { cached_tokens: 9 } },
            },
          },
          { data: '[DONE]' },
        ],
      },
    ]);
    const provider = providerFor('openai', fake);
    expect(completed(await collect(provider.stream(request([user('a')])))).usage).toEqual({
      input: 10,
      output: 1_000_000_000,
      cacheWrite: 0,
      cacheRead: 0,
    });
    expect(completed(await collect(provider.stream(request([user('b')])))).usage).toEqual({
      input: 0,
      output: 0,
      cacheWrite: 0,
      cacheRead: 9,
    });
  });
});

describe('finish reason of a reply with tool calls', () => {
  const finishes = async (api: Api, turns: FakeTurn[]) => {
    const fake = await fakeWith(turns);
    const provider = providerFor(api, fake);
    const out: string[] = [];
    for (const _ of turns) out.push(completed(await collect(provider.stream(request([user('x')])))).finishReason);
    return out;
  };
  const call = [{ id: 'c1', name: 'ls', input: {} }];

  it('anthropic: end_turn / stop_sequence with tool_use blocks is tool_use; max_tokens stays max_tokens', async () => {
    expect(
      await finishes('anthropic', [
        { text: 'x', toolCalls: call, stopReason: 'end_turn' },
        { toolCalls: call, stopReason: 'stop_sequence' },
        { toolCalls: call, stopReason: 'max_tokens' },
        { text: 'plain', stopReason: 'end_turn' },
      ]),
    ).toEqual(['tool_use', 'tool_use', 'max_tokens', 'end_turn']);
  });

  it('openai: stop with tool calls is tool_use; length stays max_tokens', async () => {
    expect(
      await finishes('openai', [
        { toolCalls: call, stopReason: 'end_turn' },
        { toolCalls: call, stopReason: 'max_tokens' },
        { text: 'plain', stopReason: 'end_turn' },
      ]),
    ).toEqual(['tool_use', 'max_tokens', 'end_turn']);
  });

  it('maps every stop reason the same way with and without tool calls', () => {
    const anthropicReasons = [
      'end_turn',
      'stop_sequence',
      'refusal',
      'tool_use',
      'max_tokens',
      'model_context_window_exceeded',
      'pause_turn',
      null,
    ];
    expect(anthropicReasons.map((r) => anthropicFinish(r, true))).toEqual([
      'tool_use',
      'tool_use',
      'refusal',
      'tool_use',
      'max_tokens',
      'max_tokens',
      'tool_use',
      'tool_use',
    ]);
    expect(anthropicReasons.map((r) => anthropicFinish(r))).toEqual([
      'end_turn',
      'end_turn',
      'refusal',
      'tool_use',
      'max_tokens',
      'max_tokens',
      'pause_turn',
      'unknown',
    ]);
    const openaiReasons = ['stop', 'tool_calls', 'function_call', 'length', 'content_filter', null];
    expect(openaiReasons.map((r) => openaiFinish(r, true))).toEqual([
      'tool_use',
      'tool_use',
      'tool_use',
      'max_tokens',
      'refusal',
      'tool_use',
    ]);
    expect(openaiReasons.map((r) => openaiFinish(r, false))).toEqual([
      'end_turn',
      'tool_use',
      'tool_use',
      'max_tokens',
      'refusal',
      'unknown',
    ]);
  });
});
