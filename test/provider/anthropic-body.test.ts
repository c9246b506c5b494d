/**
 * The Anthropic request body encoded incrementally (src/provider/anthropic-body.ts) is byte for
 * byte the JSON of the request built as an object (`toAnthropicParams`): on random histories, as a
 * history grows call after call, and after parts, messages, tools, the prompt or the model changed in place
 * between calls (a reused encoding must never be stale). And the provider sends exactly those bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/message.js';
import { AnthropicBodyEncoder } from '../../src/provider/anthropic-body.js';
import { toAnthropicParams } from '../../src/provider/anthropic-request.js';
import { catalogModel, createProvider } from '../../src/provider/index.js';
import type { ModelInfo, ProviderRequest, ToolSchema } from '../../src/provider/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { editEveryPartField, randomHistory, rng, TOOLS } from '../support/random-history.js';

const HAIKU = catalogModel('anthropic/claude-haiku-4-5')!;
const OPUS_46 = catalogModel('anthropic/claude-opus-4-6') ?? {
  ...HAIKU,
  id: 'anthropic/claude-opus-4-6',
  apiModel: 'claude-opus-4-6',
};
const NO_IMAGES: ModelInfo = { ...HAIKU, id: 'anthropic/no-images', supportsImages: false };
/** who wrote the assistant messages: nobody recorded, this model, another one (thinking not sent back) */
const MODELS = [undefined, HAIKU.id, 'openai/gpt-5'];

function requestOf(messages: Message[], over: Partial<ProviderRequest> = {}): ProviderRequest {
  return { systemPrompt: 'You are opencode → a coding agent.', messages, tools: TOOLS, maxTokens: 2000, ...over };
}

function expectSameBytes(encoder: AnthropicBodyEncoder, model: ModelInfo, request: ProviderRequest): void {
  const expected = JSON.stringify(toAnthropicParams(model, request));
  const got = encoder.encode(model, request);
  expect(got.toString('utf8')).toBe(expected);
  expect(got.equals(Buffer.from(expected))).toBe(true);
}

describe('AnthropicBodyEncoder', () => {
  it('gives the bytes of JSON.stringify(toAnthropicParams(…)) on 300 random histories', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const history = randomHistory(r, 1 + r.int(25), MODELS);
      const model = r.pick([HAIKU, OPUS_46, NO_IMAGES]);
      const request = requestOf(history, {
        thinking: r.int(2) === 0,
        reasoningEffort: r.pick([undefined, 'high' as const]),
        maxTokens: r.pick([0, 500, 2000]),
        systemPrompt: r.pick(['', '  ', 'You are opencode → a coding agent.']),
        tools: r.pick([[], TOOLS]),
      });
      expectSameBytes(new AnthropicBodyEncoder(), model, request);
    }
  });

  it('stays exact while one encoder follows a growing history (the cache breakpoints move)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const all = randomHistory(r, 40, MODELS);
      const encoder = new AnthropicBodyEncoder();
      for (let n = 1; n <= all.length; n++) expectSameBytes(encoder, HAIKU, requestOf(all.slice(0, n)));
    }
  });

  it('never sends a stale part: each field changed in place between calls is sent as changed', () => {
    const history: Message[] = [
      {
        id: 'u',
        sessionId: 's',
        seq: 0,
        role: 'user',
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'text', text: 'first' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        id: 'a',
        sessionId: 's',
        seq: 1,
        role: 'assistant',
        model: HAIKU.id,
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'reasoning', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'looking' },
          { type: 'tool_call', id: 'c1', name: 'view', input: '{"file_path":"a"}', finished: true },
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
            content: 'same length A',
            isError: false,
            images: [{ mimeType: 'image/png', data: 'BBBB' }],
          },
        ],
      },
      {
        id: 'u2',
        sessionId: 's',
        seq: 3,
        role: 'user',
        createdAt: 0,
        updatedAt: 0,
        parts: [{ type: 'text', text: 'next' }],
      },
      {
        id: 'a2',
        sessionId: 's',
        seq: 4,
        role: 'assistant',
        createdAt: 0,
        updatedAt: 0,
        parts: [{ type: 'text', text: 'done' }],
      },
    ];
    const [u, a, t] = history as [Message, Message, Message];
    const encoder = new AnthropicBodyEncoder();
    const edits: [string, () => void][] = [
      ['text of the same length', () => ((u.parts[0] as { text: string }).text = 'firsT')],
      ['image data', () => ((u.parts[1] as { data: string }).data = 'CCCC')],
      [
        'image type becomes one the API does not take',
        () => ((u.parts[1] as { mimeType: string }).mimeType = 'image/bmp'),
      ],
      ['signature', () => ((a.parts[0] as { signature: string }).signature = 'sig2')],
      ['thinking text', () => ((a.parts[0] as { thinking: string }).thinking = 'hmm!')],
      ['the message written by another model (thinking not sent back)', () => (a.model = 'anthropic/other')],
      ['back to this model', () => (a.model = HAIKU.id)],
      ['tool input', () => ((a.parts[2] as { input: string }).input = '{"file_path":"b"}')],
      ['tool name', () => ((a.parts[2] as { name: string }).name = 'ls')],
      ['result content of the same length', () => ((t.parts[0] as { content: string }).content = 'same length B')],
      ['result becomes an error', () => ((t.parts[0] as { isError: boolean }).isError = true)],
      [
        'an image pushed into the result',
        () =>
          (t.parts[0] as { images: { mimeType: string; data: string }[] }).images.push({
            mimeType: 'image/gif',
            data: 'DDDD',
          }),
      ],
      [
        'an image entry changed in place',
        () => ((t.parts[0] as { images: { data: string }[] }).images[0]!.data = 'EEEE'),
      ],
      ['a part added', () => a.parts.splice(2, 0, { type: 'text', text: 'more' })],
      ['a part removed', () => a.parts.splice(1, 1)],
      ['a role changed', () => (history[3]!.role = 'assistant')],
      ['a blank text filled', () => ((history[4]!.parts[0] as { text: string }).text = '  ')],
      ['blank again to text', () => ((history[4]!.parts[0] as { text: string }).text = 'done again')],
    ];
    expectSameBytes(encoder, HAIKU, requestOf(history));
    for (const [, edit] of edits) {
      edit();
      expectSameBytes(encoder, HAIKU, requestOf(history));
    }
  });

  it('sees every field of every part type changed in place (strings to others of the same length, flags flipped, entries added)', () => {
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
        model: HAIKU.id,
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'reasoning', thinking: 'hmm', signature: 'sig' },
          { type: 'reasoning', thinking: '', redactedData: 'opaque' },
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
        ],
      },
      {
        id: 'u2',
        sessionId: 's',
        seq: 3,
        role: 'user',
        createdAt: 0,
        updatedAt: 0,
        parts: [{ type: 'text', text: 'next' }],
      },
      {
        id: 'a2',
        sessionId: 's',
        seq: 4,
        role: 'assistant',
        createdAt: 0,
        updatedAt: 0,
        parts: [{ type: 'text', text: 'done' }],
      },
    ];
    const edits = editEveryPartField(
      base,
      (history) => {
        const encoder = new AnthropicBodyEncoder();
        expectSameBytes(encoder, HAIKU, requestOf(history));
        return encoder;
      },
      (history, encoder) => expectSameBytes(encoder, HAIKU, requestOf(history)),
    );
    // every part of the five messages, the two cache-marked turns included
    expect(edits).toBe(23);
  });

  it('follows the system prompt, the tools, the model and the thinking settings between calls', () => {
    const history = randomHistory(rng(7), 12, MODELS);
    const encoder = new AnthropicBodyEncoder();
    const changedSchema: ToolSchema = {
      ...TOOLS[1]!,
      inputSchema: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'number' } } },
    };
    const variants: [ModelInfo, Partial<ProviderRequest>][] = [
      [HAIKU, {}],
      [HAIKU, { systemPrompt: 'Another prompt' }],
      [HAIKU, { systemPrompt: '' }],
      [HAIKU, { tools: [TOOLS[0]!] }],
      [HAIKU, { tools: [TOOLS[0]!, changedSchema] }],
      [HAIKU, { tools: [TOOLS[0]!, { ...TOOLS[1]!, description: 'Runs a command' }] }],
      [HAIKU, { tools: [] }],
      [HAIKU, { thinking: true }],
      [OPUS_46, { thinking: true, reasoningEffort: 'low' }],
      [NO_IMAGES, {}],
      [HAIKU, { maxTokens: 0 }],
      [HAIKU, {}],
    ];
    for (const [model, over] of variants) expectSameBytes(encoder, model, requestOf(history, over));
  });
});

describe('AnthropicProvider request body', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('sends exactly the bytes of the request object, with the JSON content type, call after call', async () => {
    fake = await startFakeProvider();
    const provider = createProvider(
      HAIKU,
      { providers: {}, env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL } },
      { maxRetries: 0 },
    );
    const history = randomHistory(rng(11), 20, MODELS);
    for (const n of [5, 12, 20]) {
      fake.push({ text: 'ok' });
      const request = requestOf(history.slice(0, n));
      for await (const event of provider.stream(request)) if (event.type === 'error') throw event.error;
      const received = fake.requests.at(-1)!;
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.text).toBe(JSON.stringify(toAnthropicParams(HAIKU, request)));
    }
  });
});
