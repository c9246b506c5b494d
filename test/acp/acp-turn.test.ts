/**
 * `opencode acp` end to end: a client built with the official SDK spawns the built agent against the
 * fake provider and runs whole turns: streamed chunks, a tool call that asks permission (allowed
 * once, then denied), an edit through the editor's `fs/write_text_file`, cancel mid-turn, and
 * `session/load` of the stored session in a new process (its history replayed as updates).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../src/provider/catalog.js';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider } from '../support/fake-provider.js';
import { brief, titleTurn, type AcpAgentProcess } from './acp-client.js';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

const acp = acpPerTest();

function start(dir: string, f: FakeProvider): AcpAgentProcess {
  return acp.startAgent({
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL }),
  });
}

/** Updates that are not the conversation: the commands, the title, the context usage. */
const SIDE_UPDATES = ['available_commands_update', 'session_info_update', 'usage_update'];

/** The updates of `agent` in short form, without the side ones (they come at times of their own). */
function timeline(agent: AcpAgentProcess, from = 0): unknown[] {
  return agent.updates
    .slice(from)
    .map((n) => n.update)
    .filter((u) => !SIDE_UPDATES.includes(u.sessionUpdate))
    .map(brief);
}

describe('opencode acp: a whole conversation', () => {
  it('streams, asks permission, edits through the editor, is cancelled, and replays on load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    const fake = await acp.startFake(
      [
        {
          thinking: { text: 'The file first.', signature: 'sig-1' },
          text: ['I will ', 'read it.'],
          toolCalls: [{ id: 'toolu_view', name: 'view', input: { file_path: 'notes.txt' } }],
        },
        {
          toolCalls: [
            {
              id: 'toolu_edit1',
              name: 'edit',
              input: { file_path: 'notes.txt', old_string: 'one', new_string: 'two' },
            },
          ],
        },
        { text: 'Changed one to two.' },
        {
          toolCalls: [
            {
              id: 'toolu_edit2',
              name: 'edit',
              input: { file_path: 'notes.txt', old_string: 'two', new_string: 'three' },
            },
          ],
        },
        { text: ['Working ', 'on it'], stallAfterChunks: 4 },
        { text: 'Still two.' },
      ],
      { sideTurn: titleTurn('Notes edits') },
    );
    const agent = start(dir, fake);
    const init = await agent.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    expect(init).toEqual({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, close: {} },
      },
      authMethods: [
        {
          id: 'anthropic',
          name: 'Anthropic',
          description: 'API key from ANTHROPIC_API_KEY or providers.anthropic.apiKey',
        },
      ],
      agentInfo: { name: 'opencode', title: 'OpenCode', version: PACKAGE_VERSION },
    });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });

    // turn 1: thinking, text, a read, an edit the person allows once; the edit goes through the editor
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change one to two' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(timeline(agent)).toEqual([
      ['agent_thought_chunk', 'The '],
      ['agent_thought_chunk', 'file '],
      ['agent_thought_chunk', 'first.'],
      ['agent_message_chunk', 'I will '],
      ['agent_message_chunk', 'read it.'],
      ['tool_call', 'toolu_view', 'read', 'view', 'pending'],
      ['tool_call_update', 'toolu_view', 'Read notes.txt'],
      ['tool_call_update', 'toolu_view', 'in_progress'],
      ['tool_call_update', 'toolu_view', 'completed'],
      ['tool_call', 'toolu_edit1', 'edit', 'edit', 'pending'],
      ['tool_call_update', 'toolu_edit1', 'Edit notes.txt'],
      ['tool_call_update', 'toolu_edit1', 'in_progress'],
      ['tool_call_update', 'toolu_edit1', 'completed'],
      ['agent_message_chunk', 'Changed '],
      ['agent_message_chunk', 'one '],
      ['agent_message_chunk', 'to '],
      ['agent_message_chunk', 'two.'],
    ]);
    const editDisplay = agent.updates
      .map((n) => n.update)
      .find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'toolu_edit1' && u.title);
    expect(editDisplay).toMatchObject({
      kind: 'edit',
      locations: [{ path: file }],
      content: [{ type: 'diff', path: file, oldText: 'one', newText: 'two' }],
      rawInput: { file_path: 'notes.txt', old_string: 'one', new_string: 'two' },
    });
    expect(agent.permissionRequests).toEqual([
      {
        sessionId,
        toolCall: {
          toolCallId: 'toolu_edit1',
          title: `Replace content in file ${file}`,
          kind: 'edit',
          status: 'pending',
        },
        options: [
          { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow_session', name: 'Allow notes.txt for this session', kind: 'allow_always' },
          { optionId: 'allow_always', name: 'Always allow notes.txt in this project', kind: 'allow_always' },
          { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
        ],
      },
    ]);
    expect(agent.writes).toEqual([{ sessionId, path: file, content: 'two\n' }]);
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    // after the prompt the editor hears how full the context is (the fake reports 10 input + 5 output tokens a call) and the cost
    const usage = agent.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'usage_update');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ sessionUpdate: 'usage_update', used: 15, cost: { currency: 'USD' } });
    const model = CATALOG.find((m) => m.provider === 'anthropic' && m.apiModel === fake.answered[0].model)!;
    expect((usage[0] as { size: number }).size).toBe(model.contextWindowTokens);
    // the title agent's answer reaches the editor once
    expect(
      agent.updates.filter((n) => n.update.sessionUpdate === 'session_info_update').map((n) => brief(n.update)),
    ).toEqual([['session_info_update', 'Notes edits']]);

    // turn 2: "allow once" granted nothing more, so the next edit asks again; denied, the turn ends
    agent.answer = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
    let from = agent.updates.length;
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now three' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(timeline(agent, from)).toEqual([
      ['tool_call', 'toolu_edit2', 'edit', 'edit', 'pending'],
      ['tool_call_update', 'toolu_edit2', 'Edit notes.txt'],
      ['tool_call_update', 'toolu_edit2', 'in_progress'],
      ['tool_call_update', 'toolu_edit2', 'failed'],
    ]);
    expect(agent.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['toolu_edit1', 'toolu_edit2']);
    expect(agent.writes).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('two\n');

    // turn 3: cancelled while the reply streams
    from = agent.updates.length;
    const third = agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
    await agent.waitForUpdate(
      (u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text === 'Working ',
    );
    await agent.agent.notify('session/cancel', { sessionId });
    expect(await third).toEqual({ stopReason: 'cancelled' });
    expect(timeline(agent, from)).toEqual([['agent_message_chunk', 'Working ']]);

    // stdout held only JSON-RPC messages, one per line
    for (const line of agent.stdoutLines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(await agent.close()).toBe(0);

    // a new process loads the stored session: its history comes back as updates before the answer
    const again = start(dir, fake);
    await again.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(await again.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })).toEqual({});
    expect(timeline(again)).toEqual([
      ['user_message_chunk', 'change one to two'],
      ['agent_thought_chunk', 'The file first.'],
      ['agent_message_chunk', 'I will read it.'],
      ['tool_call', 'toolu_view', 'read', 'Read notes.txt', 'pending'],
      ['tool_call_update', 'toolu_view', 'completed'],
      ['tool_call', 'toolu_edit1', 'edit', 'Edit notes.txt', 'pending'],
      ['tool_call_update', 'toolu_edit1', 'completed'],
      ['agent_message_chunk', 'Changed one to two.'],
      ['user_message_chunk', 'now three'],
      ['tool_call', 'toolu_edit2', 'edit', 'Edit notes.txt', 'pending'],
      ['tool_call_update', 'toolu_edit2', 'failed'],
      ['user_message_chunk', 'go on'],
      ['agent_message_chunk', 'Working '],
    ]);
    // session/list shows it, with the generated title
    const listed = await again.agent.request('session/list', { cwd: dir });
    expect(listed.sessions).toEqual([
      { sessionId, cwd: dir, title: 'Notes edits', updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
    expect(listed.nextCursor).toBeUndefined();
    // and the conversation goes on from it: the model gets the stored history
    expect(
      await again.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what is in it?' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    const sent = fake.answered.at(-1).messages as { role: string; content: unknown }[];
    expect(sent[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'change one to two' }] });
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'what is in it?' }] });
    for (const line of again.stdoutLines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});
