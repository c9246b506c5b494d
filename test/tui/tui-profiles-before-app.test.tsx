/**
 * alt+p before the app has loaded (the TUI comes up first, the app loads after the first
 * frame). The profile dialog listed nothing then ("No profiles: add them…", though the config has
 * some) and did not update when the app came: the services before the app answered an empty list.
 * The whole TUI over the services it starts on (pending-services.ts), the app never arriving.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import { closeAppStorage, openAppStorage } from '../../src/app/storage.js';
import { resolveModels } from '../../src/app/models.js';
import { pendingChatServices } from '../../src/cli/pending-services.js';
import { loadConfig } from '../../src/config/load.js';
import { renderTui, type RenderedTui } from '../support/render-tui.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const CONFIG = {
  profiles: {
    home: { description: 'the laptop', agents: { coder: { model: 'anthropic/claude-haiku-4-5' } } },
    work: { providers: { openai: { apiKeyEnv: 'WORK_OPENAI_KEY' } }, agents: { coder: { model: 'openai/gpt-4.1' } } },
  },
};

async function startBeforeApp(): Promise<RenderedTui> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-profiles-early-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, '.home');
  mkdirSync(home);
  mkdirSync(join(dir, '.opencode'));
  writeFileSync(join(dir, '.opencode', 'init'), '');
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify(CONFIG));
  // no request is made: the TUI never sends a prompt here
  const env = { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' };
  const { config } = loadConfig({ cwd: dir, env });
  const models = await resolveModels(config, env);
  const storage = openAppStorage(dir, config);
  cleanups.push(() => closeAppStorage(storage));
  const never = new Promise<App>(() => {});
  const { services } = pendingChatServices(
    { cwd: dir, config, storage, coderModel: models.models.coder, lspLanguages: [], settings: models.settings, env },
    never,
  );
  const rendered = renderTui(services, { sessionId: undefined });
  cleanups.push(() => rendered.cleanup());
  await rendered.waitFor((f) => f.includes('>'));
  return rendered;
}

describe('the profile dialog before the app has loaded', () => {
  it("lists the config's profiles with their coder models and what keeps one from working", async () => {
    const { ui, waitFor } = await startBeforeApp();
    ui.stdin.write('\u001bp'); // alt+p
    const frame = await waitFor((f) => f.includes('Select Profile'));
    const rows = frame
      .split('\n')
      .filter((l) => l.includes('│'))
      .map((l) =>
        l
          .replace(/^\s*│ ?/, '')
          .replace(/\s*│\s*$/, '')
          .replace(/ {2,}/g, '  '),
      );
    expect(rows).toEqual([
      'Select Profile',
      "✓ (no profile)  the files' own settings",
      '  home  anthropic/claude-haiku-4-5',
      '  work  key missing',
    ]);
  });
});
