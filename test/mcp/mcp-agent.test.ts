/**
 * MCP tools through the agent loop and the real provider SDKs (fake provider on loopback): the model is
 * offered the MCP tools with provider-safe names and schemas, calls one, and gets its result, images
 * included as images; a crashed server gives the model a clear error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpService } from '../../src/mcp/service.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';
import { startService, stdioFixture, whenServer } from './fixture.js';

let h: Harness | undefined;
let service: McpService | undefined;
afterEach(async () => {
  await h?.close();
  await service?.close();
  h = undefined;
  service = undefined;
});

/** A harness whose registry gets the test server's tools, connected before the run. */
async function harnessWithMcp(turns: Parameters<typeof agentHarness>[0], api: 'anthropic' | 'openai' = 'anthropic') {
  h = await agentHarness(turns, {
    api,
    onToolRegistry: (tools) => {
      service = startService({ servers: { test: stdioFixture() }, registry: tools });
    },
  });
  await whenServer(service!, 'test', (s) => s.status === 'connected');
  return h;
}

describe.each(['anthropic', 'openai'] as const)('MCP tools in the agent loop (%s)', (api) => {
  it('offers MCP tools with safe names and inlined schemas; the model calls one and uses its result', async () => {
    const harness = await harnessWithMcp(
      [
        { toolCalls: [{ name: 'test_echo', input: { text: 'from the model' } }] },
        { text: 'The server said: echo: from the model' },
      ],
      api,
    );
    const result = await harness.agent.run(harness.sessionId, 'ask the echo server');
    expect(result.reason).toBe('end_turn');
    expect(toolResultsOf(harness.db, harness.sessionId)).toEqual([
      { name: 'test_echo', content: 'echo: from the model', isError: false },
    ]);

    const [first, second] = harness.fake.answered;
    const names: string[] =
      api === 'anthropic'
        ? first.tools.map((t: { name: string }) => t.name)
        : first.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toContain('test_echo');
    expect(names).toContain('test_measure_the_distance_between_two_points_on_a_plane_d64a9467');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(JSON.stringify(first.tools)).not.toMatch(/\$ref|\$defs|\$schema/);

    // the second request carries the tool result to the model
    const sent = JSON.stringify(second.messages);
    expect(sent).toContain('echo: from the model');
  });

  it('sends an MCP image to the model as an image', async () => {
    const harness = await harnessWithMcp(
      [{ toolCalls: [{ name: 'test_image', input: {} }] }, { text: 'a pixel' }],
      api,
    );
    await harness.agent.run(harness.sessionId, 'show me');
    const second = harness.fake.answered[1];
    if (api === 'anthropic') {
      const toolResult = second.messages
        .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
        .find((b: { type: string }) => b.type === 'tool_result');
      expect(toolResult.content).toEqual([
        { type: 'text', text: 'a 1x1 picture\n[image: image/png, 70 bytes]' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
        },
      ]);
    } else {
      expect(JSON.stringify(second.messages)).toContain('data:image/png;base64,iVBORw0KGgo');
    }
  });

  it('gives the model a clear error when the server crashed, and restarts it for the next call', async () => {
    const harness = await harnessWithMcp(
      [
        { toolCalls: [{ name: 'test_crash', input: {} }] },
        { toolCalls: [{ name: 'test_echo', input: { text: 'again' } }] },
        { text: 'done' },
      ],
      api,
    );
    const result = await harness.agent.run(harness.sessionId, 'crash it');
    expect(result.reason).toBe('end_turn');
    expect(toolResultsOf(harness.db, harness.sessionId)).toEqual([
      {
        name: 'test_crash',
        content:
          'MCP server "test" exited during the call to crash (stderr: crashing on purpose). It will be restarted on the next call.',
        isError: true,
      },
      { name: 'test_echo', content: 'echo: again', isError: false },
    ]);
  });
});
