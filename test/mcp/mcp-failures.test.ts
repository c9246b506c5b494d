/**
 * No MCP server can hang or break the app: a slow call times out with a clear error, a cancelled call
 * returns at once (and the server is told), a crash mid-call is a clear error and the next call restarts
 * the server once, a server that never initializes or cannot start is `failed` with a reason while the
 * others work, and a server's stderr goes to its log, never to the terminal.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpService } from '../../src/mcp/service.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';
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
import { closedPort } from '../support/ports.js';

let service: McpService | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await service?.close();
  service = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tool(registry: ToolRegistry, name: string): Tool {
  const found = registry.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function connectedFixture(extra: Record<string, unknown> = {}, options: { logDir?: string } = {}) {
  const registry = new ToolRegistry();
  const cwd = tempDir();
  service = startService({ servers: { test: stdioFixture([], extra) }, registry, cwd, logDir: options.logDir });
  await whenServer(service, 'test', (s) => s.status === 'connected');
  return { registry, cwd, service };
}

describe('MCP failures', () => {
  it("times a slow call out after the server's timeout with a clear error, and tells the server to cancel", async () => {
    const logDir = tempDir();
    const { registry, cwd } = await connectedFixture({ timeout: 300 }, { logDir });
    const started = Date.now();
    const result = await tool(registry, 'test_sleep').run({ ms: 10000 }, toolContext(cwd));
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({
      output:
        'sleep (MCP server "test") did not answer within 0.3 s; the call was cancelled. ' +
        'The server\'s "timeout" setting in .opencode.json sets this limit.',
      isError: true,
    });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2000);
    // the server received notifications/cancelled (it logs so on stderr, which lands in our log)
    await expect
      .poll(() => readFileSync(join(logDir, 'mcp-test.log'), 'utf8'))
      .toContain('stderr: cancelled: sleep 10000');
    // and the connection is still good
    expect((await tool(registry, 'test_echo').run({ text: 'still here' }, toolContext(cwd))).output).toBe(
      'echo: still here',
    );
  });

  it('returns at once when the call is cancelled, and tells the server', async () => {
    const { registry, cwd, service: s } = await connectedFixture();
    const controller = new AbortController();
    const call = tool(registry, 'test_sleep').run({ ms: 10000 }, toolContext(cwd, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 200));
    const abortedAt = Date.now();
    controller.abort();
    const result = await call;
    expect(Date.now() - abortedAt).toBeLessThan(100);
    expect(result).toEqual({ output: 'Tool execution canceled by user', isError: true });
    await expect.poll(() => s.logLines('test').map((l) => l.text)).toContain('cancelled: sleep 10000');
  });

  it('reports a crash mid-call clearly, then restarts the server once on the next call', async () => {
    const { registry, cwd, service: s } = await connectedFixture();
    const pidBefore = (await tool(registry, 'test_pid').run({}, toolContext(cwd))).output;

    const crashed = await tool(registry, 'test_crash').run({}, toolContext(cwd));
    expect(crashed).toMatchObject({
      output:
        'MCP server "test" exited during the call to crash (stderr: crashing on purpose). It will be restarted on the next call.',
      isError: true,
    });
    const info = await whenServer(s, 'test', (i) => i.status === 'failed');
    expect(info.error).toBe('the process exited (stderr: crashing on purpose)');
    // its tools stay offered: a call is what restarts it
    expect(registry.get('test_pid')).toBeDefined();

    const pidAfter = await tool(registry, 'test_pid').run({}, toolContext(cwd));
    expect(pidAfter.isError).toBe(false);
    expect(pidAfter.output).not.toBe(pidBefore);
    expect(s.servers()[0]).toMatchObject({ status: 'connected' });
    expect(s.logLines('test').map((l) => l.text)).toContain('restarting for a tool call');
  });

  it('gives up with a clear error when the restart fails, and withdraws the tools', async () => {
    const registry = new ToolRegistry();
    const cwd = tempDir();
    // the first start works; the restart is refused by an environment flag the fixture reads
    const flagFile = join(cwd, 'no-restart');
    const config = stdioFixture([], {});
    config.command = '/bin/sh';
    config.args = [
      '-c',
      `if [ -e "${flagFile}" ]; then echo "refusing to start" >&2; exit 4; fi; touch "${flagFile}"; exec "$0" "$@"`,
      process.execPath,
      ...(stdioFixture().args ?? []),
    ];
    service = startService({ servers: { test: config }, registry, cwd });
    await whenServer(service, 'test', (s) => s.status === 'connected');

    await tool(registry, 'test_crash').run({}, toolContext(cwd));
    const result = await tool(registry, 'test_echo').run({ text: 'x' }, toolContext(cwd));
    expect(result).toMatchObject({
      output:
        'MCP server "test" exited and could not be restarted: the process exited during initialize (stderr: refusing to start)',
      isError: true,
    });
    expect(registry.get('test_echo')).toBeUndefined();
    expect(service.servers()[0]).toMatchObject({ status: 'failed', tools: [] });
  });

  it('marks a server that never answers initialize failed after the timeout; the others work', async () => {
    const registry = new ToolRegistry();
    const cwd = tempDir();
    writeFileSync(join(cwd, 'a.txt'), 'A');
    const http = await startHttpFixture(['--never-initialize']);
    cleanups.push(http.close);
    const started = Date.now();
    service = startService({
      servers: {
        // plain node, not the tsx fixture, so a loaded machine still starts them well within the timeout
        silent: serverConfig({
          command: process.execPath,
          args: ['-e', 'process.stderr.write("listening\\n"); process.stdin.resume()'],
        }),
        silenthttp: serverConfig({ type: 'http', url: http.url }),
        good: serverConfig({ command: process.execPath, args: [FILESYSTEM_SERVER, cwd] }),
      },
      registry,
      cwd,
      initializeTimeoutMs: 4000,
    });
    const good = await whenServer(service, 'good', (s) => s.status === 'connected');
    expect(good.tools).toContain('good_read_text_file');
    // the good server is usable while the others are still waiting
    expect(service.servers().find((s) => s.name === 'silent')?.status).toBe('connecting');
    const read = await tool(registry, 'good_read_text_file').run({ path: join(cwd, 'a.txt') }, toolContext(cwd));
    expect(read.output).toBe('A');

    const silent = await whenServer(service, 'silent', (s) => s.status === 'failed');
    const silentHttp = await whenServer(service, 'silenthttp', (s) => s.status === 'failed');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(silent).toEqual({
      name: 'silent',
      type: 'stdio',
      status: 'failed',
      error: 'no answer to initialize within 4 s (stderr: listening)',
      tools: [],
    });
    expect(silentHttp.error).toBe('no answer to initialize within 4 s');
    expect(registry.list().filter((t) => t.name.startsWith('silent'))).toEqual([]);
  });

  it('reports a command that does not exist, and a server that exits during initialize', async () => {
    const refusedPort = await closedPort();
    service = startService({
      servers: {
        missing: serverConfig({ command: 'opencode-no-such-mcp-server', args: ['--stdio'] }),
        dies: serverConfig({ command: '/bin/sh', args: ['-c', 'echo "missing API key" >&2; exit 3'] }),
        refused: serverConfig({ type: 'http', url: `http://127.0.0.1:${refusedPort}/mcp` }),
        badurl: serverConfig({ type: 'sse', url: 'not a url' }),
        off: serverConfig({ command: 'whatever', disabled: true }),
      },
    });
    await service.waitForStartup();
    expect(service.servers()).toEqual([
      { name: 'badurl', type: 'sse', status: 'failed', error: 'invalid URL "not a url"', tools: [] },
      {
        name: 'dies',
        type: 'stdio',
        status: 'failed',
        error: 'the process exited during initialize (stderr: missing API key)',
        tools: [],
      },
      {
        name: 'missing',
        type: 'stdio',
        status: 'failed',
        error: 'command not found: opencode-no-such-mcp-server',
        tools: [],
      },
      { name: 'off', type: 'stdio', status: 'disabled', tools: [] },
      {
        name: 'refused',
        type: 'http',
        status: 'failed',
        error: `cannot reach http://127.0.0.1:${refusedPort}/mcp: connect ECONNREFUSED 127.0.0.1:${refusedPort}`,
        tools: [],
      },
    ]);
  });

  it('publishes status changes and a warning for each failure', async () => {
    const updates: string[] = [];
    const warnings: string[] = [];
    const { McpService } = await import('../../src/mcp/service.js');
    service = new McpService({
      servers: { missing: serverConfig({ command: 'opencode-no-such-mcp-server' }) },
      cwd: tempDir(),
    });
    service.events.on('server.updated', (i) => updates.push(`${i.name}: ${i.status}`));
    service.events.on('warning', (w) => warnings.push(w.message));
    service.start();
    await service.waitForStartup();
    expect(updates).toEqual(['missing: connecting', 'missing: failed']);
    expect(warnings).toEqual(['MCP server "missing" failed: command not found: opencode-no-such-mcp-server']);
  });

  it("writes a stdio server's stderr to <data>/mcp-<name>.log, not to our stderr", async () => {
    const logDir = tempDir();
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      await connectedFixture({}, { logDir });
      await service!.close();
      service = undefined;
    } finally {
      process.stderr.write = write;
    }
    const file = join(logDir, 'mcp-test.log');
    expect(existsSync(file)).toBe(true);
    const log = readFileSync(file, 'utf8');
    expect(log).toMatch(/^\S+Z stderr: mcp-test-server: ready on stdio$/m);
    expect(log).toMatch(/^\S+Z opencode: connected: 11 tool\(s\): echo, image,/m);
    expect(written.join('')).not.toContain('mcp-test-server');
  });
});
