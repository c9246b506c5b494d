/**
 * `opencode acp` takes the provider profile as -p does (OPENCODE_PROFILE or --profile): the auth
 * methods offered and the model every session uses come from the profile.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';

const acp = acpPerTest();

describe('opencode acp with a provider profile', () => {
  it('OPENCODE_PROFILE=work: the work key is an auth method and the work model answers', async () => {
    const work = await acp.startFake([], { fallback: { text: 'from work' } });
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
    const agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ OPENCODE_PROFILE: 'work', WORK_ANTHROPIC_KEY: 'sk-ant-work-0123456789abcdef' }),
    });
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.authMethods?.map((m) => m.id)).toEqual(['anthropic']);
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({
      stopReason: 'end_turn',
    });
    // the coder's request (with tools; the title agent's has none) went to the work server with the work model
    expect(work.answered.filter((b) => (b.tools ?? []).length > 0).map((b) => b.model)).toEqual(['claude-sonnet-5-5']);
  });
});
