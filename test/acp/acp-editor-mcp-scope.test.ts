/**
 * The MCP servers an editor passes belong to the sessions that passed them: another session of the
 * same folder and process is neither offered their tools nor able to run them; sessions passing the
 * same server share one process, which stops once the last of them is closed (`session/close`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { McpServerStdio } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider } from '../support/fake-provider.js';
import { FIXTURE, TSX_LOADER } from '../mcp/fixture.js';
import { titleTurn, toolResultsSent } from './acp-client.js';

const acp = acpPerTest();

/**
 * A project whose commands and servers run without the OS sandbox: the tests read the editor server's
 * pid and its environment from the host's /proc, which the sandbox's own process namespace hides.
 * (`--trust` lets the project's setting loosen the sandbox.)
 */
function project(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ sandbox: 'off' }));
  return dir;
}

/** The editor's tools offered in answered request `n`. */
function editorToolsOffered(f: FakeProvider, n: number): string[] {
  return (f.answered[n].tools as { name: string }[])
    .map((t) => t.name)
    .filter((name) => name.startsWith('editor_'))
    .sort();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const EDITOR_SERVER: McpServerStdio = {
  name: 'editor',
  command: process.execPath,
  args: ['--import', TSX_LOADER, FIXTURE, 'stdio'],
  env: [],
};
const PID_CALL = { toolCalls: [{ name: 'editor_pid', input: {} }] };

describe("opencode acp: the editor's MCP servers per session", () => {
  it('are offered only to the sessions that passed them, and stop when the last of those is closed', async () => {
    const dir = project('opencode-acp-mcp-scope-');
    const fake = await acp.startFake(
      [
        PID_CALL,
        { text: 'A ran it.' },
        PID_CALL,
        { text: 'B has no such tool.' },
        PID_CALL,
        { text: 'C ran it.' },
        PID_CALL,
        { text: 'C ran it again.' },
      ],
      { sideTurn: titleTurn('Scope') },
    );
    const agent = acp.startAgent({
      cwd: dir,
      args: ['--trust'],
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.agentCapabilities?.sessionCapabilities?.close).toEqual({});
    const a = (await agent.agent.request('session/new', { cwd: dir, mcpServers: [EDITOR_SERVER] })).sessionId;
    const b = (await agent.agent.request('session/new', { cwd: dir, mcpServers: [] })).sessionId;
    const c = (await agent.agent.request('session/new', { cwd: dir, mcpServers: [EDITOR_SERVER] })).sessionId;
    const prompt = async (sessionId: string) =>
      expect(
        await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which process?' }] }),
      ).toEqual({ stopReason: 'end_turn' });

    await prompt(a);
    const expectedTools = editorToolsOffered(fake, 0);
    expect(expectedTools).toContain('editor_pid');
    const pid = Number(toolResultsSent(fake, 1)[0]);
    expect(alive(pid)).toBe(true);

    // B, of the same folder, is offered none of them and cannot run one by name
    await prompt(b);
    expect(editorToolsOffered(fake, 2)).toEqual([]);
    expect(toolResultsSent(fake, 3)[0]).toMatch(/^Tool not found: editor_pid\. Available tools: /);

    // C passed the same server: it shares A's process
    await prompt(c);
    expect(editorToolsOffered(fake, 4)).toEqual(expectedTools);
    expect(toolResultsSent(fake, 5)).toEqual([String(pid)]);

    // A closed: C still needs the server
    expect(await agent.agent.request('session/close', { sessionId: a })).toEqual({});
    expect(alive(pid)).toBe(true);
    await prompt(c);
    expect(editorToolsOffered(fake, 6)).toEqual(expectedTools);
    expect(toolResultsSent(fake, 7)).toEqual([String(pid)]);

    // C closed too: no session needs it, the process is stopped
    expect(await agent.agent.request('session/close', { sessionId: c })).toEqual({});
    while (alive(pid)) await sleep(50);
    expect(alive(pid)).toBe(false);
    // a closed session is gone for the agent: a prompt to it is "resource not found"
    await expect(
      agent.agent.request('session/prompt', { sessionId: a, prompt: [{ type: 'text', text: 'hello?' }] }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it('a session loaded again without a server it passed before lets it go', async () => {
    const dir = project('opencode-acp-mcp-reload-');
    const fake = await acp.startFake([PID_CALL, { text: 'Ran it.' }, { text: 'No editor tools now.' }], {
      sideTurn: titleTurn('Reload'),
    });
    const agent = acp.startAgent({
      cwd: dir,
      args: ['--trust'],
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [EDITOR_SERVER] });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which process?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    const pid = Number(toolResultsSent(fake, 1)[0]);
    expect(alive(pid)).toBe(true);
    expect(await agent.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })).toEqual({});
    while (alive(pid)) await sleep(50);
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tools?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(editorToolsOffered(fake, 2)).toEqual([]);
  });

  it('a name passed twice in one session/new: the first server runs, the log names the second', async () => {
    const dir = project('opencode-acp-mcp-twice-');
    const fake = await acp.startFake([PID_CALL, { text: 'Ran it.' }], { sideTurn: titleTurn('Twice') });
    const agent = acp.startAgent({
      cwd: dir,
      args: ['--trust'],
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const servers = [withWhich('first'), withWhich('second')];
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: servers });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which process?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(whichOf(Number(toolResultsSent(fake, 1)[0]))).toBe('first');
    expect(agent.stderr()).toContain(
      `opencode acp: MCP server "editor" is passed more than once for session ${sessionId}: the first is used (give each server its own name)\n`,
    );
  });

  it('a session loaded again with its server under other settings gets it restarted with them', async () => {
    const dir = project('opencode-acp-mcp-resettle-');
    const fake = await acp.startFake([PID_CALL, { text: 'Old.' }, PID_CALL, { text: 'New.' }], {
      sideTurn: titleTurn('Resettle'),
    });
    const agent = acp.startAgent({
      cwd: dir,
      args: ['--trust'],
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [withWhich('old')] });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    const oldPid = Number(toolResultsSent(fake, 1)[0]);
    expect(whichOf(oldPid)).toBe('old');
    expect(await agent.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [withWhich('new')] })).toEqual(
      {},
    );
    expect(alive(oldPid)).toBe(false);
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which now?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(whichOf(Number(toolResultsSent(fake, 3)[0]))).toBe('new');
  });
});

/** The editor server with WHICH=`which` in its environment. */
function withWhich(which: string): McpServerStdio {
  return { ...EDITOR_SERVER, env: [{ name: 'WHICH', value: which }] };
}

/** WHICH of the process `pid`'s environment (Linux /proc). */
function whichOf(pid: number): string | undefined {
  const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((e) => e.startsWith('WHICH='));
  return entry?.slice('WHICH='.length);
}
