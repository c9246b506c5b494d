/**
 * A run a signal ends exits with 128 + the signal's number, as shells expect: SIGINT 130, SIGTERM 143,
 * for `-p` (stopped mid-request) and `acp` (serving an editor). The TUI's are in
 * test/e2e/tui-signal-cleanup.test.ts (a real terminal).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-signal-'));

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

describe('exit codes after a signal', () => {
  it.each([
    ['SIGINT', 130, 'opencode: interrupted\n'],
    ['SIGTERM', 143, 'opencode: terminated\n'],
  ] as const)('-p stopped by %s mid-request: exit %i', async (signal, code, stderr) => {
    fake = await startFakeProvider([{ text: 'never finished', stallAfterChunks: 1 }]);
    let pid = 0;
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const running = runCli(['-p', 'hi', '-q'], { cwd: project(), env, onSpawn: (p) => (pid = p) });
    const provider = fake;
    await until(() => provider.requests.some((r) => r.turn !== undefined));
    process.kill(pid, signal);
    const run = await running;
    expect(run.stderr).toBe(stderr);
    expect(run.code).toBe(code);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('acp serving an editor, stopped by %s: exit %i', async (signal, code) => {
    const child = spawn(process.execPath, [BIN, 'acp'], { cwd: project(), env: cleanEnv(), stdio: 'pipe' });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
    );
    await until(() => stdout.includes('"id":1'));
    child.kill(signal);
    expect(await exited).toBe(code);
  });
});
