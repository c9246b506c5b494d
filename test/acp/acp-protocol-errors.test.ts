/**
 * `opencode acp` answers bad requests with JSON-RPC errors that say what was wrong, and keeps serving:
 * the SDK's own checks (before initialize, malformed params, unknown methods) and ours (a relative
 * cwd, an unknown session, audio, a second prompt while one runs, no provider credential).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import { titleTurn, type AcpAgentProcess } from './acp-client.js';

const acp = acpPerTest();

const project = () => mkdtempSync(join(tmpdir(), 'opencode-acp-err-'));

function start(dir: string, env: Record<string, string>): AcpAgentProcess {
  return acp.startAgent({ cwd: dir, env });
}

/** The JSON-RPC error a request ends with: `[code, message]`. */
async function errorOf(request: Promise<unknown>): Promise<[number, string]> {
  try {
    await request;
  } catch (err) {
    const e = err as { code: number; message: string };
    return [e.code, e.message];
  }
  throw new Error('the request succeeded');
}

describe('opencode acp: protocol errors', () => {
  it('answers each bad request with the right code and a message that says what to do; stdout stays JSON-RPC', async () => {
    const dir = project();
    const fake = await acp.startFake([{ text: ['Slow ', 'answer'], stallAfterChunks: 4 }], {
      sideTurn: titleTurn('t'),
    });
    const agent = start(dir, cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }));

    // the SDK refuses everything until initialize
    expect((await errorOf(agent.agent.request('session/new', { cwd: dir, mcpServers: [] })))[0]).toBe(-32600);
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });

    expect(await errorOf(agent.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }))).toEqual([
      -32602,
      'Invalid params: cwd must be an absolute path; got "relative/dir"',
    ]);
    expect(await errorOf(agent.agent.request('session/new', { cwd: join(dir, 'missing'), mcpServers: [] }))).toEqual([
      -32602,
      `Invalid params: cwd ${join(dir, 'missing')}: no such directory`,
    ]);
    // malformed params are the SDK's: -32602 before our handler runs
    expect((await errorOf(agent.agent.request('session/new', { cwd: dir } as never)))[0]).toBe(-32602);
    expect((await errorOf(agent.agent.request('session/nope', {})))[0]).toBe(-32601);

    expect(
      (
        await errorOf(
          agent.agent.request('session/prompt', {
            sessionId: 'no-such-session',
            prompt: [{ type: 'text', text: 'hi' }],
          }),
        )
      )[0],
    ).toBe(-32002);
    expect(
      (
        await errorOf(agent.agent.request('session/load', { sessionId: 'no-such-session', cwd: dir, mcpServers: [] }))
      )[0],
    ).toBe(-32002);

    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await errorOf(agent.agent.request('session/list', { cwd: dir, cursor: 'page-two' }))).toEqual([
      -32602,
      'Invalid params: unknown cursor "page-two": pass the nextCursor of the previous page',
    ]);
    expect(
      await errorOf(
        agent.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
        }),
      ),
    ).toEqual([
      -32602,
      'Invalid params: audio is not supported (promptCapabilities.audio is false): send text, images or resources',
    ]);
    expect(await errorOf(agent.agent.request('session/prompt', { sessionId, prompt: [] }))).toEqual([
      -32602,
      'Invalid params: the prompt is empty: send at least one text, resource or image block',
    ]);

    // a second prompt while the first runs is refused; the first still ends (cancelled)
    const running = agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'take your time' }],
    });
    await agent.waitForUpdate((u) => u.sessionUpdate === 'agent_message_chunk');
    expect(
      await errorOf(
        agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and this?' }] }),
      ),
    ).toEqual([
      -32600,
      'Invalid request: this session is still answering the previous prompt: wait for its answer or send session/cancel',
    ]);
    await agent.agent.notify('session/cancel', { sessionId });
    expect(await running).toEqual({ stopReason: 'cancelled' });

    // every line on stdout, the errors' included, is one JSON-RPC message
    const lines = agent.stdoutLines();
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('without a provider credential: no auth methods, authenticate and session/new say which key to set', async () => {
    const dir = project();
    const agent = start(dir, cleanEnv());
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.authMethods).toEqual([]);
    expect(await errorOf(agent.agent.request('authenticate', { methodId: 'openai' }))).toEqual([
      -32000,
      'Authentication required: no credential for openai: set OPENAI_API_KEY or providers.openai.apiKey, then restart the agent',
    ]);
    const [code, message] = await errorOf(agent.agent.request('session/new', { cwd: dir, mcpServers: [] }));
    expect(code).toBe(-32000);
    expect(message).toMatch(
      /^Authentication required: No model provider is configured\. Set one of these environment variables:\n {2}ANTHROPIC_API_KEY/,
    );
    for (const line of agent.stdoutLines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(await agent.close()).toBe(0);
  });

  it('a bad .opencode.json is an internal error naming the file and the key', async () => {
    const dir = project();
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ permission: { bash: { 'rm *': 'never' } } }));
    const agent = start(dir, cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test' }));
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(await errorOf(agent.agent.request('session/new', { cwd: dir, mcpServers: [] }))).toEqual([
      -32603,
      `Internal error: ${join(dir, '.opencode.json')}: permission.bash.rm *: expected one of "allow", "ask", "deny", got "never"`,
    ]);
  });
});
