/**
 * The agent loop's contract: denial ends the turn, the step cap, concurrency of
 * read-only calls with results in call order, busy sessions, retries without duplicated text, provider
 * failures, usage totals and roll-up into a parent session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messageText } from '../../src/message.js';
import { SessionBusyError } from '../../src/agent/agent.js';
import { defineTool } from '../../src/tools/tool.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let active = 0;
let maxActive = 0;
const slowRead = defineTool({
  name: 'slow_read',
  description: 'Reads slowly.',
  parameters: z.object({ id: z.string(), ms: z.number() }),
  readOnly: true,
  async run({ id, ms }) {
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, ms));
    active--;
    return `read ${id}`;
  },
});

describe('agent loop', () => {
  it('stops the batch at a permission denial: later calls are not run, the model is not called again', async () => {
    h = await agentHarness(
      [
        {
          toolCalls: [
            { name: 'bash', input: { command: 'touch denied.txt' } },
            { name: 'bash', input: { command: 'touch never.txt' } },
          ],
        },
      ],
      { answer: 'deny' },
    );
    const result = await h.agent.run(h.sessionId, 'make files');
    expect(result.reason).toBe('permission_denied');
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'bash', content: 'Permission denied', isError: true },
      {
        name: 'bash',
        content: 'Tool execution canceled by user: an earlier tool call in this batch was denied permission',
        isError: true,
      },
    ]);
    expect(h.fake.answered).toHaveLength(1);
    const assistant = h.db.messages.list(h.sessionId).find((m) => m.role === 'assistant')!;
    expect(assistant.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'permission_denied' });
  });

  it('runs the tool calls of a reply that ends with end_turn instead of tool_use', async () => {
    h = await agentHarness([
      { toolCalls: [{ name: 'ls', input: { path: '.' } }], stopReason: 'end_turn' },
      { text: 'Listed.' },
    ]);
    const result = await h.agent.run(h.sessionId, 'list');
    expect(messageText(result.message!)).toBe('Listed.');
    expect(toolResultsOf(h.db, h.sessionId).map((r) => [r!.name, r!.isError])).toEqual([['ls', false]]);
  });

  it('ends a runaway loop at maxSteps with a clear final message', async () => {
    const turn = { toolCalls: [{ name: 'ls', input: { path: '.' } }] };
    h = await agentHarness([turn, turn, turn, turn], { agent: { maxSteps: 3 } });
    const result = await h.agent.run(h.sessionId, 'loop forever');
    expect(result.reason).toBe('step_limit');
    expect(h.fake.answered).toHaveLength(3);
    expect(messageText(result.message!)).toBe(
      'Stopped after 3 steps without finishing (agents.coder.maxSteps is 3). Send a message to continue, or raise the limit in .opencode.json.',
    );
  });

  it('runs read-only calls of one batch concurrently and returns results in call order', async () => {
    active = 0;
    maxActive = 0;
    h = await agentHarness(
      [
        {
          toolCalls: [
            { name: 'slow_read', input: { id: 'a', ms: 300 } },
            { name: 'slow_read', input: { id: 'b', ms: 10 } },
            { name: 'slow_read', input: { id: 'c', ms: 150 } },
          ],
        },
        { text: 'ok' },
      ],
      { tools: [slowRead] },
    );
    await h.agent.run(h.sessionId, 'read three');
    expect(maxActive).toBe(3);
    expect(toolResultsOf(h.db, h.sessionId).map((r) => r!.content)).toEqual(['read a', 'read b', 'read c']);
  });

  it('refuses a second run on a busy session and is usable again after the first ends', async () => {
    h = await agentHarness([{ text: 'slow', delayMs: 300 }, { text: 'second' }]);
    const first = h.agent.run(h.sessionId, 'one');
    await expect(h.agent.run(h.sessionId, 'two')).rejects.toBeInstanceOf(SessionBusyError);
    expect((await first).reason).toBe('end_turn');
    expect(messageText((await h.agent.run(h.sessionId, 'three')).message!)).toBe('second');
  });

  it('never leaves the session busy when a run fails inside', async () => {
    h = await agentHarness([{ text: 'never' }]);
    await expect(h.agent.run('no-such-session', 'x')).rejects.toThrow('Session no-such-session does not exist');
    expect(h.agent.isBusy('no-such-session')).toBe(false);
  });

  it.each([
    ['rate limited', 429],
    ['overloaded', 529],
  ])('retries a %s response honouring Retry-After, without duplicated text', async (_label, status) => {
    h = await agentHarness([
      { text: 'partial', httpStatus: status, headers: { 'retry-after': '0' } },
      { text: 'Hello there.' },
    ]);
    const retries: number[] = [];
    h.bus.on('provider.retry', (e) => retries.push(e.attempt));
    const result = await h.agent.run(h.sessionId, 'hi');
    expect(result.reason).toBe('end_turn');
    expect(retries).toEqual([1]);
    expect(result.message!.parts.filter((p) => p.type === 'text')).toEqual([{ type: 'text', text: 'Hello there.' }]);
  });

  it('reports 529 as overloaded when retries run out, and finishes the message as error', async () => {
    const overloaded = { httpStatus: 529, headers: { 'retry-after': '0' } };
    h = await agentHarness([overloaded, overloaded, overloaded], { maxRetries: 2 });
    const result = await h.agent.run(h.sessionId, 'hi');
    expect(result.reason).toBe('error');
    expect(result.error).toMatch(/overloaded/i);
    expect(result.error).not.toMatch(/rate limit/i);
    expect(result.message!.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
  });

  it('fails the run when the stream drops mid-message, and the next run is accepted', async () => {
    h = await agentHarness([
      { text: 'I will now read a lot of files', toolCalls: [{ name: 'ls', input: { path: '.' } }], dropAfterChunks: 6 },
      { text: 'Recovered.' },
    ]);
    const result = await h.agent.run(h.sessionId, 'hi');
    expect(result.reason).toBe('error');
    expect(result.error).toBeTruthy();
    const next = await h.agent.run(h.sessionId, 'again');
    expect(messageText(next.message!)).toBe('Recovered.');
    expect(h.fake.requests.filter((r) => r.rejected)).toEqual([]);
  });

  it('sums usage over calls, tracks the context size separately and rolls a child session up into its parent', async () => {
    h = await agentHarness([
      {
        toolCalls: [{ name: 'ls', input: { path: '.' } }],
        usage: { input: 100, output: 20, cacheRead: 50, cacheWrite: 10 },
      },
      { text: 'done', usage: { input: 200, output: 30 } },
      { text: 'child answer', usage: { input: 7, output: 3 } },
    ]);
    await h.agent.run(h.sessionId, 'hi');
    const session = h.db.sessions.get(h.sessionId)!;
    expect([session.promptTokens, session.completionTokens, session.cacheReadTokens, session.cacheWriteTokens]).toEqual(
      [300, 50, 50, 10],
    );
    expect(session.contextTokens).toBe(230);
    // claude-haiku-4-5: $1 in, $5 out, $1.25 cache write, $0.10 cache read per 1M
    expect(session.costUsd).toBeCloseTo((300 * 1 + 50 * 5 + 10 * 1.25 + 50 * 0.1) / 1e6, 12);

    const child = h.db.sessions.create({ title: 'sub', parentSessionId: h.sessionId });
    await h.agent.run(child.id, 'search');
    const parent = h.db.sessions.get(h.sessionId)!;
    expect([parent.promptTokens, parent.completionTokens]).toEqual([307, 53]);
    expect(parent.contextTokens).toBe(230);
    expect(h.db.sessions.get(child.id)!.contextTokens).toBe(10);
  });

  it('generates a title in the background on the first message only', async () => {
    h = await agentHarness([{ text: 'Answer.' }, { text: '"Fix the add function: now"\n' }, { text: 'Second.' }], {
      agent: {
        generateTitle: async (sessionId, text) => {
          const { generateTitle } = await import('../../src/agent/title.js');
          const { createProvider, catalogModel } = await import('../../src/provider/index.js');
          const provider = createProvider(catalogModel('anthropic/claude-haiku-4-5')!, {
            providers: {},
            env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: h!.fake.anthropicBaseURL },
          });
          h!.db.sessions.updateTitle(sessionId, await generateTitle(provider, text));
        },
      },
    });
    await h.agent.run(h.sessionId, 'fix add');
    await h.agent.idle();
    expect(h.db.sessions.get(h.sessionId)!.title).toBe('Fix the add function: now');
    const titleRequest = h.fake.answered[1];
    expect(titleRequest.max_tokens).toBe(80);
    expect(titleRequest.tools ?? []).toEqual([]);
    await h.agent.run(h.sessionId, 'more');
    expect(h.fake.answered).toHaveLength(3);
  });
});
