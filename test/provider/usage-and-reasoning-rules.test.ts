/**
 * The pure rules behind the providers' shapes: token counts from each usage shape of an OpenAI-compatible
 * stream chunk, and which API takes reasoning back in which field.
 */
import { describe, expect, it } from 'vitest';
import { usageOfChunk } from '../../src/provider/openai-usage.js';
import { reasoningFieldFor } from '../../src/provider/openai-reasoning.js';
import { messageText } from '../../src/message.js';
import { endedText } from '../../src/session-io/conversation.js';
import { OpenAIBodyEncoder } from '../../src/provider/openai-body.js';
import { toOpenAIParams } from '../../src/provider/openai-request.js';
import { catalogModel } from '../../src/provider/catalog.js';
import { randomHistory, rng, TOOLS } from '../support/random-history.js';

describe('usage of a chunk', () => {
  it('reads OpenAI usage: cached tokens are cache reads; reasoning inside completion_tokens is not added twice', () => {
    expect(
      usageOfChunk({
        usage: {
          prompt_tokens: 120,
          completion_tokens: 50,
          total_tokens: 170,
          prompt_tokens_details: { cached_tokens: 100 },
          completion_tokens_details: { reasoning_tokens: 30 },
        },
      }),
    ).toEqual({ input: 20, cacheRead: 100, output: 50 });
  });

  it('adds xAI reasoning tokens reported outside completion_tokens (total_tokens counts them)', () => {
    expect(
      usageOfChunk({
        usage: {
          prompt_tokens: 100,
          completion_tokens: 20,
          total_tokens: 420,
          completion_tokens_details: { reasoning_tokens: 300 },
        },
      }),
    ).toEqual({ input: 100, cacheRead: 0, output: 320 });
  });

  it("reads Groq's x_groq.usage when there is no top-level usage", () => {
    expect(
      usageOfChunk({
        choices: [],
        x_groq: { id: 'req_1', usage: { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 } },
      }),
    ).toEqual({
      input: 50,
      cacheRead: 0,
      output: 7,
    });
  });

  it('finds none in a chunk without counts (null usage, an x_groq without usage)', () => {
    expect(usageOfChunk({ usage: null, choices: [] })).toBeUndefined();
    expect(usageOfChunk({ x_groq: { id: 'req_1' } })).toBeUndefined();
  });
});

describe('reasoning sent back', () => {
  it.each([
    ['deepseek', 'https://api.deepseek.com/v1', 'deepseek-reasoner', 'reasoning_content'],
    ['ds', 'https://api.deepseek.com', 'deepseek-chat', 'reasoning_content'],
    ['local', 'http://127.0.0.1:8080/v1', 'deepseek-r1-distill', 'reasoning_content'],
    ['moonshot', 'https://api.moonshot.ai/v1', 'kimi-k2-thinking', 'reasoning_content'],
    ['zai', 'https://api.z.ai/api/paas/v4', 'glm-4.6', 'reasoning_content'],
    ['openrouter', 'https://openrouter.ai/api/v1', 'deepseek/deepseek-r1', 'reasoning'],
    ['groq', 'https://api.groq.com/openai/v1', 'moonshotai/kimi-k2-instruct-0905', undefined],
    ['openai', 'https://api.openai.com/v1', 'o4-mini', undefined],
    ['xai', 'https://api.x.ai/v1', 'grok-4', undefined],
    ['local', 'http://127.0.0.1:11434/v1', 'qwen3-coder', undefined],
  ])('%s at %s with %s: %s', (provider, baseURL, model, field) => {
    expect(reasoningFieldFor(provider, baseURL, model)).toBe(field);
  });
});

describe('text around a server tool block', () => {
  it('is joined with a blank line across the block, directly otherwise', () => {
    const parts = [
      { type: 'text' as const, text: 'According to ' },
      { type: 'text' as const, text: 'the docs.' },
      {
        type: 'server_tool' as const,
        block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      },
      { type: 'text' as const, text: 'It came out in 2023.' },
    ];
    expect(messageText({ parts })).toBe('According to the docs.\n\nIt came out in 2023.');
  });
});

describe('a refused reply in sessions show', () => {
  it('reads as the explanation, then what became of the prompt', () => {
    expect(endedText('refusal', 'The model declined to answer: This request was declined.')).toBe(
      'The model declined to answer: This request was declined; the prompt is left out of later requests',
    );
  });
});

describe('the request body with reasoning sent back', () => {
  it('is byte for byte the JSON of the request object, on random histories and as one grows, a thinking text edited in place', () => {
    const model = catalogModel('openai/gpt-4.1')!;
    let sentBack = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const all = randomHistory(rng(seed), 30);
      const encoder = new OpenAIBodyEncoder('reasoning_content');
      for (let n = 1; n <= all.length; n++) {
        const request = { systemPrompt: 'sys', messages: all.slice(0, n), tools: TOOLS, maxTokens: 1000 };
        expect(encoder.encode(model, request).toString('utf8')).toBe(
          JSON.stringify(toOpenAIParams(model, request, 'reasoning_content')),
        );
      }
      const reasoning = all.flatMap((m) => m.parts).find((p) => p.type === 'reasoning');
      if (reasoning && reasoning.type === 'reasoning') reasoning.thinking += ' and more';
      const request = { systemPrompt: 'sys', messages: all, tools: TOOLS, maxTokens: 1000 };
      const body = encoder.encode(model, request).toString('utf8');
      expect(body).toBe(JSON.stringify(toOpenAIParams(model, request, 'reasoning_content')));
      if (body.includes('"reasoning_content":"') && body.includes(' and more')) sentBack++;
    }
    // the histories do carry reasoning on tool-call turns, edited ones included
    expect(sentBack).toBeGreaterThan(10);
  });
});
