/**
 * A plugin whose loading never finishes (a top-level await that never settles) or whose function never
 * returns: start-up and `-p` go on without it after the bounded wait, with one line naming it, and
 * SIGINT during that wait ends the run at once.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlugins, PLUGIN_INIT_TIMEOUT_MS } from '../../src/plugin/load.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const silent = { info() {}, warn() {}, error() {} };

/** A project whose plugin `stuck.mjs` awaits for ever at its top level, and a fake provider answering "hi". */
async function stuckProject(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-stuck-'));
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  writeFileSync(
    join(dir, '.opencode', 'plugins', 'stuck.mjs'),
    'await new Promise(() => {});\nexport default async () => ({});\n',
  );
  fake = await startFakeProvider([{ text: 'hi' }]);
  return { dir, env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }) };
}

describe('a plugin that never finishes loading', () => {
  it('a top-level await that never settles: skipped after the timeout, named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-stuck-'));
    const file = join(dir, 'tla.mjs');
    writeFileSync(file, 'await new Promise(() => {});\nexport default async () => ({});\n');
    const loaded = await loadPlugins(
      [{ source: 'project', id: file, label: 'tla.mjs' }],
      { directory: dir, worktree: dir, config: {} },
      () => silent,
      { initTimeoutMs: 300 },
    );
    expect(loaded).toEqual({
      plugins: [],
      problems: ['tla.mjs: did not finish loading within 0.3 s; started without it'],
    });
  });

  it('-p goes on without it after the wait and says which', { timeout: 120_000 }, async () => {
    const { dir, env } = await stuckProject();
    const run = await runCli(['--trust', '-p', 'say hi'], { cwd: dir, env, timeoutMs: 100_000 });
    expect(run.stderr).toBe(
      `opencode: warning: .opencode/plugins/stuck.mjs: did not finish loading within ${PLUGIN_INIT_TIMEOUT_MS / 1000} s; started without it\n`,
    );
    expect(run.stdout).toBe('hi\n');
    expect(run.code).toBe(0);
  });

  it('SIGINT during the wait ends the run at once', { timeout: 120_000 }, async () => {
    const { dir, env } = await stuckProject();
    let pid = 0;
    const running = runCli(['--trust', '-p', 'say hi'], {
      cwd: dir,
      env,
      timeoutMs: PLUGIN_INIT_TIMEOUT_MS - 1000,
      onSpawn: (p) => (pid = p),
    });
    // well inside the plugin's wait: the provider is never asked
    await new Promise((r) => setTimeout(r, 3000));
    process.kill(pid, 'SIGINT');
    const run = await running;
    expect(run.signal === 'SIGINT' || run.code === 130).toBe(true);
    expect(fake!.requests.length).toBe(0);
  });
});
