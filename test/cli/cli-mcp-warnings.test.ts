/**
 * What `-p` says on stderr about MCP servers: a server that never answers
 * `initialize` is named when `-p` stops waiting for it (it used to cost 10 s with nothing said), one that
 * failed is named with its reason, and two tools whose safe names collide are warned about, as the
 * README's MCP section says. In process with a short wait, then once end to end through `bin/opencode`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPT_MCP_WAIT_MS, waitForMcpBeforePrompt } from '../../src/app/mcp-wait.js';
import type { McpService } from '../../src/mcp/service.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { serverConfig, startService, stdioFixture, TSX_LOADER } from '../mcp/fixture.js';

const EDGE_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp-edge-server.ts');
const edge = (...flags: string[]) => ({
  command: process.execPath,
  args: ['--import', TSX_LOADER, EDGE_SERVER, ...flags],
});
const COLLISION =
  'warning: MCP tool "read_file" of server "docs" and tool "read.file" of server "docs" both map to "docs_read_file"; the first is named "docs_read_file_';

let service: McpService | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  await fake?.close();
  fake = undefined;
});

describe('waitForMcpBeforePrompt', () => {
  it('names a server still starting when the wait ends, and one that failed, once each', async () => {
    const lines: string[] = [];
    service = startService({
      servers: {
        silent: stdioFixture(['--never-initialize']),
        broken: serverConfig({ command: 'opencode-no-such-command' }),
      },
      registry: new ToolRegistry(),
    });
    const stop = await waitForMcpBeforePrompt(service, (line) => lines.push(line), 1_500);
    stop();
    expect(lines).toEqual([
      'warning: MCP server "broken" failed: command not found: opencode-no-such-command',
      'warning: MCP server "silent" is still starting after 1.5 s; the run goes on without its tools (they join from the next step if it connects)',
    ]);
  }, 20_000);

  it('names every server still starting in one line', async () => {
    const lines: string[] = [];
    service = startService({
      servers: { one: stdioFixture(['--never-initialize']), two: serverConfig(edge('--never-initialize')) },
      registry: new ToolRegistry(),
    });
    const stop = await waitForMcpBeforePrompt(service, (line) => lines.push(line), 1_000);
    stop();
    expect(lines).toEqual([
      'warning: MCP servers "one", "two" are still starting after 1 s; the run goes on without their tools (they join from the next step if they connect)',
    ]);
  }, 20_000);

  it('warns about two tools whose safe names collide', async () => {
    const lines: string[] = [];
    service = startService({
      servers: { docs: serverConfig(edge('--tools', 'read.file,read_file')) },
      registry: new ToolRegistry(),
    });
    const stop = await waitForMcpBeforePrompt(service, (line) => lines.push(line), 15_000);
    stop();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(COLLISION)).toBe(true);
    expect(lines[0]).toMatch(/_[0-9a-f]{8}"$/);
  }, 20_000);
});

describe('opencode -p with MCP servers', () => {
  it(`says on stderr which server is still silent after ${PROMPT_MCP_WAIT_MS / 1000} s and which tools collide, and still answers`, async () => {
    fake = await startFakeProvider([{ text: 'Done.' }]);
    const dir = mkdtempSync(join(tmpdir(), 'opencode-cli-mcp-'));
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({
        mcpServers: { docs: edge('--tools', 'read.file,read_file'), silent: edge('--never-initialize') },
      }),
    );
    const run = await runCli(['--trust', '-p', 'hi', '-q'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-secret-key', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Done.\n');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.startsWith(`opencode: ${COLLISION}`)).toBe(true);
    expect(lines[1]).toBe(
      'opencode: warning: MCP server "silent" is still starting after 10 s; the run goes on without its tools (they join from the next step if it connects)',
    );
    // the model was offered the collided tools under distinct names
    const offered = (fake.answered[0].tools as { name: string }[])
      .map((t) => t.name)
      .filter((n) => n.startsWith('docs_'));
    expect(offered).toHaveLength(2);
    expect(offered).toContain('docs_read_file');
  }, 60_000);
});
