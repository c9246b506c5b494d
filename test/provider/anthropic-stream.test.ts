/**
 * The Anthropic provider, with the real SDK, against the fake provider speaking Messages SSE.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, createProvider } from '../../src/provider/index.js';
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

const sonnet = catalogModel('anthropic/claude-sonnet-4')!;
const sonnet55 = catalogModel('anthropic/claude-sonnet-5-5')!;
const haiku35 = catalogModel('anthropic/claude-3-5-haiku')!;

function anthropic(f: FakeProvider, model: ModelInfo = sonnet) {
  return createProvider(
    model,
    envSettings({ ANTHROPIC_API_KEY: 'sk-ant-test-key-123456', ANTHROPIC_BASE_URL: f.anthropicBaseURL }),
    {
      maxRetries: 0,
    },
  );
}

describe('anthropic stream', () => {
  it('streams thinking, text and a tool call as exact events and a complete response', async () => {
    fake = await startFakeProvider([
      {
        thinking: { text: 'Need to list files.', signature: 'sig-abc' },
        text: 'Let me check.',
        toolCalls: [{ id: 'toolu_01', name: 'bash', input: '{"command": "ls -la", "timeout": 5000}' }],
        usage: { input: 12, output: 42, cacheWrite: 7, cacheRead: 3 },
      },
    ]);
    const events = await collect(
      anthropic(fake).stream(request([user('list files')], { tools: [BASH_TOOL], thinking: true, maxTokens: 2000 })),
    );
    expect(events).toEqual([
      { type: 'thinking_delta', text: 'Need ' },
      { type: 'thinking_delta', text: 'to ' },
      { type: 'thinking_delta', text: 'list ' },
      { type: 'thinking_delta', text: 'files.' },
      { type: 'content_delta', text: 'Let ' },
      { type: 'content_delta', text: 'me ' },
      { type: 'content_delta', text: 'check.' },
      { type: 'tool_use_start', id: 'toolu_01', name: 'bash' },
      { type: 'tool_use_delta', id: 'toolu_01', inputDelta: '{"command": ' },
      { type: 'tool_use_delta', id: 'toolu_01', inputDelta: '"ls -la", "ti' },
      { type: 'tool_use_delta', id: 'toolu_01', inputDelta: 'meout": 5000}' },
      { type: 'tool_use_stop', id: 'toolu_01' },
      {
        type: 'complete',
        response: {
          content: 'Let me check.',
          reasoning: [{ thinking: 'Need to list files.', signature: 'sig-abc' }],
          toolCalls: [{ id: 'toolu_01', name: 'bash', input: '{"command": "ls -la", "timeout": 5000}' }],
          usage: { input: 12, output: 42, cacheWrite: 7, cacheRead: 3 },
          finishReason: 'tool_use',
        },
      },
    ]);
  });

  it('sends the key, model, caching markers and required in tool schemas, and no temperature', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const history = [
      user('first'),
      msg(
        'assistant',
        { type: 'text', text: 'Running.' },
        { type: 'tool_call', id: 't1', name: 'bash', input: '{"command":"ls"}', finished: true },
      ),
      msg('tool', { type: 'tool_result', toolCallId: 't1', name: 'bash', content: 'a.txt', isError: false }),
      user('thanks'),
    ];
    const events = await collect(anthropic(fake).stream(request(history, { tools: [VIEW_TOOL, BASH_TOOL] })));
    expect(completed(events).content).toBe('ok');
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer sk-ant-test-key-123456');
    expect(req!.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1000,
      stream: true,
      system: [{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }],
      tools: [
        {
          name: 'view',
          description: 'Read a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
        {
          name: 'bash',
          description: 'Run a shell command',
          input_schema: {
            type: 'object',
            properties: { command: { type: 'string' }, timeout: { type: 'number' } },
            required: ['command'],
            additionalProperties: false,
          },
          cache_control: { type: 'ephemeral' },
        },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Running.' },
            {
              type: 'tool_use',
              id: 't1',
              name: 'bash',
              input: { command: 'ls' },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' },
            { type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
  });

  it('round-trips thinking with its signature (and redacted thinking) in the next request of a tool turn', async () => {
    fake = await startFakeProvider([
      {
        thinking: { text: 'Plan: run ls.', signature: 'sig-1' },
        redactedThinking: 'opaque==',
        toolCalls: [{ id: 'toolu_9', name: 'bash', input: { command: 'ls' } }],
      },
      { text: 'Done.' },
    ]);
    const provider = anthropic(fake);
    const first = completed(
      await collect(
        provider.stream(request([user('think: list')], { tools: [BASH_TOOL], thinking: true, maxTokens: 2000 })),
      ),
    );
    expect(first.reasoning).toEqual([
      { thinking: 'Plan: run ls.', signature: 'sig-1' },
      { thinking: '', redactedData: 'opaque==' },
    ]);
    // what the agent stores from `complete`, then the tool result
    const assistant = msg(
      'assistant',
      ...first.reasoning.map((r) => ({ type: 'reasoning' as const, ...r })),
      ...first.toolCalls.map((c) => ({ type: 'tool_call' as const, ...c, finished: true })),
    );
    const results = msg('tool', {
      type: 'tool_result',
      toolCallId: 'toolu_9',
      name: 'bash',
      content: 'a.txt',
      isError: false,
    });
    const second = await collect(
      provider.stream(
        request([user('think: list'), assistant, results], { tools: [BASH_TOOL], thinking: true, maxTokens: 2000 }),
      ),
    );
    expect(completed(second).content).toBe('Done.');
    const body = fake.requests[1]!.body;
    expect(fake.requests[1]!.rejected).toBeUndefined();
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 1600 });
    expect(body.temperature).toBeUndefined();
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Plan: run ls.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque==' },
        {
          type: 'tool_use',
          id: 'toolu_9',
          name: 'bash',
          input: { command: 'ls' },
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('drops unsigned reasoning (which the API rejects) and skips thinking on models that cannot reason', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const history = [
      user('hi'),
      msg('assistant', { type: 'reasoning', thinking: 'from another provider' }, { type: 'text', text: 'Hello.' }),
      user('again'),
    ];
    completed(await collect(anthropic(fake, haiku35).stream(request(history, { thinking: true, maxTokens: 4000 }))));
    const body = fake.requests[0]!.body;
    expect(body.thinking).toBeUndefined();
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello.', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('uses adaptive thinking with output_config.effort on Claude 4.6+ models, which reject the budget form', async () => {
    fake = await startFakeProvider([{ thinking: { text: 'Hmm.', signature: 'sig-5' }, text: 'Hi.' }]);
    const events = await collect(
      anthropic(fake, sonnet55).stream(
        request([user('think hard')], { thinking: true, reasoningEffort: 'high', maxTokens: 2000 }),
      ),
    );
    expect(completed(events).reasoning).toEqual([{ thinking: 'Hmm.', signature: 'sig-5' }]);
    expect(fake.requests[0]!.rejected).toBeUndefined();
    expect(fake.requests[0]!.body.model).toBe('claude-sonnet-5-5');
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'adaptive' });
    expect(fake.requests[0]!.body.output_config).toEqual({ effort: 'high' });
  });

  it('sends back only the thinking blocks written by the same model', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const mine = {
      ...msg('assistant', { type: 'reasoning', thinking: 'a', signature: 's1' }, { type: 'text', text: 'A.' }),
      model: sonnet.id,
    };
    const other = {
      ...msg('assistant', { type: 'reasoning', thinking: 'b', signature: 's2' }, { type: 'text', text: 'B.' }),
      model: 'anthropic/claude-opus-4-5',
    };
    completed(await collect(anthropic(fake).stream(request([user('1'), mine, user('2'), other, user('3')]))));
    const messages = fake.requests[0]!.body.messages;
    expect(messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'a', signature: 's1' });
    expect(messages[3].content).toEqual([{ type: 'text', text: 'B.', cache_control: { type: 'ephemeral' } }]);
  });

  it('a thinking block without signature is rejected by the fake as by the API', async () => {
    fake = await startFakeProvider([{ text: 'unused' }]);
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        max_tokens: 2000,
        stream: true,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hm', signature: '' },
              { type: 'tool_use', id: 'a', name: 'bash', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'ok' }] },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect(fake.remaining()).toBe(1);
  });

  it('sends images as base64 blocks and tool results with is_error', async () => {
    fake = await startFakeProvider([{ text: 'A cat.' }]);
    const history = [
      msg(
        'user',
        { type: 'text', text: 'what is this?' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ),
      msg('assistant', { type: 'tool_call', id: 't1', name: 'view', input: '{"path":"x"}', finished: true }),
      msg('tool', { type: 'tool_result', toolCallId: 't1', name: 'view', content: 'no such file', isError: true }),
    ];
    completed(await collect(anthropic(fake).stream(request(history))));
    const messages = fake.requests[0]!.body.messages;
    expect(messages[0].content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    });
    expect(messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: 'no such file',
        is_error: true,
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('maps max_tokens and reports no-delta tool input as {}', async () => {
    fake = await startFakeProvider([
      { text: 'cut', toolCalls: [{ id: 'x1', name: 'ls', input: '' }], stopReason: 'max_tokens' },
    ]);
    const response = completed(await collect(anthropic(fake).stream(request([user('go')]))));
    expect(response.finishReason).toBe('max_tokens');
    expect(response.toolCalls).toEqual([{ id: 'x1', name: 'ls', input: '{}' }]);
  });
});
