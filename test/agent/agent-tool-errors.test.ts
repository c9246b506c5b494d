/**
 * Every tool call gets exactly one result, in call order, and each failure is an error result the
 * model can act on — never an empty success, never a dropped call (the original gave Go errors to the model as empty successes).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../src/tools/tool.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';

const explode: Tool = {
  name: 'explode',
  description: 'A custom tool that throws instead of returning a result.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: false,
  async run() {
    throw new Error('disk on fire');
  },
};

const count = defineTool({
  name: 'count',
  description: 'Counts to n.',
  parameters: z.object({ n: z.number() }),
  readOnly: true,
  async run({ n }) {
    return Array.from({ length: n }, (_, i) => i + 1).join(',');
  },
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(['anthropic', 'openai'] as const)('tool call failures become results (%s)', (api) => {
  it('answers unknown tool, invalid JSON, schema violation and a throwing tool, in order, then continues', async () => {
    h = await agentHarness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'nosuchtool', input: { a: 1 } },
            { id: 'c2', name: 'count', input: '{"n": 3' },
            { id: 'c3', name: 'count', input: { n: 'three' } },
            { id: 'c4', name: 'explode', input: {} },
            { id: 'c5', name: 'count', input: { n: 3 } },
          ],
        },
        { text: 'Done.' },
      ],
      { api, tools: [explode, count] },
    );
    const result = await h.agent.run(h.sessionId, 'go');
    expect(result.reason).toBe('end_turn');
    expect(h.fake.requests.filter((r) => r.rejected).map((r) => r.rejected)).toEqual([]);
    const results = toolResultsOf(h.db, h.sessionId);
    expect(results.map((r) => r!.name)).toEqual(['nosuchtool', 'count', 'count', 'explode', 'count']);
    expect(results.map((r) => r!.isError)).toEqual([true, true, true, true, false]);
    expect(results[0]!.content).toMatch(/^Tool not found: nosuchtool\. Available tools: .*bash.*count.*view/);
    expect(results[1]!.content).toMatch(/^The input of count is not valid JSON/);
    expect(results[2]!.content).toBe('Invalid input for count: n must be a number; you sent "three"');
    expect(results[3]!.content).toBe('Error: disk on fire');
    expect(results[4]!.content).toBe('1,2,3');

    // the invalid input is kept as the model sent it
    const assistant = h.db.messages.list(h.sessionId).find((m) => m.role === 'assistant')!;
    expect(assistant.parts.find((p) => p.type === 'tool_call' && p.id === 'c2')).toMatchObject({ input: '{"n": 3' });
    // and the second request (which carries all five results) was accepted by the API
    expect(h.fake.answered).toHaveLength(2);
  });
});
