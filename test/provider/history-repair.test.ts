/**
 * A history the APIs would reject is repaired before it is sent: invalid tool-call JSON, calls without
 * results, results without calls (the original dropped invalid tool_use while
 * keeping its tool_result, so Anthropic answered 400 and the session was stuck).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/message.js';
import { MISSING_TOOL_RESULT, pairToolResults, toolInputJson, toolInputObject } from '../../src/provider/history.js';
import { catalogModel, createProvider } from '../../src/provider/index.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collect, completed, envSettings, msg, request, user } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const call = (id: string, input: string) => ({ type: 'tool_call' as const, id, name: 'bash', input, finished: true });
const result = (id: string, content = 'out') => ({
  type: 'tool_result' as const,
  toolCallId: id,
  name: 'bash',
  content,
  isError: false,
});

describe('tool input repair', () => {
  it('keeps JSON objects, maps empty input to {} and wraps anything else', () => {
    expect(toolInputObject('{"command":"ls"}')).toEqual({ command: 'ls' });
    expect(toolInputObject('  ')).toEqual({});
    expect(toolInputObject('{"command": "ls')).toEqual({ _invalid_json: '{"command": "ls' });
    expect(toolInputObject('[1,2]')).toEqual({ _invalid_json: '[1,2]' });
    expect(toolInputJson('{ "a" : 1 }')).toBe('{ "a" : 1 }');
    expect(toolInputJson('')).toBe('{}');
    expect(toolInputJson('{"a":')).toBe('{"_invalid_json":"{\\"a\\":"}');
  });
});

describe('pairToolResults', () => {
  it('gives every call one result in call order, drops orphans and system messages', () => {
    const history: Message[] = [
      msg('system', { type: 'text', text: 'sys' }),
      user('go'),
      msg('tool', result('orphan')),
      msg('assistant', call('a', '{}'), call('b', '{}'), call('c', '{}')),
      msg('tool', result('c', 'C'), result('zzz')),
      msg('tool', result('a', 'A')),
      user('next'),
    ];
    const paired = pairToolResults(history);
    expect(paired.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(paired[2]!.parts).toEqual([
      result('a', 'A'),
      { type: 'tool_result', toolCallId: 'b', name: 'bash', content: MISSING_TOOL_RESULT, isError: true },
      result('c', 'C'),
    ]);
    expect(history).toHaveLength(7); // input untouched
  });

  it('adds a tool message when an assistant with calls is the last message', () => {
    const paired = pairToolResults([user('go'), msg('assistant', call('a', '{}'))]);
    expect(paired.at(-1)).toMatchObject({ role: 'tool', parts: [{ toolCallId: 'a', isError: true }] });
  });
});

describe.each(['anthropic', 'openai'] as const)('%s: a broken history still gives a valid request', (api) => {
  function provider(f: FakeProvider) {
    return api === 'anthropic'
      ? createProvider(
          catalogModel('anthropic/claude-haiku-4-5')!,
          envSettings({ ANTHROPIC_API_KEY: 'k-123456', ANTHROPIC_BASE_URL: f.anthropicBaseURL }),
          { maxRetries: 0 },
        )
      : createProvider(
          catalogModel('openai/gpt-4.1')!,
          envSettings({ OPENAI_API_KEY: 'k-123456', OPENAI_BASE_URL: f.openaiBaseURL }),
          { maxRetries: 0 },
        );
  }

  it('sends a call with invalid JSON input wrapped, next to its result, and the fake accepts it', async () => {
    fake = await startFakeProvider([{ text: 'Recovered.' }]);
    const history = [
      user('go'),
      msg('assistant', call('t1', '{"command": "ls')),
      msg('tool', result('t1', 'invalid input')),
      user('again'),
    ];
    expect(completed(await collect(provider(fake).stream(request(history)))).content).toBe('Recovered.');
    const sent = fake.requests[0]!;
    expect(sent.rejected).toBeUndefined();
    if (api === 'anthropic') {
      expect(sent.body.messages[1].content[0]).toMatchObject({
        type: 'tool_use',
        id: 't1',
        input: { _invalid_json: '{"command": "ls' },
      });
    } else {
      expect(sent.body.messages[2].tool_calls[0].function.arguments).toBe('{"_invalid_json":"{\\"command\\": \\"ls"}');
    }
  });

  it('answers a call that has no result and drops a result that has no call', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const history = [
      user('go'),
      msg('tool', result('ghost')),
      msg('assistant', call('t1', '{}')),
      user('what happened?'),
    ];
    expect(completed(await collect(provider(fake).stream(request(history)))).content).toBe('ok');
    expect(fake.requests[0]!.rejected).toBeUndefined();
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain('ghost');
    expect(JSON.stringify(fake.requests[0]!.body)).toContain(MISSING_TOOL_RESULT);
  });

  it('the fake rejects an unpaired call with HTTP 400 in the API error shape, as the real API', async () => {
    fake = await startFakeProvider([{ text: 'unused' }]);
    const body =
      api === 'anthropic'
        ? {
            model: 'm',
            max_tokens: 10,
            stream: true,
            messages: [
              { role: 'user', content: 'x' },
              { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] },
              { role: 'user', content: 'y' },
            ],
          }
        : {
            model: 'm',
            stream: true,
            messages: [
              { role: 'user', content: 'x' },
              {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'a', type: 'function', function: { name: 'b', arguments: '{}' } }],
              },
              { role: 'user', content: 'y' },
            ],
          };
    const path = api === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
    const res = await fetch(`${fake.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { type?: string; error: { type: string; message: string } };
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.message).toContain(
      api === 'anthropic' ? 'tool_use` ids were found without `tool_result`' : 'did not have response messages: a',
    );
    expect(fake.remaining()).toBe(1);
  });
});
