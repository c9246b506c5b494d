/**
 * MCP through the built CLI (bin/opencode): `opencode mcp list`, and `opencode -p` where the scripted model
 * calls MCP tools, with a broken server configured beside the good one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { sanitizeToolName } from '../../src/mcp/names.js';
import { PROMPT_MCP_WAIT_MS } from '../../src/app/mcp-wait.js';
import { FILESYSTEM_SERVER, FIXTURE, startHttpFixture, tempDir, TSX_LOADER } from './fixture.js';

/** the fixture's 70-character tool name (imported from the fixture it would start a server) */
const LONG_TOOL_NAME = 'measure_the_distance_between_two_points_on_a_plane_with_a_long_name_xy';

let fake: FakeProvider | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const fixtureEntry = (...flags: string[]) => ({
  command: process.execPath,
  args: ['--import', TSX_LOADER, FIXTURE, 'stdio', ...flags],
});

function project(mcpServers: Record<string, unknown>): string {
  const dir = tempDir('opencode-mcp-cli-');
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ mcpServers }, null, 2));
  return dir;
}

describe('opencode mcp list', () => {
  it('prints each server with its type, status and tools', async () => {
    const http = await startHttpFixture();
    cleanups.push(http.close);
    const dir = project({
      local: fixtureEntry(),
      remote: { type: 'http', url: http.url, headers: { Authorization: 'Bearer t' } },
      broken: { command: 'opencode-no-such-mcp-server' },
      later: { type: 'sse', url: 'http://127.0.0.1:1/sse', disabled: true },
    });
    const run = await runCli(['--trust', 'mcp', 'list'], { cwd: dir, env: cleanEnv() });
    const tools = (server: string) =>
      [
        'bad_image',
        'crash',
        'dotted.tool',
        'echo',
        'fail',
        'image',
        LONG_TOOL_NAME,
        'mixed',
        'pid',
        'sleep',
        'toggle_extra',
      ]
        .map((t) => `  ${sanitizeToolName(server, t)}`)
        .sort();
    expect(tools('local')).toContain('  local_measure_the_distance_between_two_points_on_a_plan_3a21a28e');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n')).toEqual([
      'broken  stdio  failed: command not found: opencode-no-such-mcp-server',
      'later  sse  disabled',
      'local  stdio  connected, 11 tools',
      ...tools('local'),
      'remote  http  connected, 11 tools',
      ...tools('remote'),
      '',
    ]);
  });

  it('says how to add servers when there are none', async () => {
    const run = await runCli(['mcp', 'list'], { cwd: tempDir(), env: cleanEnv() });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'No MCP servers configured. Add them under "mcpServers" in .opencode.json (see docs/mcp.md).\n',
    });
  });

  it('reports a bad entry as one line and still lists the other servers', async () => {
    const dir = project({ good: fixtureEntry(), bad: { type: 'http' } });
    const run = await runCli(['--trust', 'mcp', 'list'], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `warning: ${join(dir, '.opencode.json')}: mcpServers.bad: type "http" needs "url"; server disabled\n`,
    );
    expect(run.stdout).toMatch(/^bad {2}http {2}disabled\ngood {2}stdio {2}connected, 11 tools\n/);
  });
});

describe('opencode -p with MCP servers', () => {
  const env = (f: FakeProvider) =>
    cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

  it('offers MCP tools on the first request; the model calls one and gets its result; a silent server does not hold it up', async () => {
    const dir = project({
      files: { command: process.execPath, args: [FILESYSTEM_SERVER, '.'] },
      silent: { command: process.execPath, args: ['-e', 'process.stdin.resume()'] },
    });
    writeFileSync(join(dir, 'notes.txt'), 'the build uses esbuild\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'files_read_text_file', input: { path: join(dir, 'notes.txt') } }] },
      { text: 'The notes say the build uses esbuild.' },
    ]);
    const started = Date.now();
    const run = await runCli(['--trust', '-p', 'what do the notes say?'], { cwd: dir, env: env(fake) });
    // the silent server is named when -p stops waiting for it
    expect(run).toMatchObject({
      code: 0,
      stdout: 'The notes say the build uses esbuild.\n',
      stderr:
        'opencode: warning: MCP server "silent" is still starting after 10 s; the run goes on without its tools (they join from the next step if it connects)\n',
    });
    // bounded by the start-up wait (10 s), not the silent server's 30 s initialize timeout
    expect(Date.now() - started).toBeLessThan(PROMPT_MCP_WAIT_MS + 8_000);
    const [first, second] = fake.answered;
    expect(first.tools.map((t: { name: string }) => t.name)).toContain('files_read_text_file');
    const results = second.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []));
    expect(results).toContainEqual(
      expect.objectContaining({ type: 'tool_result', content: 'the build uses esbuild\n' }),
    );
  });

  it('gives the model a clear error for a crashed server and warns about a server that failed to start', async () => {
    fake = await startFakeProvider([{ toolCalls: [{ name: 'test_crash', input: {} }] }, { text: 'It crashed.' }]);
    const dir = project({ test: fixtureEntry(), missing: { command: 'opencode-no-such-mcp-server' } });
    const run = await runCli(['--trust', '-p', 'crash it', '-q'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'It crashed.\n',
      // the one that failed to start, when -p stops waiting; the one that crashed, when it crashes
      stderr:
        'opencode: warning: MCP server "missing" failed: command not found: opencode-no-such-mcp-server\n' +
        'opencode: warning: MCP server "test" failed: the process exited (stderr: crashing on purpose)\n',
    });
    const results = fake.answered[1].messages.flatMap((m: { content: unknown }) =>
      Array.isArray(m.content) ? m.content : [],
    );
    expect(results).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        content:
          'MCP server "test" exited during the call to crash (stderr: crashing on purpose). It will be restarted on the next call.',
        is_error: true,
      }),
    );
  });
});
