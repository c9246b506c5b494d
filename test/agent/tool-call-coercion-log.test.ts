/**
 * The one execution path (runToolCalls) coerces the arguments of a tool described by a plain JSON
 * Schema, as MCP and custom tools are, before it runs; rejects what cannot be coerced without running
 * it; and hands every call, run or not, to the call log with its source and outcome.
 */
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../src/message.js';
import type { ToolCallRecord } from '../../src/agent/tool-calls.js';
import { runToolCalls } from '../../src/agent/tool-calls.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { PermissionDeniedError } from '../../src/permission/errors.js';
import type { Tool } from '../../src/tools/tool.js';
import { toolContext } from '../support/tool-context.js';

/** A tool as an MCP server describes it: JSON Schema, the parsed arguments in, no kernel. */
function schemaTool(name: string, received: unknown[], run?: () => Promise<never>): Tool {
  return {
    name,
    description: `${name} for the test`,
    inputSchema: {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        deep: { type: 'object', properties: { on: { type: 'boolean' } } },
      },
      required: ['n'],
    },
    readOnly: false,
    async run(input) {
      received.push(input);
      if (run) return run();
      return { output: `got ${JSON.stringify(input)}`, isError: false };
    },
  };
}

const call = (id: string, name: string, input: string): ToolCallPart => ({
  type: 'tool_call',
  id,
  name,
  input,
  finished: true,
});

async function runBatch(registry: ToolRegistry, calls: ToolCallPart[]) {
  const log: ToolCallRecord[] = [];
  const outcome = await runToolCalls({
    calls,
    registry,
    signal: new AbortController().signal,
    contextFor: (c) => ({ ...toolContext(tmpdir()), toolCallId: c.id }),
    log: { record: (r) => log.push(r) },
  });
  return { outcome, log };
}

describe('runToolCalls: coercion and the call log', () => {
  it('gives an MCP tool the coerced arguments and logs the call as coerced, with its source', async () => {
    const received: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(schemaTool('svc_query', received), 'mcp');
    const input = '{"n":"5","tags":"a","deep":"{\\"on\\":\\"true\\"}"}';
    const { outcome, log } = await runBatch(registry, [call('c1', 'svc_query', input)]);
    expect(received).toEqual([{ n: 5, tags: ['a'], deep: { on: true } }]);
    expect(outcome.results[0]!.content).toBe('got {"n":5,"tags":["a"],"deep":{"on":true}}');
    expect(log).toEqual([
      {
        sessionId: 'session-1',
        messageId: 'message-1',
        toolCallId: 'c1',
        tool: 'svc_query',
        source: 'mcp',
        startedAt: expect.any(Number),
        durationMs: expect.any(Number),
        outcome: 'ok',
        coerced: true,
        inputChars: input.length,
        outputChars: outcome.results[0]!.content.length,
        truncated: false,
      },
    ]);
  });

  it('passes arguments that already fit on unchanged', async () => {
    const received: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(schemaTool('status', received), 'project');
    const input = '{ "n": 5 }';
    const { log } = await runBatch(registry, [call('c1', 'status', input)]);
    expect(received).toEqual([{ n: 5 }]);
    expect(log[0]).toMatchObject({ source: 'project', outcome: 'ok', coerced: false });
  });

  it('does not run a tool whose arguments cannot be coerced, and logs a validation failure', async () => {
    const received: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(schemaTool('status', received), 'user');
    const { outcome, log } = await runBatch(registry, [call('c1', 'status', '{"n":"many","tags":[1,{}]}')]);
    expect(received).toEqual([]);
    expect(outcome.results[0]).toMatchObject({
      isError: true,
      content: 'Invalid input for status: n must be an integer; you sent "many"; tags.1 must be a string; you sent {}',
    });
    expect(log[0]).toMatchObject({ source: 'user', outcome: 'validation', coerced: false });
  });

  it("logs the person's denial as permission and the call it kept from running as canceled", async () => {
    const received: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(
      schemaTool('deploy', received, async () => {
        throw new PermissionDeniedError();
      }),
      'runtime',
    );
    registry.register(schemaTool('status', received), 'project');
    const { outcome, log } = await runBatch(registry, [
      call('c1', 'deploy', '{"n":1}'),
      call('c2', 'status', '{"n":2}'),
    ]);
    expect(outcome.permissionDenied).toBe(true);
    expect(received).toEqual([{ n: 1 }]);
    expect(log.map((r) => [r.toolCallId, r.tool, r.source, r.outcome])).toEqual([
      ['c1', 'deploy', 'runtime', 'permission'],
      ['c2', 'status', 'project', 'canceled'],
    ]);
    expect(log[1]!.durationMs).toBe(0);
  });

  it('keeps running the batch when the log cannot be written', async () => {
    const received: unknown[] = [];
    const registry = new ToolRegistry();
    registry.register(schemaTool('status', received), 'project');
    const outcome = await runToolCalls({
      calls: [call('c1', 'status', '{"n":1}'), call('c2', 'status', '{"n":2}')],
      registry,
      signal: new AbortController().signal,
      contextFor: () => toolContext(tmpdir()),
      log: {
        record() {
          throw new Error('SQLITE_FULL: database or disk is full');
        },
      },
    });
    expect(outcome.results.map((r) => r.content)).toEqual(['got {"n":1}', 'got {"n":2}']);
  });
});
