/**
 * The OpenAI(-compatible) provider, with the real SDK, against the fake provider speaking Chat
 * Completions SSE; also Groq / OpenRouter / xAI / local / custom providers reached through baseURL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, createProvider, resolveModel } from '../../src/provider/index.js';
import { TOOL_IMAGES_NOTE } from '../../src/provider/openai.js';
import type { ModelInfo } from '../../src/provider/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import {
  BASH_TOOL,
  VIEW_TOOL,
  collect,
  completed,
  envSettings,
  msg,
  request,
  user,
} from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const gpt41 = catalogModel('openai/gpt-4.1')!;
const o4mini = catalogModel('openai/o4-mini')!;

function openai(f: FakeProvider, model: ModelInfo = gpt41) {
  return createProvider(
    model,
    envSettings({ OPENAI_API_KEY: 'sk-test-openai-key-987654', OPENAI_BASE_URL: f.openaiBaseURL }),
    {
      maxRetries: 0,
    },
  );
}

describe('openai stream', () => {
  it('streams text and two tool calls as exact events and a complete response with cached usage', async () => {
    fake = await startFakeProvider([
      {
        text: 'Let me check.',
        toolCalls: [
          { id: 'call_1', name: 'bash', input: '{"command": "ls -la"}' },
          { id: 'call_2', name: 'view', input: { path: 'a.ts' } },
        ],
        usage: { input: 15, cacheRead: 5, output: 15 },
      },
    ]);
    const events = await collect(openai(fake).stream(request([user('look')], { tools: [BASH_TOOL, VIEW_TOOL] })));
    expect(events).toEqual([
      { type: 'content_delta', text: 'Let ' },
      { type: 'content_delta', text: 'me ' },
      { type: 'content_delta', text: 'check.' },
      { type: 'tool_use_start', id: 'call_1', name: 'bash' },
      { type: 'tool_use_delta', id: 'call_1', inputDelta: '{"comma' },
      { type: 'tool_use_delta', id: 'call_1', inputDelta: 'nd": "l' },
      { type: 'tool_use_delta', id: 'call_1', inputDelta: 's -la"}' },
      { type: 'tool_use_start', id: 'call_2', name: 'view' },
      { type: 'tool_use_delta', id: 'call_2', inputDelta: '{"pat' },
      { type: 'tool_use_delta', id: 'call_2', inputDelta: 'h":"a' },
      { type: 'tool_use_delta', id: 'call_2', inputDelta: '.ts"}' },
      { type: 'tool_use_stop', id: 'call_1' },
      { type: 'tool_use_stop', id: 'call_2' },
      {
        type: 'complete',
        response: {
          content: 'Let me check.',
          reasoning: [],
          toolCalls: [
            { id: 'call_1', name: 'bash', input: '{"command": "ls -la"}' },
            { id: 'call_2', name: 'view', input: '{"path":"a.ts"}' },
          ],
          usage: { input: 15, output: 15, cacheWrite: 0, cacheRead: 5 },
          finishReason: 'tool_use',
        },
      },
    ]);
  });

  it('sends system, user, assistant tool_calls and tool messages, tools with required, and include_usage', async () => {
    fake = await startFakeProvider([{ text: 'Fine.' }]);
    const history = [
      msg('user', { type: 'text', text: 'see' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }),
      msg(
        'assistant',
        { type: 'reasoning', thinking: 'not sent' },
        { type: 'text', text: 'Running.' },
        { type: 'tool_call', id: 'c1', name: 'bash', input: '{"command":"ls"}', finished: true },
      ),
      msg('tool', {
        type: 'tool_result',
        toolCallId: 'c1',
        name: 'bash',
        content: 'a.txt',
        isError: false,
        images: [{ mimeType: 'image/jpeg', data: 'BBBB' }],
      }),
    ];
    completed(await collect(openai(fake).stream(request(history, { tools: [BASH_TOOL] }))));
    const req = fake.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-openai-key-987654');
    expect(req.body).toEqual({
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 1000,
      tools: [
        {
          type: 'function',
          function: {
            name: 'bash',
            description: 'Run a shell command',
            parameters: {
              type: 'object',
              properties: { command: { type: 'string' }, timeout: { type: 'number' } },
              required: ['command'],
              additionalProperties: false,
            },
          },
        },
      ],
      messages: [
        { role: 'system', content: 'You are a test.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Running.',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
        {
          role: 'user',
          content: [
            { type: 'text', text: TOOL_IMAGES_NOTE },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,BBBB' } },
          ],
        },
      ],
    });
  });

  it('gives reasoning models max_completion_tokens and reasoning_effort (default medium)', async () => {
    fake = await startFakeProvider([{ text: 'a' }, { text: 'b' }]);
    const provider = openai(fake, o4mini);
    completed(await collect(provider.stream(request([user('x')], { maxTokens: 3000 }))));
    completed(await collect(provider.stream(request([user('x')], { maxTokens: 3000, reasoningEffort: 'high' }))));
    const [first, second] = fake.requests.map((r) => r.body);
    expect(first.max_completion_tokens).toBe(3000);
    expect(first.max_tokens).toBeUndefined();
    expect(first.reasoning_effort).toBe('medium');
    expect(second.reasoning_effort).toBe('high');
  });

  it('surfaces reasoning_content deltas as thinking', async () => {
    fake = await startFakeProvider([{ thinking: { text: 'Let me think.', signature: 'unused' }, text: 'Answer.' }]);
    const events = await collect(openai(fake).stream(request([user('q')])));
    expect(events.slice(0, 3)).toEqual([
      { type: 'thinking_delta', text: 'Let ' },
      { type: 'thinking_delta', text: 'me ' },
      { type: 'thinking_delta', text: 'think.' },
    ]);
    expect(completed(events)).toMatchObject({
      content: 'Answer.',
      reasoning: [{ thinking: 'Let me think.' }],
      finishReason: 'end_turn',
    });
  });

  it('sends the OpenRouter attribution headers and the vendor/model name', async () => {
    fake = await startFakeProvider([{ text: 'hi' }]);
    const settings = envSettings(
      { OPENROUTER_API_KEY: 'sk-or-test-1234567890' },
      { openrouter: { baseURL: fake.openaiBaseURL } },
    );
    const model = await resolveModel('openrouter/anthropic/claude-sonnet-4.5', settings);
    completed(await collect(createProvider(model, settings, { maxRetries: 0 }).stream(request([user('x')]))));
    const req = fake.requests[0]!;
    expect(req.headers['http-referer']).toBe('https://opencode.ai');
    expect(req.headers['x-title']).toBe('OpenCode');
    expect(req.headers.authorization).toBe('Bearer sk-or-test-1234567890');
    expect(req.body.model).toBe('anthropic/claude-sonnet-4.5');
    expect(req.body.max_tokens).toBe(1000);
  });

  it('reaches groq, xai, a local server and a custom provider through their base URLs', async () => {
    fake = await startFakeProvider([{ text: '1' }, { text: '2' }, { text: '3' }, { text: '4' }], {
      models: ['qwen3:8b'],
    });
    const settings = envSettings(
      { GROQ_API_KEY: 'gsk_groqkey123456', XAI_API_KEY: 'xai-key-123456789', LOCAL_ENDPOINT: fake.url },
      {
        groq: { baseURL: fake.openaiBaseURL },
        xai: { baseURL: fake.openaiBaseURL },
        mine: { baseURL: fake.openaiBaseURL, models: { 'm-1': {} } },
      },
    );
    const ids = ['groq/llama-3.3-70b-versatile', 'xai/grok-4', 'local/qwen3:8b', 'mine/m-1'];
    for (const id of ids) {
      const model = await resolveModel(id, settings);
      expect(
        completed(await collect(createProvider(model, settings, { maxRetries: 0 }).stream(request([user('x')]))))
          .finishReason,
      ).toBe('end_turn');
    }
    const completions = fake.requests.filter((r) => r.api === 'openai');
    expect(completions.map((r) => r.body.model)).toEqual(['llama-3.3-70b-versatile', 'grok-4-0709', 'qwen3:8b', 'm-1']);
    expect(completions.map((r) => r.headers.authorization)).toEqual([
      'Bearer gsk_groqkey123456',
      'Bearer xai-key-123456789',
      'Bearer dummy',
      'Bearer dummy',
    ]);
  });

  it('treats a stop finish with tool calls as tool_use (older Ollama) and maps length to max_tokens', async () => {
    fake = await startFakeProvider([
      { toolCalls: [{ id: 'c', name: 'ls', input: {} }], stopReason: 'end_turn' },
      { text: 'cut', stopReason: 'max_tokens' },
    ]);
    const provider = openai(fake);
    expect(completed(await collect(provider.stream(request([user('a')])))).finishReason).toBe('tool_use');
    expect(completed(await collect(provider.stream(request([user('b')])))).finishReason).toBe('max_tokens');
  });
});
