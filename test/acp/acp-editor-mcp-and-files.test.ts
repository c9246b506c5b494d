/**
 * The editor's MCP servers join ours for the session (started through our MCP service), and a client
 * without `fs/write_text_file` gets its edits through our own file-safety path (written on disk by
 * us, nothing asked of the editor). "Allow for this session" covers the next edit of the same file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import { FIXTURE, TSX_LOADER } from '../mcp/fixture.js';
import { titleTurn, toolResultsSent } from './acp-client.js';

const acp = acpPerTest();

describe('opencode acp: the editor MCP servers and files', () => {
  it("offers the editor's stdio MCP server's tools to the model and runs them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-mcp-'));
    const fake = await acp.startFake(
      [
        { toolCalls: [{ id: 'toolu_echo', name: 'editor_echo', input: { text: 'from the model' } }] },
        { text: 'It echoed.' },
      ],
      { sideTurn: titleTurn('Echo') },
    );
    const agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.agent.request('session/new', {
      cwd: dir,
      mcpServers: [
        {
          name: 'editor',
          command: process.execPath,
          args: ['--import', TSX_LOADER, FIXTURE, 'stdio'],
          env: [{ name: 'EDITOR_MCP', value: '1' }],
        },
      ],
    });
    agent.answer = () => ({ outcome: { outcome: 'selected', optionId: 'allow' } });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo something' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    const offered = (fake.answered[0].tools as { name: string }[]).map((t) => t.name);
    expect(offered).toContain('editor_echo');
    expect(toolResultsSent(fake, 1)).toEqual(['echo: from the model']);
    const call = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({ toolCallId: 'toolu_echo', kind: 'other', title: 'editor_echo' });
  });

  it('without fs/write_text_file the edit is written by us; allow for this session covers the next edit of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-nofs-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\r\nbeta\r\n');
    const fake = await acp.startFake(
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' } }] },
        { text: 'Both changed.' },
      ],
      { sideTurn: titleTurn('Caps') },
    );
    const agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    agent.answer = () => ({ outcome: { outcome: 'selected', optionId: 'allow_session' } });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'capitalise' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    // our write keeps the file's CRLF line endings; the editor was asked nothing but the one permission
    expect(readFileSync(file, 'utf8')).toBe('ALPHA\r\nBETA\r\n');
    expect(agent.writes).toEqual([]);
    expect(agent.permissionRequests).toHaveLength(1);
  });

  it('with fs/write_text_file a file keeps its CRLF line endings in the text the editor gets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-crlf-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, '\ufeffalpha\r\nbeta\r\n');
    const fake = await acp.startFake(
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }] },
        { text: 'Done.' },
      ],
      { sideTurn: titleTurn('Caps') },
    );
    const agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'capitalise alpha' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    // the editor gets text (no byte order mark: that is the file's encoding, the editor's business)
    expect(agent.writes).toEqual([{ sessionId, path: file, content: 'ALPHA\r\nbeta\r\n' }]);
  });
});
