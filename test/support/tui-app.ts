/**
 * A real App (SQLite in a temp dir, the real provider SDK against the fake provider, the real
 * permission service) seen through the TUI's ChatServices, for store and component tests.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../src/app/app.js';
import { resolveModels } from '../../src/app/models.js';
import { chatServices } from '../../src/cli/tui-services.js';
import { loadConfig } from '../../src/config/load.js';
import type { ChatServices } from '../../src/tui/state/services.js';
import { startFakeProvider, type FakeProvider, type FakeProviderOptions, type FakeTurn } from './fake-provider.js';

export interface TuiApp {
  fake: FakeProvider;
  dir: string;
  app: App;
  services: ChatServices;
  close(): Promise<void>;
}

/**
 * Starts the fake provider with `turns` and builds the app in a new temp project (marked
 * initialised, so no init dialog unless `initialized: false`).
 */
export async function startTuiApp(
  turns: FakeTurn[],
  options: {
    initialized?: boolean;
    config?: object;
    /** an existing project (a second window on it: same database) */
    dir?: string;
    /** the provider the app uses: Anthropic (default), or the fake as a local OpenAI-compatible server (`local/fake-model`) */
    provider?: 'anthropic' | 'local';
    fakeOptions?: FakeProviderOptions;
  } = {},
): Promise<TuiApp> {
  const fake = await startFakeProvider(turns, options.fakeOptions);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'opencode-tui-'));
  const home = join(dir, '.home');
  mkdirSync(home, { recursive: true });
  if (options.initialized !== false) {
    mkdirSync(join(dir, '.opencode'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'init'), '');
  }
  if (options.config) writeFileSync(join(dir, '.opencode.json'), JSON.stringify(options.config));
  const env: Record<string, string> =
    options.provider === 'local'
      ? { HOME: home, LOCAL_ENDPOINT: fake.url }
      : { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL };
  const { config } = loadConfig({ cwd: dir, env });
  const models = await resolveModels(config, env);
  const app = createApp({
    cwd: dir,
    config,
    models: models.models,
    providerSettings: models.settings,
    generateTitles: false,
  });
  const services = chatServices(app, models.settings, env);
  return {
    fake,
    dir,
    app,
    services,
    async close() {
      app.cancelAll();
      await app.close();
      await fake.close();
    },
  };
}
