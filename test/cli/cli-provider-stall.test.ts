/**
 * `opencode -p` against a provider that is not there or says nothing: each retry is
 * shown on stderr with its reason and wait as it happens, a refused connection ends after 2 quick
 * retries naming the address, and a silent server is given up on after `firstByteTimeoutMs` (set small
 * in the project config) and asked again.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { closedPort } from '../support/ports.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = (config?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-cli-stall-'));
  if (config) writeFileSync(join(dir, '.opencode.json'), JSON.stringify(config));
  return dir;
};

describe('opencode -p and an unreachable or silent provider', () => {
  it('a local server that is not running: 2 quick retries on stderr, then the address and a hint, exit 1', async () => {
    const port = await closedPort();
    const run = await runCli(['-p', 'hi', '-m', 'local/qwen3-coder'], {
      cwd: project({ providers: { local: { models: { 'qwen3-coder': { contextWindow: 32_000 } } } } }),
      env: cleanEnv({ LOCAL_ENDPOINT: `http://127.0.0.1:${port}` }),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    // the waits carry up to 20% jitter: 0.5–0.6 s, then 1–1.2 s
    expect(lines[0]).toMatch(/^opencode: retrying \(1\/2\) in 0\.[56] s: connection refused$/);
    expect(lines[1]).toMatch(/^opencode: retrying \(2\/2\) in 1(\.[012])? s: connection refused$/);
    expect(lines[2]).toBe(
      `opencode: cannot reach http://127.0.0.1:${port} (connection refused): is the server running?`,
    );
  }, 30_000);

  it('a provider that never answers the first request is asked again after firstByteTimeoutMs, and the answer printed', async () => {
    fake = await startFakeProvider([{ delayMs: 120_000, text: 'never' }, { text: 'Second try.' }]);
    const run = await runCli(['-p', 'hi'], {
      cwd: project({ providers: { anthropic: { firstByteTimeoutMs: 500 } } }),
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-secret-key', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Second try.\n');
    expect(run.stderr).toMatch(/^opencode: retrying \(1\/8\) in 2(\.\d)? s: no response within 0\.5 s\n$/);
  }, 30_000);

  it('-q keeps the retries off stderr, but not the final error', async () => {
    const port = await closedPort();
    const run = await runCli(['-p', 'hi', '-q'], {
      cwd: project(),
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-secret-key', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }),
      timeoutMs: 30_000,
    });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `opencode: cannot reach http://127.0.0.1:${port} (connection refused): is the server running?\n`,
    });
  }, 30_000);
});
