/**
 * End to end: an MCP stdio server started by `opencode -p` inherits no provider
 * key from opencode's environment, and keeps what its config entry's `env` sets. The test server's
 * `pid` tool names the process; its environment is read from /proc while the run waits on the model.
 * Real bin/opencode, the real MCP test server over stdio, the loopback fake provider.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { FIXTURE, TSX_LOADER } from '../mcp/fixture.js';

const KEY = 'sk-ant-test-mcp-env-55667788';
let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.skipIf(process.platform !== 'linux')('MCP stdio servers and the provider keys', () => {
  it('get no provider key from opencode, but what their entry sets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-mcp-env-'));
    const entry = {
      command: process.execPath,
      args: ['--import', TSX_LOADER, FIXTURE, 'stdio'],
      env: { SERVICE_TOKEN: 'configured-token', OPENAI_API_KEY: 'configured-openai-key' },
    };
    // the sandbox off: in the sandbox's pid namespace the server's pid is not the host's, whose /proc is read here
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ sandbox: 'off', mcpServers: { test: entry } }));
    // the second answer waits, so the server is still running while its environment is read
    fake = await startFakeProvider([
      { toolCalls: [{ id: 'toolu_pid', name: 'test_pid', input: {} }] },
      { text: 'Done.', delayMs: 3_000 },
    ]);
    const env = cleanEnv({
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
      GROQ_API_KEY: 'gsk-test-groq-key-1234',
    });

    const run = runCli(['--trust', '-p', 'which pid?', '-q'], { cwd: dir, env });
    let serverEnv: string[] | undefined;
    for (let i = 0; i < 400 && !serverEnv; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const second = fake.requests.filter((r) => !r.side && r.body?.messages)[1];
      const result = second?.body.messages.at(-1).content.find((b: { type: string }) => b.type === 'tool_result');
      const pid = Number(Array.isArray(result?.content) ? result.content[0]?.text : result?.content);
      if (pid > 0) serverEnv = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    }
    expect((await run).code).toBe(0);

    expect(serverEnv).toBeDefined();
    const names = serverEnv!.map((kv) => kv.split('=')[0]);
    expect(names).not.toContain('ANTHROPIC_API_KEY');
    expect(names).not.toContain('GROQ_API_KEY');
    expect(serverEnv!.join('\n')).not.toContain(KEY);
    expect(serverEnv).toContain('SERVICE_TOKEN=configured-token');
    expect(serverEnv).toContain('OPENAI_API_KEY=configured-openai-key');
    expect(serverEnv).toContain(`HOME=${env.HOME}`);
  }, 60_000);
});
