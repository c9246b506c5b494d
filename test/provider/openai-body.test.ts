/**
 * The Chat Completions request body encoded incrementally (src/provider/openai-body.ts) is byte
 * for byte the JSON of the request built as an object (`toOpenAIParams`): on random histories, as a
 * history grows call after call, and after every field of every part type, a message's role, the prompt,
 * the tools or the model changed in place between calls. And the provider sends exactly those bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/message.js';
import { OpenAIBodyEncoder } from '../../src/provider/openai-body.js';
import { toOpenAIParams } from '../../src/provider/openai-request.js';
import { catalogModel, createProvider } from '../../src/provider/index.js';
import type { ModelInfo, ProviderRequest, ToolSchema } from '../../src/provider/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { envSettings } from '../support/provider-helpers.js';
import { editEveryPartField, randomHistory, rng, TOOLS } from '../support/random-history.js';

const GPT41 = catalogModel('openai/gpt-4.1')!;
const O4MINI = catalogModel('openai/o4-mini')!;
const NO_IMAGES: ModelInfo = { ...GPT41, id: 'openai/no-images', supportsImages: false };

function requestOf(messages: Message[], over: Partial<ProviderRequest> = {}): ProviderRequest {
  return { systemPrompt: 'You are opencode → a coding agent.', messages, tools: TOOLS, maxTokens: 2000, ...over };
}

function expectSameBytes(encoder: OpenAIBodyEncoder, model: ModelInfo, request: ProviderRequest): void {
  const expected = JSON.stringify(toOpenAIParams(model, request));
  const got = encoder.encode(model, request);
  expect(got.toString('utf8')).toBe(expected);
  expect(got.equals(Buffer.from(expected))).toBe(true);
}

describe('OpenAIBodyEncoder', () => {
  it('gives the bytes of JSON.stringify(toOpenAIParams(…)) on 300 random histories', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const request = requestOf(randomHistory(r, 1 + r.int(25)), {
        reasoningEffort: r.pick([undefined, 'high' as const]),
        maxTokens: r.pick([0, 500, 2000]),
        systemPrompt: r.pick(['', '  ', 'You are opencode → a coding agent.']),
        tools: r.pick([[], TOOLS]),
      });
      expectSameBytes(new OpenAIBodyEncoder(), r.pick([GPT41, O4MINI, NO_IMAGES]), request);
    }
  });

  it('stays exact while one encoder follows a growing history', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const all = randomHistory(rng(seed), 40);
      const encoder = new OpenAIBodyEncoder();
      for (let n = 1; n <= all.length; n++) expectSameBytes(encoder, GPT41, requestOf(all.slice(0, n)));
    }
  });

  it('sees every field of every part type, a part added or removed and a role changed in place', () => {
    const base = (): Message[] => [
      {
        id: 'u',
        sessionId: 's',
        seq: 0,
        role: 'user',
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'text', text: 'abc' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA', name: 'a.png' },
        ],
      },
      {
        id: 'a',
        sessionId: 's',
        seq: 1,
        role: 'assistant',
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'reasoning', thinking: 'hmm', signature: 'sig', redactedData: 'r' },
          { type: 'text', text: 'looking' },
          { type: 'tool_call', id: 'c1', name: 'view', input: '{"a":1}', finished: true },
          { type: 'finish', reason: 'tool_use', time: 5, message: 'm' },
        ],
      },
      {
        id: 't',
        sessionId: 's',
        seq: 2,
        role: 'tool',
        createdAt: 0,
        updatedAt: 0,
        parts: [
          {
            type: 'tool_result',
            toolCallId: 'c1',
            name: 'view',
            content: 'out',
            isError: false,
            metadata: { n: 1 },
            images: [{ mimeType: 'image/png', data: 'BBBB' }],
          },
          { type: 'finish', reason: 'end_turn', time: 6 },
        ],
      },
    ];
    const fresh = (history = base()) => {
      const encoder = new OpenAIBodyEncoder();
      expectSameBytes(encoder, GPT41, requestOf(history));
      return { history, encoder };
    };
    const edits = editEveryPartField(
      base,
      (history) => fresh(history).encoder,
      (history, encoder) => expectSameBytes(encoder, GPT41, requestOf(history)),
    );
    expect(edits).toBe(23);
    const whole: [string, (h: Message[]) => void][] = [
      ['a part added', (h) => h[1]!.parts.splice(1, 0, { type: 'text', text: ' more' })],
      ['a part removed', (h) => h[1]!.parts.splice(1, 1)],
      ['the first part replaced', (h) => (h[0]!.parts[0] = { type: 'text', text: 'other' })],
      ['a role changed', (h) => (h[0]!.role = 'assistant')],
      ['the parts emptied', (h) => (h[0]!.parts = [])],
    ];
    for (const [, edit] of whole) {
      const { history, encoder } = fresh();
      edit(history);
      expectSameBytes(encoder, GPT41, requestOf(history));
    }
  });

  it('follows the system prompt, the tools and the model between calls', () => {
    const history = randomHistory(rng(7), 12);
    const encoder = new OpenAIBodyEncoder();
    const changedSchema: ToolSchema = {
      ...TOOLS[1]!,
      inputSchema: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'number' } } },
    };
    const variants: [ModelInfo, Partial<ProviderRequest>][] = [
      [GPT41, {}],
      [GPT41, { systemPrompt: 'Another prompt' }],
      [GPT41, { systemPrompt: '' }],
      [GPT41, { tools: [TOOLS[0]!] }],
      [GPT41, { tools: [TOOLS[0]!, changedSchema] }],
      [GPT41, { tools: [TOOLS[0]!, { ...TOOLS[1]!, description: 'Runs a command' }] }],
      [GPT41, { tools: [] }],
      [O4MINI, { reasoningEffort: 'low' }],
      [NO_IMAGES, {}],
      [GPT41, { maxTokens: 0 }],
      [GPT41, {}],
    ];
    for (const [model, over] of variants) expectSameBytes(encoder, model, requestOf(history, over));
  });
});

describe('OpenAIProvider request body', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('sends exactly the bytes of the request object, with the JSON content type and the bearer key, call after call', async () => {
    fake = await startFakeProvider();
    const provider = createProvider(
      GPT41,
      envSettings({ OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: fake.openaiBaseURL }),
      { maxRetries: 0 },
    );
    const history = randomHistory(rng(11), 20);
    for (const n of [5, 12, 20]) {
      fake.push({ text: 'ok' });
      const request = requestOf(history.slice(0, n));
      for await (const event of provider.stream(request)) if (event.type === 'error') throw event.error;
      const received = fake.requests.at(-1)!;
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers.authorization).toBe('Bearer sk-test-openai');
      expect(received.text).toBe(JSON.stringify(toOpenAIParams(GPT41, request)));
    }
  });
});
