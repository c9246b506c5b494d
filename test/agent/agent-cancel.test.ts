/**
 * Cancellation and crashes leave a session the API still accepts: every open tool call gets a
 * "canceled" result, the assistant message is finished as `canceled`, and a process killed mid-turn
 * is repaired when the session is next used.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageText } from '../../src/message.js';
import { openDatabase } from '../../src/db/index.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let h: Harness | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

describe('cancellation', () => {
  it('cancels a running tool at once, finishes the turn as canceled, and the next run is accepted', async () => {
    h = await agentHarness([
      {
        toolCalls: [
          { name: 'bash', input: { command: 'sleep 30' } },
          { name: 'ls', input: { path: '.' } },
        ],
      },
      { text: 'Fine, stopped.' },
    ]);
    h.bus.on('tool.started', () => setTimeout(() => h!.agent.cancel(h!.sessionId), 200));
    const started = Date.now();
    const result = await h.agent.run(h.sessionId, 'sleep');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.reason).toBe('canceled');
    const results = toolResultsOf(h.db, h.sessionId);
    expect(results.map((r) => [r!.name, r!.isError])).toEqual([
      ['bash', true],
      ['ls', true],
    ]);
    expect(results[1]!.content).toBe('Tool execution canceled by user');
    expect(result.message!.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'canceled' });

    const next = await h.agent.run(h.sessionId, 'continue');
    expect(messageText(next.message!)).toBe('Fine, stopped.');
    expect(h.fake.requests.filter((r) => r.rejected)).toEqual([]);
  });

  it('cancels mid-stream: a half-streamed tool call gets a canceled result', async () => {
    h = await agentHarness([
      {
        text: 'Let me look',
        toolCalls: [{ name: 'view', input: { file_path: '/etc/hostname' } }],
        stallAfterChunks: 8,
      },
      { text: 'Resumed.' },
    ]);
    h.bus.on('message.updated', ({ message }) => {
      if (message.parts.some((p) => p.type === 'tool_call')) h!.agent.cancel(h!.sessionId);
    });
    const result = await h.agent.run(h.sessionId, 'look');
    expect(result.reason).toBe('canceled');
    expect(toolResultsOf(h.db, h.sessionId)).toEqual([
      { name: 'view', content: 'Tool execution canceled by user', isError: true },
    ]);
    const next = await h.agent.run(h.sessionId, 'again');
    expect(messageText(next.message!)).toBe('Resumed.');
    expect(h.fake.requests.filter((r) => r.rejected)).toEqual([]);
  });
});

describe('a process killed mid-turn', () => {
  it('leaves a session that resumes: calls that ran keep their results, the open one gets an interrupted result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-kill-'));
    writeFileSync(join(dir, 'README.md'), '# p\n');
    fake = await startFakeProvider([
      {
        toolCalls: [
          { id: 'toolu_write', name: 'write', input: { file_path: join(dir, 'marker.txt'), content: 'written\n' } },
          { id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 60' } },
        ],
      },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    let pid = 0;
    const run = runCli(['-p', 'sleep a while', '-q'], { cwd: dir, env, onSpawn: (p) => (pid = p) });
    // wait until the tool call is stored, then kill the process without warning
    const db = () => openDatabase(join(dir, '.opencode'));
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (fake.answered.length === 0) continue;
      const d = db();
      const sessions = d.sessions.list();
      const stored =
        sessions.length > 0 &&
        d.messages.list(sessions[0]!.id).some((m) => m.parts.some((p) => p.type === 'tool_result'));
      d.close();
      if (stored) break;
    }
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, 'SIGKILL');
    expect((await run).signal).toBe('SIGKILL');

    h = await agentHarness([{ text: 'Picking up where we left off.' }], { dir });
    const sessionId = h.db.sessions.list().find((s) => s.title.startsWith('Non-interactive'))!.id;
    const result = await h.agent.run(sessionId, 'continue');
    expect(messageText(result.message!)).toBe('Picking up where we left off.');
    expect(h.fake.requests.filter((r) => r.rejected)).toEqual([]);
    expect(toolResultsOf(h.db, sessionId)).toEqual([
      {
        name: 'write',
        content: `<result>\nFile successfully written: ${join(dir, 'marker.txt')}\n</result>`,
        isError: false,
      },
      // cut off by the crash, not stopped by the person
      {
        name: 'bash',
        content: 'Tool execution interrupted: opencode stopped before this call finished',
        isError: true,
      },
    ]);
    const sent = h.fake.answered[0].messages;
    const results = sent[2].content.filter((b: { type: string }) => b.type === 'tool_result');
    expect(
      results.map((b: { tool_use_id: string; is_error?: boolean }) => [b.tool_use_id, b.is_error ?? false]),
    ).toEqual([
      ['toolu_write', false],
      ['toolu_sleep', true],
    ]);
  });
});
