/**
 * The TUI's services while the app loads (src/cli/pending-services.ts): built from the
 * app's storage alone, they serve the first frame (sessions, model, LSP names, "not busy"), a
 * prompt sent meanwhile waits for the app and is answered, and subscriptions made before the app
 * arrived are moved onto it. Real SQLite in a temp dir, the real app against the loopback fake.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app.js';
import { closeAppStorage, openAppStorage } from '../../src/app/storage.js';
import { resolveModels } from '../../src/app/models.js';
import { keepEarlyLspView, pendingChatServices } from '../../src/cli/pending-services.js';
import { loadConfig } from '../../src/config/load.js';
import type { PermissionRequest } from '../../src/permission/types.js';
import type { LspView } from '../../src/tui/state/services.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const fake: FakeProvider = await startFakeProvider([{ text: 'Hello from the model.' }]);
  cleanups.push(() => fake.close());
  const dir = mkdtempSync(join(tmpdir(), 'opencode-pending-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, '.home');
  mkdirSync(home);
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ lsp: { typescript: { command: 'node' } } }));
  writeFileSync(join(dir, 'index.ts'), 'export const x = 1;\n');
  const env = {
    HOME: home,
    PATH: process.env.PATH,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
  };
  const { config } = loadConfig({ cwd: dir, env });
  const models = await resolveModels(config, env);
  const storage = openAppStorage(dir, config);
  const existing = storage.db.sessions.create({ title: 'Earlier session' });
  let arrive: (app: App) => void = () => {};
  const app = new Promise<App>((resolve) => (arrive = resolve));
  const { services, ready } = pendingChatServices(
    {
      cwd: dir,
      config,
      storage,
      coderModel: models.models.coder,
      lspLanguages: ['typescript'],
      settings: models.settings,
      env,
    },
    app,
  );
  const build = () => {
    // the servers stay idle: these tests look at the snapshot before and after the app arrives
    const built = createApp({
      cwd: dir,
      config,
      models: models.models,
      providerSettings: models.settings,
      generateTitles: false,
      storage,
      startLanguageServers: false,
    });
    cleanups.push(async () => {
      built.cancelAll();
      await built.close();
    });
    arrive(built);
    return built;
  };
  return { services, ready, build, storage, existing, models, fake };
}

describe('TUI services before the app has loaded', () => {
  it('serve the first frame from the storage: sessions, the coder model, the language servers, nothing busy', async () => {
    const { services, storage, existing, models } = await setup();
    cleanups.push(() => closeAppStorage(storage));
    expect(services.sessions.list().map((s) => s.title)).toEqual(['Earlier session']);
    expect(services.sessions.messages(existing.id)).toEqual([]);
    expect(services.agent.model().id).toBe(models.models.coder.id);
    expect(services.agent.isBusy(existing.id)).toBe(false);
    expect(services.permission.pendingRequests()).toEqual([]);
    expect(services.mcp.servers()).toEqual([]);
    expect(services.lspServers).toEqual(['typescript']);
    expect(services.lsp?.snapshot()).toEqual({
      servers: [{ language: 'typescript', state: 'idle' }],
      counts: { errors: 0, warnings: 0 },
    });
    expect(services.bus).toBe(storage.bus);
  });

  it("a prompt sent before the app arrives waits for it and is answered; the bus is the app's", async () => {
    const { services, build, existing, fake } = await setup();
    const texts: string[] = [];
    services.bus.on('message.updated', ({ message }) => {
      if (message.role === 'assistant')
        texts.push(message.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''));
    });
    const run = services.agent.run(existing.id, 'Hi', []);
    expect(fake.requests.length).toBe(0);
    const app = build();
    const finished = await run;
    expect(finished.reason).toBe('end_turn');
    expect(fake.requests.length).toBe(1);
    expect(texts.at(-1)).toBe('Hello from the model.');
    expect(app.bus).toBe(services.bus);
    expect(services.sessions.messages(existing.id).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('subscriptions made before the app are moved onto it; LSP listeners are told once when it arrives', async () => {
    const { services, ready, build } = await setup();
    const requests: PermissionRequest[] = [];
    services.permission.onRequest((request) => requests.push(request));
    let lspChanges = 0;
    services.lsp!.subscribe(() => lspChanges++);
    const app = build();
    await ready;
    expect(lspChanges).toBe(1);
    expect(services.lsp!.snapshot().servers.map((s) => s.language)).toEqual(['typescript']);
    const asked = app.permission.request('ses_x', 'bash', {
      action: 'execute',
      description: 'Execute command: rm victim',
      params: { command: 'rm victim' },
    });
    expect(requests.map((r) => r.description)).toEqual(['Execute command: rm victim']);
    expect(services.permission.pendingRequests().map((r) => r.description)).toEqual(['Execute command: rm victim']);
    services.permission.respond(requests[0]!.id, 'allow');
    await expect(asked).resolves.toEqual({ by: 'person', outsideSandbox: false });
  });

  it('the LSP snapshot stays the same object when the app arrives saying the same (the TUI does not re-render for it)', async () => {
    const { services, ready, build } = await setup();
    const early = services.lsp!.snapshot();
    expect(early).toEqual({ servers: [{ language: 'typescript', state: 'idle' }], counts: { errors: 0, warnings: 0 } });
    build();
    await ready;
    expect(services.lsp!.snapshot()).toBe(early);
  });

  it("offer every member the app's own services have, at every level (a member added later is not dropped)", async () => {
    const { services, ready, build } = await setup();
    build();
    const real = await ready;
    // plain objects are compared member by member; a class instance (the app's bus, permission service) as a whole
    const shape = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && Object.getPrototypeOf(v) === Object.prototype ? [k, ...shape(v).map((n) => `${k}.${n}`)] : [k],
      );
    const missing = shape(real).filter((name) => !shape(services).includes(name));
    expect(missing).toEqual([]);
  });
});

describe('keepEarlyLspView: the early LSP view while the app says the same', () => {
  const early: LspView = { servers: [{ language: 'typescript', state: 'idle' }], counts: { errors: 0, warnings: 0 } };
  // [case, the app's view, the early view kept?]
  const cases: [string, LspView | undefined, boolean][] = [
    ['no app yet', undefined, true],
    [
      'the same servers, states and counts',
      { servers: [{ language: 'typescript', state: 'idle' }], counts: { errors: 0, warnings: 0 } },
      true,
    ],
    [
      'a server starting',
      { servers: [{ language: 'typescript', state: 'starting' }], counts: { errors: 0, warnings: 0 } },
      false,
    ],
    [
      'a server failed, with its reason',
      { servers: [{ language: 'typescript', state: 'idle', reason: 'not found' }], counts: { errors: 0, warnings: 0 } },
      false,
    ],
    ['another server', { servers: [{ language: 'go', state: 'idle' }], counts: { errors: 0, warnings: 0 } }, false],
    [
      'one server more',
      {
        servers: [
          { language: 'typescript', state: 'idle' },
          { language: 'go', state: 'idle' },
        ],
        counts: { errors: 0, warnings: 0 },
      },
      false,
    ],
    [
      'an error reported',
      { servers: [{ language: 'typescript', state: 'idle' }], counts: { errors: 1, warnings: 0 } },
      false,
    ],
    [
      'a warning reported',
      { servers: [{ language: 'typescript', state: 'idle' }], counts: { errors: 0, warnings: 2 } },
      false,
    ],
  ];
  it.each(cases)('%s', (_, view, kept) => {
    expect(keepEarlyLspView(view, early)).toBe(kept ? early : view);
  });
});
