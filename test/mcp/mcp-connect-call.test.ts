/**
 * Real MCP servers, connected once, their tools in the registry and callable: the test server over stdio,
 * Streamable HTTP and HTTP+SSE, and @modelcontextprotocol/server-filesystem over stdio.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCalls } from '../../src/agent/tool-calls.js';
import type { ToolResultPart } from '../../src/message.js';
import type { McpService } from '../../src/mcp/service.js';
import type { PermissionAskInput } from '../../src/permission/types.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';
import { toolContext } from '../support/tool-context.js';
import {
  FILESYSTEM_SERVER,
  serverConfig,
  startHttpFixture,
  startService,
  stdioFixture,
  tempDir,
  whenServer,
} from './fixture.js';

/** A context that records what the tool asked permission for. */
function recordingContext(cwd: string, signal?: AbortSignal): { ctx: ToolContext; asked: PermissionAskInput[] } {
  const asked: PermissionAskInput[] = [];
  const ctx = {
    ...toolContext(cwd, { signal }),
    askPermission: async (input: PermissionAskInput) => void asked.push(input),
  };
  return { ctx, asked };
}

/** Sends the raw JSON text `input` for `name` through the execution path every call takes, as the agent does. */
async function callAsSent(
  registry: ToolRegistry,
  name: string,
  input: string,
  ctx: ToolContext,
): Promise<ToolResultPart> {
  const call = { type: 'tool_call' as const, id: 'call-1', name, input, finished: true };
  const { results } = await runToolCalls({ calls: [call], registry, signal: ctx.signal, contextFor: () => ctx });
  return results[0]!;
}

function tool(registry: ToolRegistry, name: string): Tool {
  const found = registry.get(name);
  if (!found)
    throw new Error(
      `no tool ${name}; have ${registry
        .list()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return found;
}

describe.each(['stdio', 'http', 'sse'] as const)('an MCP server over %s', (transport) => {
  const registry = new ToolRegistry();
  const cwd = tempDir();
  let service: McpService;
  let http: Awaited<ReturnType<typeof startHttpFixture>> | undefined;

  beforeAll(async () => {
    const config =
      transport === 'stdio'
        ? stdioFixture()
        : serverConfig({ type: transport, url: (http = await startHttpFixture([], transport)).url });
    service = startService({ servers: { test: config }, registry, cwd });
    await whenServer(service, 'test', (s) => s.status !== 'connecting');
  });
  afterAll(async () => {
    await service.close();
    http?.close();
  });

  it('connects, lists its tools under provider-safe names and reports them', () => {
    const [info] = service.servers();
    expect(info).toMatchObject({ name: 'test', type: transport, status: 'connected' });
    expect(info.tools).toEqual([
      'test_bad_image',
      'test_crash',
      'test_dotted_tool',
      'test_echo',
      'test_fail',
      'test_image',
      'test_measure_the_distance_between_two_points_on_a_plane_d64a9467',
      'test_mixed',
      'test_pid',
      'test_sleep',
      'test_toggle_extra',
    ]);
    for (const name of info.tools) expect(registry.get(name)).toBeDefined();
    expect(service.toolSource('test_dotted_tool')).toEqual({ server: 'test', tool: 'dotted.tool' });
  });

  it('calls a tool, asking permission as the original did', async () => {
    const { ctx, asked } = recordingContext(cwd);
    const result = await tool(registry, 'test_echo').run({ text: 'hi mcp' }, ctx);
    expect(result).toEqual({
      output: 'echo: hi mcp',
      isError: false,
      metadata: { mcpServer: 'test', mcpTool: 'echo' },
    });
    expect(asked).toEqual([
      {
        action: 'execute',
        description: 'execute test_echo with the following parameters: {"text":"hi mcp"}',
        params: { text: 'hi mcp' },
        path: cwd,
      },
    ]);
  });

  it('keeps one connection: every call reaches the same server', async () => {
    const pid = (await tool(registry, 'test_pid').run({}, recordingContext(cwd).ctx)).output;
    const again = (await callAsSent(registry, 'test_pid', '', recordingContext(cwd).ctx)).content;
    expect(again).toBe(pid);
    if (transport !== 'stdio') expect(pid).toBe(String(http!.child.pid));
  });

  it('passes an image on as an image', async () => {
    const result = await tool(registry, 'test_image').run({}, recordingContext(cwd).ctx);
    expect(result.output).toBe('a 1x1 picture\n[image: image/png, 70 bytes]');
    expect(result.images).toEqual([{ mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }]);
  });

  it('turns an image that is not base64 into error text and passes no image', async () => {
    const result = await tool(registry, 'test_bad_image').run({}, recordingContext(cwd).ctx);
    expect(result.images).toBeUndefined();
    expect(result.output).toBe(
      'Error: the tool returned an image that cannot be shown: the image data is not valid base64',
    );
  });

  it('honours isError', async () => {
    const result = await tool(registry, 'test_fail').run({}, recordingContext(cwd).ctx);
    expect(result).toMatchObject({ output: 'something went wrong', isError: true });
  });

  it('keeps every content item in order', async () => {
    const result = await tool(registry, 'test_mixed').run({}, recordingContext(cwd).ctx);
    expect(result.output).toBe(
      'first\nresource text\n[resource: file:///blob.bin, application/octet-stream]\n[resource link: linked.md file:///linked.md]\nlast',
    );
  });

  it('offers the 70-character tool under a 64-character name with its $ref schema inlined', async () => {
    const long = tool(registry, 'test_measure_the_distance_between_two_points_on_a_plane_d64a9467');
    expect(long.name).toHaveLength(64);
    const point = {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    };
    expect(long.inputSchema).toEqual({
      type: 'object',
      properties: { from: point, to: { ...point, description: 'end point' } },
      required: ['from', 'to'],
    });
    const result = await long.run({ from: { x: 0, y: 0 }, to: { x: 3, y: 4 } }, recordingContext(cwd).ctx);
    expect(result).toMatchObject({ output: '5', isError: false });
  });

  it('answers input that is not a JSON object without calling the server', async () => {
    const { ctx, asked } = recordingContext(cwd);
    expect(await tool(registry, 'test_echo').run([1, 2], ctx)).toMatchObject({
      output: 'The input of test_echo must be a JSON object of parameters; you sent [1,2]',
      isError: true,
    });
    expect(await callAsSent(registry, 'test_echo', '{"text":', ctx)).toMatchObject({ isError: true });
    expect(asked).toEqual([]);
  });

  it('ends the turn on a denial, without calling the server', async () => {
    const { PermissionDeniedError } = await import('../../src/permission/errors.js');
    const ctx = {
      ...toolContext(cwd),
      askPermission: async () => {
        throw new PermissionDeniedError();
      },
    };
    expect(await tool(registry, 'test_echo').run({ text: 'x' }, ctx)).toEqual({
      output: 'Permission denied',
      isError: true,
      permissionDenied: true,
    });
  });
});

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  const registry = new ToolRegistry();
  const dir = tempDir('opencode-mcp-files-');
  let service: McpService;

  beforeAll(async () => {
    writeFileSync(join(dir, 'notes.txt'), 'line one\nline two\n');
    writeFileSync(join(dir, 'other.md'), '# other\n');
    service = startService({
      servers: { files: serverConfig({ command: process.execPath, args: [FILESYSTEM_SERVER, dir] }) },
      registry,
      cwd: dir,
    });
    await whenServer(service, 'files', (s) => s.status !== 'connecting');
  });
  afterAll(() => service.close());

  it('lists a directory and reads a file', async () => {
    expect(service.servers()[0]).toMatchObject({ status: 'connected' });
    const list = await tool(registry, 'files_list_directory').run({ path: dir }, recordingContext(dir).ctx);
    expect(list).toMatchObject({ isError: false });
    expect(list.output.split('\n').sort()).toEqual(['[FILE] notes.txt', '[FILE] other.md']);

    const read = await tool(registry, 'files_read_text_file').run(
      { path: join(dir, 'notes.txt') },
      recordingContext(dir).ctx,
    );
    expect(read).toMatchObject({ output: 'line one\nline two\n', isError: false });
  });

  it("reports the server's own error for a path outside the allowed directory", async () => {
    const read = await tool(registry, 'files_read_text_file').run({ path: '/etc/hostname' }, recordingContext(dir).ctx);
    expect(read.isError).toBe(true);
    expect(read.output).toMatch(/outside allowed directories|Access denied/i);
  });
});
