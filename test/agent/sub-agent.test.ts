/**
 * The `agent` tool: read-only sub-agents in child sessions, run concurrently, with cost and tokens
 * rolled up into the parent, cancellation reaching them, and ids unique even when the provider
 * reuses tool-call ids.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { messageText } from '../../src/message.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('agent tool', () => {
  it('runs two sub-agents concurrently in child sessions and sums their cost into the parent', async () => {
    h = await agentHarness([
      {
        toolCalls: [
          { id: 'same', name: 'agent', input: { prompt: 'find the router' } },
          { id: 'same2', name: 'agent', input: { prompt: 'find the config loader' } },
        ],
        usage: { input: 100, output: 10 },
      },
      // the two children ask at the same time; each gets one of these
      { text: 'Found it in src/x.ts', delayMs: 200, usage: { input: 40, output: 4 } },
      { text: 'Found it in src/x.ts', delayMs: 200, usage: { input: 40, output: 4 } },
      { text: 'Both found.', usage: { input: 300, output: 20 } },
    ]);
    const order: string[] = [];
    h.bus.on('tool.started', (e) => order.push(`start ${e.toolCallId}`));
    h.bus.on('tool.finished', (e) => order.push(`finish ${e.toolCallId}`));
    const result = await h.agent.run(h.sessionId, 'where are things?');
    expect(messageText(result.message!)).toBe('Both found.');
    // concurrently: both started before either finished
    expect(order.slice(0, 2)).toEqual(['start same', 'start same2']);
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'agent', content: 'Found it in src/x.ts', isError: false },
      { name: 'agent', content: 'Found it in src/x.ts', isError: false },
    ]);
    const children = h.db.sessions.listChildren(h.sessionId);
    expect(children.map((c) => c.title).sort()).toEqual(['Task: find the config loader', 'Task: find the router']);
    expect(new Set(children.map((c) => c.id)).size).toBe(2);
    expect(children.every((c) => c.promptTokens === 40 && c.completionTokens === 4)).toBe(true);
    const parent = h.db.sessions.get(h.sessionId)!;
    expect([parent.promptTokens, parent.completionTokens]).toEqual([100 + 40 + 40 + 300, 10 + 4 + 4 + 20]);
    expect(parent.costUsd).toBeCloseTo(((100 + 80 + 300) * 1 + (10 + 8 + 20) * 5) / 1e6, 12);
    // the child ran as the task agent: read-only tools only
    const childRequest = h.fake.answered[1];
    expect(childRequest.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'glob',
      'grep',
      'ls',
      'sourcegraph',
      'view',
    ]);
  });

  it('keeps child sessions apart when the provider reuses a tool-call id', async () => {
    h = await agentHarness([
      { toolCalls: [{ id: 'call_0', name: 'agent', input: { prompt: 'one' } }] },
      { text: 'first answer' },
      { text: 'ok' },
      { toolCalls: [{ id: 'call_0', name: 'agent', input: { prompt: 'two' } }] },
      { text: 'second answer' },
      { text: 'ok again' },
    ]);
    await h.agent.run(h.sessionId, 'a');
    await h.agent.run(h.sessionId, 'b');
    expect(h.db.sessions.listChildren(h.sessionId)).toHaveLength(2);
    expect(toolResultsOf(h.db, h.sessionId).map((r) => r!.content)).toEqual(['first answer', 'second answer']);
  });

  it('reports an empty answer as an error result', async () => {
    h = await agentHarness([{ toolCalls: [{ name: 'agent', input: { prompt: 'x' } }] }, { text: '' }, { text: 'ok' }]);
    await h.agent.run(h.sessionId, 'a');
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'agent', content: 'The sub-agent finished without an answer.', isError: true },
    ]);
  });

  it('cancels the child when the parent is cancelled', async () => {
    h = await agentHarness([
      { toolCalls: [{ name: 'agent', input: { prompt: 'slow search' } }] },
      { text: 'never finished', stallAfterChunks: 2 },
    ]);
    h.bus.on('tool.started', (e) => {
      if (e.sessionId === h!.sessionId) setTimeout(() => h!.agent.cancel(h!.sessionId), 300);
    });
    const started = Date.now();
    const result = await h.agent.run(h.sessionId, 'go');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.reason).toBe('canceled');
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'agent', content: 'Tool execution canceled by user', isError: true },
    ]);
    const child = h.db.sessions.listChildren(h.sessionId)[0]!;
    const childMessages = h.db.messages.list(child.id);
    expect(childMessages.at(-1)!.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'canceled' });
  });
});
