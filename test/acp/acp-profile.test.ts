/**
 * `opencode acp` takes the provider profile as -p does (OPENCODE_PROFILE or --profile): the auth
 * methods offered and the model every session uses come from the profile.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { startAcpAgent, type AcpAgentProcess } from './acp-client.js';

let work: FakeProvider | undefined;
let agent: AcpAgentProcess | undefined;
afterEach(async () => {
  agent?.child.kill('SIGKILL');
  await agent?.close();
  agent = undefined;
  await work?.close();
  work = undefined;
});

describe('opencode acp with a provider profile', () => {
  it('OPENCODE_PROFILE=work: the work key is an auth method and the work model answers', async () => {
    work = await startFakeProvider([], { fallback: { text: 'from work' } });
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-profile-'));
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({
        profiles: {
          work: {
            providers: { anthropic: { apiKeyEnv: 'WORK_ANTHROPIC_KEY', baseURL: work.anthropicBaseURL } },
            agents: { coder: { model: 'anthropic/claude-sonnet-5-5' } },
          },
        },
      }),
    );
    agent = startAcpAgent({ cwd: dir, env: cleanEnv({ OPENCODE_PROFILE: 'work', WORK_ANTHROPIC_KEY: 'sk-ant-work-0123456789abcdef' }) });
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.authMethods?.map((m) => m.id)).toEqual(['anthropic']);
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    // the coder's request (with tools; the title agent's has none) went to the work server with the work model
    expect(work.answered.filter((b) => (b.tools ?? []).length > 0).map((b) => b.model)).toEqual(['claude-sonnet-5-5']);
  });
});
