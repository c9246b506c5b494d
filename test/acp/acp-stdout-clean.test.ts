/**
 * In `opencode acp` stdout is the protocol's: a plugin that writes to stdout or logs with console.*
 * at load, and its warnings, go to stderr (and our warnings to `<data dir>/acp.log` too), never
 * between the JSON-RPC lines.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import { titleTurn } from './acp-client.js';

const acp = acpPerTest();

const NOISY_PLUGIN = `
process.stdout.write('plugin wrote to stdout\\n');
console.log('plugin console.log');
console.warn('plugin console.warn');
export default async ({ log }) => {
  log.warn('plugin warns at start');
  return {};
};
`;

describe('opencode acp: stdout carries only protocol messages', () => {
  it("moves a plugin's stdout writes, console output and warnings to stderr; warnings also to acp.log", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-noisy-'));
    mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'plugins', 'noisy.mjs'), NOISY_PLUGIN);
    const fake = await acp.startFake([{ text: 'Hello.' }], { sideTurn: titleTurn('Greeting') });
    const agent = acp.startAgent({
      cwd: dir,
      args: ['--trust'],
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({
      stopReason: 'end_turn',
    });
    expect(await agent.close()).toBe(0);

    const lines = agent.stdoutLines();
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // initialize, session/new and session/prompt answered, and the updates between
    expect(lines.filter((l) => 'result' in JSON.parse(l))).toHaveLength(3);
    const stderr = agent.stderr();
    expect(stderr).toContain('plugin wrote to stdout\n');
    expect(stderr).toContain('warning: plugin console.warn\n');
    expect(stderr).toContain('opencode acp: warning: ');
    expect(stderr).toContain('plugin warns at start');
    // console.log is debug output: shown only with --debug
    expect(stderr).not.toContain('plugin console.log');
    expect(readFileSync(join(dir, '.opencode', 'acp.log'), 'utf8')).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z warning: .*plugin warns at start/m,
    );
  });
});
