/**
 * `opencode acp` end to end: a client built with the official SDK spawns the built agent against the
 * fake provider and runs whole turns: streamed chunks, a tool call that asks permission (allowed
 * once, then denied), an edit through the editor's `fs/write_text_file`, cancel mid-turn, and
 * `session/load` of the stored session in a new process (its history replayed as updates).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { brief, startAcpAgent, titleTurn, type AcpAgentProcess } from './acp-client.js';

let fake: FakeProvider | undefined;
const agents: AcpAgentProcess[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) {
    a.child.kill('SIGKILL');
    await a.close();
  }
  await fake?.close();
  fake = undefined;
});

function start(dir: string, f: FakeProvider, writeTextFile = true): AcpAgentProcess {
  const agent = startAcpAgent({ cwd: dir, env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL }) });
  agents.push(agent);
  void writeTextFile;
  return agent;
}

describe('opencode acp: a whole conversation', () => {
  it('streams, asks permission, edits through the editor, is cancelled, and replays on load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    fake = await startFakeProvider(
      [
        { text: ['I will ', 'read it.'], toolCalls: [{ id: 'toolu_view', name: 'view', input: { file_path: 'notes.txt' } }] },
        { toolCalls: [{ id: 'toolu_edit1', name: 'edit', input: { file_path: 'notes.txt', old_string: 'one', new_string: 'two' } }] },
        { text: 'Changed one to two.' },
        { toolCalls: [{ id: 'toolu_edit2', name: 'edit', input: { file_path: 'notes.txt', old_string: 'two', new_string: 'three' } }] },
        { text: ['Working ', 'on it'], stallAfterChunks: 4 },
      ],
      { sideTurn: titleTurn('Notes edits') },
    );
    const agent = start(dir, fake);
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });

    const first = await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change one to two' }] });
    expect(first).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    console.log(JSON.stringify(agent.updates.map((u) => brief(u.update))));
    console.log(JSON.stringify(agent.permissionRequests));
    console.log(JSON.stringify(agent.writes));

    agent.answer = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
    const second = await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now three' }] });
    expect(second).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(file, 'utf8')).toBe('two\n');

    const third = agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
    await agent.waitForUpdate((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text === 'Working ');
    await agent.agent.notify('session/cancel', { sessionId });
    expect(await third).toEqual({ stopReason: 'cancelled' });
    console.log(agent.stderr());
    expect(await agent.close()).toBe(0);

    const again = start(dir, fake);
    await again.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(await again.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })).toEqual({});
    console.log(JSON.stringify(again.updates.map((u) => brief(u.update))));
  });
});
