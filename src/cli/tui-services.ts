/**
 * Builds the TUI's view of the core ({@link ChatServices}) from an App. The TUI gets functions
 * and events, never the database or a provider (DESIGN.md).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../app/app.js';
import type { CustomToolsReport } from '../custom/load.js';
import { INIT_PROMPT, isProjectInitialized, markProjectInitialized } from '../agent/init-prompt.js';
import { resolveDataDir } from '../config/light.js';
import type { Config } from '../config/schema.js';
import type { Database } from '../db/index.js';
import type { ProviderSettings } from '../provider/index.js';
import type { ModelInfo } from '../provider/types.js';
import { catalogModel } from '../provider/catalog.js';
import { discoverModels, listModels } from '../provider/resolve.js';
import { localBaseURL, localEndpoint } from '../provider/settings.js';
import { profileServices, saveCoderModel } from './profile-services.js';
import { tuiSessionMarks } from './sessions-in-use.js';
import { relativeToProject } from '../tui/format.js';
import type { ChatServices, CustomToolsSummary, LspView } from '../tui/state/services.js';
import { VERSION } from '../version.js';

/** Providers in the model dialog's order (the original sorts by popularity); others follow by name. */
const PROVIDER_ORDER = ['anthropic', 'openai', 'openrouter', 'groq', 'xai', 'local'];
const PROVIDER_NAMES: Record<string, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  groq: 'Groq',
  xai: 'xAI',
  local: 'Local',
};

/**
 * The services for `app`; `settings` are the provider settings the models were resolved with.
 * `startCustomTools` loads the project's custom tools once (the start's step: `src/app/start.ts`).
 */
export function chatServices(
  app: App,
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv = process.env,
  startCustomTools: () => Promise<CustomToolsReport> = () =>
    import('../custom/start.js').then((m) => m.startCustomTools(app, { env })),
): ChatServices {
  const { db, cwd } = app;
  /** session id → the cancel of its run, from the call on (the agent's own cancel only once the run holds the session) */
  const starting = new Map<string, AbortController>();
  // custom tools and plugins: loaded once, after the TUI's first frame; a run waits for them
  let customTools: Promise<CustomToolsSummary> | undefined;
  const loadCustomTools = () =>
    (customTools ??= startCustomTools().then((report) => ({
      loaded: report.tools.map(({ name, source, origin }) => ({ name, source, origin })),
      hooks: report.hooks,
      failed: report.failed,
    })));
  return {
    cwd,
    version: VERSION,
    bus: app.bus,
    permission: app.permission,
    sessions: sessionServices(db, cwd),
    // loaded on first use: undo brings the file tools' encodings (iconv-lite, chardet), kept off the TUI's start
    undo: (sessionId) =>
      import('../undo/session-undo.js').then(({ undoInSession }) => undoInSession(app, sessionId, 'undo')),
    redo: (sessionId) =>
      import('../undo/session-undo.js').then(({ undoInSession }) => undoInSession(app, sessionId, 'redo')),
    agent: {
      run: async (sessionId, text, attachments) => {
        // esc while the custom tools still load (before the agent holds the session) cancels too
        const controller = new AbortController();
        starting.set(sessionId, controller);
        try {
          await loadCustomTools().catch(() => undefined);
          return await app.coder.run(sessionId, text, { attachments, signal: controller.signal });
        } finally {
          if (starting.get(sessionId) === controller) starting.delete(sessionId);
        }
      },
      cancel: (sessionId) => {
        starting.get(sessionId)?.abort();
        // a run started before a profile switch runs on the agent it started with
        app.cancel(sessionId);
      },
      isBusy: (sessionId) => app.isBusy(sessionId),
      model: () => app.coderModel,
      modelName: (id) => modelName(id, app.coderModel),
    },
    compact: app.compact ? (sessionId) => app.compact!(sessionId) : undefined,
    async models() {
      // the providers in use now: a profile switch changes them
      const settings = app.providerChoice.providerSettings;
      const byProvider = new Map<string, { id: string; name: string }[]>();
      // a local server's models are listed by the server itself (cached per process)
      const local = localEndpoint(settings);
      const discovered = local
        ? await discoverModels(localBaseURL(local), settings.providers.local?.apiKey).catch(() => [])
        : [];
      for (const model of [
        ...listModels(settings),
        ...discovered.map((m) => ({ id: `local/${m.id}`, name: m.id, provider: 'local' })),
      ]) {
        const list = byProvider.get(model.provider) ?? [];
        if (list.some((m) => m.id === model.id)) continue;
        list.push({ id: model.id, name: model.name });
        byProvider.set(model.provider, list);
      }
      const rank = (id: string) => (PROVIDER_ORDER.includes(id) ? PROVIDER_ORDER.indexOf(id) : PROVIDER_ORDER.length);
      return [...byProvider.entries()]
        .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
        .map(([id, models]) => ({ id, name: PROVIDER_NAMES[id] ?? id, models }));
    },
    // the project's .opencode.json unless asked to save globally
    setModel: (modelId, options) => saveCoderModel(app, modelId, { global: options?.global, env }),
    profiles: profileServices(app, env),
    setTheme(name) {
      // config/write.ts loads the schema (zod): imported when a theme is saved, not at the TUI's start
      void import('../config/write.js')
        .then(({ setGlobalConfigValue }) => setGlobalConfigValue({ env }, ['tui', 'theme'], name))
        .catch((err: unknown) => app.bus.emit('warning', { message: `Theme not saved: ${(err as Error).message}` }));
    },
    sandbox: { status: () => app.sandbox.status() },
    mcp: {
      servers: () => app.mcp.servers(),
      onUpdate: (listener) => app.mcp.events.on('server.updated', listener),
    },
    customTools: { load: loadCustomTools },
    lspServers: app.lsp.statuses().map((s) => s.language),
    lsp: lspView(app),
    ...projectServices(app.config, cwd, env),
  };
}

/** The sessions part of the services: the project's database. */
export function sessionServices(db: Database, cwd: string): ChatServices['sessions'] {
  // the session shown is marked in use, so `opencode sessions delete` elsewhere refuses it
  const marks = tuiSessionMarks(db);
  return {
    // most recently updated first (ctrl+s); which one the TUI reopens is kept apart (`opened`)
    list: () => db.sessions.list().sort((a, b) => b.updatedAt - a.updatedAt),
    get: (id) => db.sessions.get(id),
    create: () => db.sessions.create({ title: 'New Session' }),
    messages: (id) => db.messages.list(id),
    modifiedFiles: (id) => db.files.changes(id).map((c) => ({ ...c, path: relativeToProject(c.path, cwd) })),
    rename: (id, title) => db.sessions.updateTitle(id, title),
    delete: (id) => {
      marks.beforeDelete(id);
      db.sessions.delete(id);
    },
    opened: (id) => {
      marks.opened(id);
      try {
        db.sessions.markUsedInTui(id);
      } catch {
        // a busy or read-only database: which session reopens next time is not worth failing this one's opening
      }
    },
  };
}

/** The project's data directory, the user's command folders and the Initialize Project prompt. */
export function projectServices(
  config: Config,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Pick<ChatServices, 'dataDir' | 'userCommandDirs' | 'init'> {
  const dataDir = resolveDataDir(config, cwd);
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return {
    dataDir,
    // loadCustomCommands looks in `<dir>/commands` of each
    userCommandDirs: [join(configHome, 'opencode'), join(env.HOME || homedir(), '.opencode')],
    init: {
      prompt: INIT_PROMPT,
      isInitialized: () => isProjectInitialized(dataDir),
      markInitialized: () => markProjectInitialized(dataDir),
    },
  };
}

/** The LSP part of the services: a snapshot rebuilt only when the service reports a change. */
function lspView(app: App): ChatServices['lsp'] {
  let snapshot: LspView | undefined;
  const build = (): LspView => ({
    servers: app.lsp
      .statuses()
      .map((s) => ({ language: s.language, state: s.state, ...(s.reason ? { reason: s.reason } : {}) })),
    counts: app.lsp.counts(),
  });
  return {
    subscribe: (listener) =>
      app.lsp.onChange(() => {
        snapshot = undefined;
        listener();
      }),
    snapshot: () => (snapshot ??= build()),
  };
}

/** The display name of model `id`: the coder model's own (a local model has no catalog row), else the catalog's. */
export function modelName(id: string, coderModel: ModelInfo): string | undefined {
  return id === coderModel.id ? coderModel.name : catalogModel(id)?.name;
}
