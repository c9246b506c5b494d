/**
 * Workspace trust in `opencode acp`: a session in a project whose plugin and MCP server write a marker
 * file when they run starts neither until the project is trusted; the log (stderr) says what was
 * skipped; `opencode acp --trust` runs them. The user's own MCP server starts either way.
 */
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import { hostileProject } from '../support/hostile-project.js';

const acp = acpPerTest();

/** Polls `read` until `done` says so (the servers and plugins start in the background). */
async function until<T>(read: () => T, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('opencode acp: workspace trust', () => {
  it('an untrusted folder: its code is skipped and the log says so; with --trust it runs', async () => {
    const p = hostileProject();
    const fake = await acp.startFake([]);
    const env = cleanEnv({ HOME: p.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const held = acp.startAgent({ cwd: p.dir, env });
    await held.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    await held.agent.request('session/new', { cwd: p.dir, mcpServers: [] });
    const line = `opencode acp: ${p.heldLine.slice('opencode: '.length)}`;
    const stderr = await until(
      () => held.stderr(),
      (text) => text.includes(line),
    );
    expect(stderr.split('\n').filter((l) => l.includes('not trusted'))).toEqual([line.trimEnd()]);
    expect(await until(p.marks, (marks) => marks.length > 0)).toEqual(['user-mcp']);

    const trusted = acp.startAgent({ cwd: p.dir, env, args: ['--trust'] });
    await trusted.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    await trusted.agent.request('session/new', { cwd: p.dir, mcpServers: [] });
    const marks = await until(p.marks, (m) => m.includes('mcp') && m.includes('plugin'));
    expect(marks.filter((m) => m !== 'lsp')).toEqual(['mcp', 'plugin', 'user-mcp']);
    expect(trusted.stderr()).not.toContain('not trusted');
  });
});
