/**
 * The welcome screen names the active provider profile before the model, as the status bar does:
 * the whole TUI over the services it starts on (pending-services.ts), with OPENCODE_PROFILE set.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import { closeAppStorage, openAppStorage } from '../../src/app/storage.js';
import { chooseProviders } from '../../src/app/models.js';
import { pendingChatServices } from '../../src/cli/pending-services.js';
import { loadConfig } from '../../src/config/load.js';
import { Welcome } from '../../src/tui/components/Welcome.js';
import { renderTui } from '../support/render-tui.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('the welcome screen and the profile', () => {
  it('names the active profile before the model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-welcome-profile-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const home = join(dir, '.home');
    mkdirSync(home);
    mkdirSync(join(dir, '.opencode'));
    writeFileSync(join(dir, '.opencode', 'init'), '');
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ profiles: { home: { agents: { coder: { model: 'anthropic/claude-haiku-4-5' } } } } }),
    );
    // no request is made: the TUI never sends a prompt here
    const env = {
      HOME: home,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENCODE_PROFILE: 'home',
    };
    const loaded = loadConfig({ cwd: dir, env });
    const models = await chooseProviders(loaded.config, loaded, env, {});
    const config = models.config;
    expect(models.profile).toBe('home');
    const storage = openAppStorage(dir, config);
    cleanups.push(() => closeAppStorage(storage));
    const never = new Promise<App>(() => {});
    const { services } = pendingChatServices(
      {
        cwd: dir,
        config,
        storage,
        coderModel: models.models.coder,
        lspLanguages: [],
        settings: models.settings,
        profile: models.profile,
        env,
      },
      never,
    );
    const rendered = renderTui(services, { sessionId: undefined });
    cleanups.push(() => rendered.cleanup());
    const frame = await rendered.waitFor((f) => f.includes('Type a request'));
    const line = frame.split('\n').find((l) => l.includes('Claude Haiku 4.5') && !l.includes('ctrl+/'));
    expect(line?.trim().endsWith(' · home · Claude Haiku 4.5')).toBe(true);
  });

  it('without a profile, names the model alone', () => {
    const { lastFrame } = render(<Welcome version="0.1.0" cwd="/p" modelName="Claude Haiku 4.5" />);
    expect(lastFrame()!.split('\n')).toContain('/p · Claude Haiku 4.5');
  });
});
