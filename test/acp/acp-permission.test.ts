/**
 * `session/request_permission` mapped onto our permission service: "always allow in this project"
 * writes the rule into .opencode.json (a later session is not asked), and `session/cancel` while the
 * editor's question is open withdraws it (`$/cancel_request`) and ends the turn as `cancelled`.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider } from '../support/fake-provider.js';
import { titleTurn, type AcpAgentProcess } from './acp-client.js';

const acp = acpPerTest();

async function startSession(dir: string, f: FakeProvider): Promise<{ agent: AcpAgentProcess; sessionId: string }> {
  const agent = acp.startAgent({
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL }),
  });
  await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
  return { agent, sessionId };
}

describe('opencode acp: permission questions', () => {
  it('"always allow in this project" writes the rule; the next session runs the command without asking', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-perm-'));
    const fake = await acp.startFake(
      [
        { toolCalls: [{ id: 'toolu_mk1', name: 'bash', input: { command: 'mkdir made-once' } }] },
        { text: 'Made it.' },
        { toolCalls: [{ id: 'toolu_mk2', name: 'bash', input: { command: 'mkdir made-twice' } }] },
        { text: 'Made it again.' },
      ],
      { sideTurn: titleTurn('Folders') },
    );
    const first = await startSession(dir, fake);
    first.agent.answer = () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
    expect(
      await first.agent.agent.request('session/prompt', {
        sessionId: first.sessionId,
        prompt: [{ type: 'text', text: 'make a folder' }],
      }),
    ).toEqual({
      stopReason: 'end_turn',
    });
    expect(first.agent.permissionRequests.map((r) => r.options.map((o) => o.name))).toEqual([
      ['Allow once', 'Allow mkdir * for this session', 'Always allow mkdir * in this project', 'Deny'],
    ]);
    expect(JSON.parse(readFileSync(join(dir, '.opencode.json'), 'utf8'))).toEqual({
      permission: { bash: { 'mkdir *': 'allow' } },
    });
    expect(await first.agent.close()).toBe(0);

    const second = await startSession(dir, fake);
    expect(
      await second.agent.agent.request('session/prompt', {
        sessionId: second.sessionId,
        prompt: [{ type: 'text', text: 'another' }],
      }),
    ).toEqual({
      stopReason: 'end_turn',
    });
    expect(second.agent.permissionRequests).toEqual([]);
    expect(existsSync(join(dir, 'made-once'))).toBe(true);
    expect(existsSync(join(dir, 'made-twice'))).toBe(true);
  });

  it('session/cancel while the question is open withdraws it; the command does not run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-perm-cancel-'));
    const fake = await acp.startFake(
      [{ toolCalls: [{ id: 'toolu_mk', name: 'bash', input: { command: 'mkdir never-made' } }] }],
      {
        sideTurn: titleTurn('Folder'),
      },
    );
    const { agent: a, sessionId } = await startSession(dir, fake);
    let asked!: () => void;
    const questionOpen = new Promise<void>((resolve) => (asked = resolve));
    let withdrawn = false;
    a.answer = (_request, signal) =>
      new Promise((resolve) => {
        asked();
        signal.addEventListener('abort', () => {
          withdrawn = true;
          resolve({ outcome: { outcome: 'cancelled' } });
        });
      });
    const prompt = a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make a folder' }] });
    await questionOpen;
    await a.agent.notify('session/cancel', { sessionId });
    expect(await prompt).toEqual({ stopReason: 'cancelled' });
    expect(withdrawn).toBe(true);
    expect(existsSync(join(dir, 'never-made'))).toBe(false);
    const last = a.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'tool_call_update')
      .at(-1);
    expect(last).toMatchObject({
      toolCallId: 'toolu_mk',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'Tool execution canceled by user' } }],
    });
  });
});
