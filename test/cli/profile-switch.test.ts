/**
 * Switching the provider profile while the app runs and saving the model picked with
 * ctrl+o, through the TUI's services over a real App (SQLite in a temp dir, the real
 * SDKs) against two fake providers: the `work` one speaks Anthropic's wire format, the `local` one is
 * an OpenAI-compatible server. What a request is sent to is what the fakes saw.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app.js';
import { chooseProviders } from '../../src/app/models.js';
import { chatServices } from '../../src/cli/tui-services.js';
import { loadConfig } from '../../src/config/load.js';
import type { ChatServices } from '../../src/tui/state/services.js';
import { forgetSecrets, redactSecrets } from '../../src/tools/redact.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let work: FakeProvider;
let local: FakeProvider;
let dir: string;
let home: string;
let app: App | undefined;
beforeEach(async () => {
  work = await startFakeProvider([], { fallback: { text: 'from work' } });
  local = await startFakeProvider([], { fallback: { text: 'from local' }, models: ['qwen3-coder', 'llama3'] });
  dir = mkdtempSync(join(tmpdir(), 'opencode-profile-switch-'));
  home = join(dir, '.home');
  mkdirSync(home);
});
afterEach(async () => {
  app?.cancelAll();
  await app?.close();
  app = undefined;
  forgetSecrets();
  await work.close();
  await local.close();
  rmSync(dir, { recursive: true, force: true });
});

const CONFIG = () => `{
  // two places to work from
  "profiles": {
    "work": {
      "providers": { "anthropic": { "apiKeyEnv": "WORK_ANTHROPIC_KEY", "baseURL": "${work.anthropicBaseURL}" } },
      "agents": { "coder": { "model": "anthropic/claude-sonnet-5-5" } },
    },
    "local": {
      "providers": { "local": { "baseURL": "${local.url}" } },
      "agents": { "coder": { "model": "local/qwen3-coder" }, "title": { "model": "local/qwen3-coder" } },
    },
  },
}
`;

/** The app as `opencode --profile <profile>` builds it, seen through the TUI's services. */
async function start(env: Record<string, string>, profile?: string): Promise<ChatServices> {
  writeFileSync(join(dir, '.opencode.json'), CONFIG());
  const fullEnv = { HOME: home, ...env };
  const loaded = loadConfig({ cwd: dir, env: fullEnv });
  const chosen = await chooseProviders(loaded.config, loaded, fullEnv, { profile });
  app = createApp({
    cwd: dir,
    config: loaded.config,
    models: chosen.models,
    providerSettings: chosen.settings,
    generateTitles: false,
    profile: chosen.profile,
  });
  return chatServices(app, chosen.settings, fullEnv);
}

const KEY = 'sk-ant-work-0123456789abcdef';

describe('switching the profile for the next request', () => {
  it('changes the base URL and the model the next request goes to, without a restart', async () => {
    const services = await start({ WORK_ANTHROPIC_KEY: KEY }, 'work');
    expect(services.profiles!.active()).toBe('work');
    const session = services.sessions.create();
    expect((await services.agent.run(session.id, 'first', [])).reason).toBe('end_turn');
    expect(work.answered.map((b) => b.model)).toEqual(['claude-sonnet-5-5']);

    expect(await services.profiles!.switch('local')).toEqual([]);
    expect(services.profiles!.active()).toBe('local');
    expect(services.agent.model().id).toBe('local/qwen3-coder');
    expect((await services.agent.run(session.id, 'second', [])).reason).toBe('end_turn');
    expect(local.answered.map((b) => b.model)).toEqual(['qwen3-coder']);
    expect(local.requests.filter((r) => r.api === 'openai').map((r) => r.path)).toEqual(['/v1/chat/completions']);
    // the second request carries the whole conversation to the new provider
    expect(local.answered[0].messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(work.answered).toHaveLength(1);
  });

  it('lets a reply that is running finish on the provider it started with', async () => {
    const services = await start({ WORK_ANTHROPIC_KEY: KEY }, 'work');
    work.push({ text: 'slow work answer', delayMs: 400 });
    const session = services.sessions.create();
    const running = services.agent.run(session.id, 'first', []);
    // the request is at the work provider (which answers after 400 ms) before the switch
    while (!work.requests.some((r) => r.api === 'anthropic')) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(services.agent.isBusy(session.id)).toBe(true);
    await services.profiles!.switch('local');
    // the run started before the switch is still seen as running, on the agent it started with
    expect(services.agent.isBusy(session.id)).toBe(true);
    expect((await running).reason).toBe('end_turn');
    expect(work.answered.map((b) => b.model)).toEqual(['claude-sonnet-5-5']);
    expect(local.answered).toEqual([]);
    expect(services.agent.isBusy(session.id)).toBe(false);
    await services.agent.run(session.id, 'second', []);
    expect(local.answered.map((b) => b.model)).toEqual(['qwen3-coder']);
  });

  it('reports the missing key when the profile is chosen, and keeps the active one', async () => {
    const services = await start({}, 'local');
    await expect(services.profiles!.switch('work')).rejects.toThrow(
      'Profile "work": agents.coder.model "anthropic/claude-sonnet-5-5": no credentials for provider "anthropic" (set WORK_ANTHROPIC_KEY (named by providers.anthropic.apiKeyEnv)).',
    );
    expect(services.profiles!.active()).toBe('local');
    const session = services.sessions.create();
    await services.agent.run(session.id, 'still local', []);
    expect(local.answered.map((b) => b.model)).toEqual(['qwen3-coder']);
    expect(work.requests).toEqual([]);
  });

  it("redacts the key of every profile's apiKeyEnv from tool output, the inactive ones' too (they may be switched to)", async () => {
    await start({ WORK_ANTHROPIC_KEY: KEY }, 'local');
    expect(redactSecrets(`printenv says ${KEY}`)).toBe('printenv says [redacted]');
  });

  it('lists the profiles with the coder model and what keeps each from working', async () => {
    const services = await start({}, 'local');
    expect(services.profiles!.list()).toEqual([
      { name: 'local', coderModel: 'local/qwen3-coder', problems: [] },
      {
        name: 'work',
        coderModel: 'anthropic/claude-sonnet-5-5',
        problems: ['anthropic: WORK_ANTHROPIC_KEY is not set'],
      },
    ]);
  });
});

describe('ctrl+o saves the model', () => {
  it('to the project file, keeping its comments and layout', async () => {
    const services = await start({
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
      ANTHROPIC_BASE_URL: work.anthropicBaseURL,
    });
    const projectFile = join(dir, '.opencode.json');
    expect(await services.setModel('anthropic/claude-haiku-4-5')).toEqual({
      file: projectFile,
      keyPath: 'agents.coder.model',
    });
    expect(readFileSync(projectFile, 'utf8')).toBe(
      CONFIG().replace(
        /  },\n}\n$/,
        '  },\n  "agents": {\n    "coder": {\n      "model": "anthropic/claude-haiku-4-5"\n    }\n  },\n}\n',
      ),
    );
    expect(services.agent.model().id).toBe('anthropic/claude-haiku-4-5');
    expect(loadConfig({ cwd: dir, env: { HOME: home } }).config.agents.coder.model).toBe('anthropic/claude-haiku-4-5');
  });

  it('under the active profile, so the profile keeps its own choice', async () => {
    const services = await start({ WORK_ANTHROPIC_KEY: KEY }, 'local');
    const projectFile = join(dir, '.opencode.json');
    expect(await services.setModel('local/llama3')).toEqual({
      file: projectFile,
      keyPath: 'profiles.local.agents.coder.model',
    });
    expect(readFileSync(projectFile, 'utf8')).toBe(
      CONFIG().replace(
        '"agents": { "coder": { "model": "local/qwen3-coder" }',
        '"agents": { "coder": { "model": "local/llama3" }',
      ),
    );
    expect(services.agent.model().id).toBe('local/llama3');
  });

  it('to the global file when asked, leaving the project file alone', async () => {
    const services = await start({ WORK_ANTHROPIC_KEY: KEY }, 'work');
    const globalFile = join(home, '.opencode.json');
    expect(await services.setModel('anthropic/claude-haiku-4-5', { global: true })).toEqual({
      file: globalFile,
      keyPath: 'profiles.work.agents.coder.model',
    });
    expect(JSON.parse(readFileSync(globalFile, 'utf8'))).toEqual({
      profiles: { work: { agents: { coder: { model: 'anthropic/claude-haiku-4-5' } } } },
    });
    expect(readFileSync(join(dir, '.opencode.json'), 'utf8')).toBe(CONFIG());
  });
});
