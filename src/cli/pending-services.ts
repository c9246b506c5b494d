/**
 * The TUI's services while the app is still loading (the full UI within 500 ms). The first
 * frame needs only the sessions (the database), the coder model's name, the project's folders and
 * the language servers' names; the tools, agents, permission service, MCP and LSP load after it. So
 * the TUI starts on these services, built from the app's storage ({@link AppStorage}, the same bus
 * and database the app then uses), and each part that needs the app forwards to it once it is there:
 * - `agent.run`, `compact`, `undo`/`redo`, the model list and switch, custom tools: wait for the app;
 * - `agent.isBusy`/`cancel`, `permission.respond`/`pendingRequests`, `mcp.servers`: nothing runs,
 *   asks or connects before the app exists, so "not busy", "none" and "do nothing" are exact;
 * - subscriptions (`permission`, `mcp`, `lsp`) are kept and moved onto the app when it arrives; MCP
 *   and LSP listeners are then told once, so the sidebar shows the app's servers.
 */
import type { App } from '../app/app.js';
import type { AppStorage } from '../app/storage.js';
import type { Config } from '../config/schema.js';
import type { CustomToolsReport } from '../custom/load.js';
import type { ProviderSettings } from '../provider/index.js';
import type { ModelInfo } from '../provider/types.js';
import type { ChatServices, LspView } from '../tui/state/services.js';
import { VERSION } from '../version.js';
import { profileViews } from './profile-services.js';
import { chatServices, modelName, projectServices, sessionServices } from './tui-services.js';

/** What is known before the app loads. */
export interface EarlyParts {
  cwd: string;
  config: Config;
  storage: AppStorage;
  /** the coder model, as the app will have it */
  coderModel: ModelInfo;
  /** languages of the language servers the app will plan (`planServers`), for the sidebar */
  lspLanguages: string[];
  settings: ProviderSettings;
  /** the active provider profile at start */
  profile?: string;
  env?: NodeJS.ProcessEnv;
  /** workspace trust: what the project would run, and the person's answer (`interactive.ts`) */
  trust?: ChatServices['trust'];
  /** loads the project's custom tools into the app, once (the start's step); default: loaded here */
  startCustomTools?: () => Promise<CustomToolsReport>;
}

/** A subscription made before the app arrived: moved onto it then. */
class LateSubscriptions<L> {
  private readonly pending = new Map<L, { off?: () => void }>();
  private target: ((listener: L) => () => void) | undefined;

  subscribe(listener: L): () => void {
    if (this.target) return this.target(listener);
    const entry: { off?: () => void } = {};
    this.pending.set(listener, entry);
    return () => {
      this.pending.delete(listener);
      entry.off?.();
    };
  }

  /** Subscribes every pending listener through `target` (and later ones directly); returns them. */
  bind(target: (listener: L) => () => void): L[] {
    this.target = target;
    for (const [listener, entry] of this.pending) entry.off = target(listener);
    return [...this.pending.keys()];
  }
}

/**
 * Services for the TUI from `early` now, forwarding to the app's own ({@link chatServices}) once
 * `app` resolves. `ready` resolves with those services (rejects as `app` does).
 */
export function pendingChatServices(
  early: EarlyParts,
  app: Promise<App>,
): { services: ChatServices; ready: Promise<ChatServices> } {
  const env = early.env ?? process.env;
  let real: ChatServices | undefined;
  const onRequest = new LateSubscriptions<Parameters<ChatServices['permission']['onRequest']>[0]>();
  const onResolved = new LateSubscriptions<Parameters<ChatServices['permission']['onResolved']>[0]>();
  const onMcp = new LateSubscriptions<Parameters<ChatServices['mcp']['onUpdate']>[0]>();
  const onLsp = new LateSubscriptions<() => void>();
  const earlyLsp: LspView = {
    servers: early.lspLanguages.map((language) => ({ language, state: 'idle' })),
    counts: { errors: 0, warnings: 0 },
  };
  const ready = app.then((loaded) => {
    const services = chatServices(loaded, early.settings, env, early.startCustomTools);
    real = services;
    onRequest.bind((l) => services.permission.onRequest(l));
    onResolved.bind((l) => services.permission.onResolved(l));
    const servers = services.mcp.servers();
    for (const listener of onMcp.bind((l) => services.mcp.onUpdate(l))) for (const info of servers) listener(info);
    for (const listener of onLsp.bind((l) => services.lsp?.subscribe(l) ?? (() => {}))) listener();
    return services;
  });
  // a failed load is reported by whoever awaits `ready`; these only wait for it
  const later = <T>(use: (services: ChatServices) => T | Promise<T>): Promise<T> => ready.then(use);
  const services: ChatServices = {
    cwd: early.cwd,
    version: VERSION,
    bus: early.storage.bus,
    permission: {
      onRequest: (listener) => onRequest.subscribe(listener),
      onResolved: (listener) => onResolved.subscribe(listener),
      respond: (id, decision) => real?.permission.respond(id, decision),
      pendingRequests: () => real?.permission.pendingRequests() ?? [],
    },
    sessions: sessionServices(early.storage.db, early.cwd),
    undo: (sessionId) => later((s) => s.undo(sessionId)),
    redo: (sessionId) => later((s) => s.redo(sessionId)),
    agent: {
      run: (sessionId, text, attachments) => later((s) => s.agent.run(sessionId, text, attachments)),
      cancel: (sessionId) => real?.agent.cancel(sessionId),
      isBusy: (sessionId) => real?.agent.isBusy(sessionId) ?? false,
      model: () => real?.agent.model() ?? early.coderModel,
      modelName: (id) => modelName(id, real?.agent.model() ?? early.coderModel),
    },
    compact: (sessionId) =>
      later((s) => (s.compact ? s.compact(sessionId) : Promise.reject(new Error('Compaction is not available')))),
    models: () => later((s) => s.models()),
    setModel: (modelId, options) => later((s) => s.setModel(modelId, options)),
    // provider profiles: listed and switched once the app is there
    profiles:
      Object.keys(early.config.profiles ?? {}).length > 0
        ? {
            // the files' own profiles, as the app lists them: the dialog can open before the app is there
            list: () => real?.profiles?.list() ?? profileViews(early.config, env),
            active: () => (real ? real.profiles?.active() : early.profile),
            switch: (name) => later((s) => s.profiles!.switch(name)),
          }
        : undefined,
    setTheme: (name) => void later((s) => s.setTheme(name)).catch(() => {}),
    sandbox: { status: () => later((s) => s.sandbox!.status()) },
    mcp: {
      servers: () => real?.mcp.servers() ?? [],
      onUpdate: (listener) => onMcp.subscribe(listener),
    },
    customTools: { load: () => later((s) => s.customTools?.load() ?? { loaded: [], failed: [] }) },
    lspServers: early.lspLanguages,
    lsp: {
      subscribe: (listener) => onLsp.subscribe(listener),
      snapshot: () => keepEarlyLspView(real?.lsp?.snapshot(), earlyLsp),
    },
    ...projectServices(early.config, early.cwd, env),
    ...(early.trust ? { trust: early.trust } : {}),
  };
  return { services, ready };
}

/**
 * `view` unless it says what `early` says (or is undefined): then `early` itself. The TUI reads this
 * snapshot with `useSyncExternalStore`, which re-renders the whole app, synchronously, for a new
 * object: the app's first LSP snapshot (servers idle, no diagnostics) would do that as the app
 * arrives, ~20–40 ms while the first keys are typed, to draw the same sidebar.
 */
export function keepEarlyLspView(view: LspView | undefined, early: LspView): LspView {
  if (!view) return early;
  const same =
    view.counts.errors === early.counts.errors &&
    view.counts.warnings === early.counts.warnings &&
    view.servers.length === early.servers.length &&
    view.servers.every(
      (s, i) =>
        s.language === early.servers[i]!.language &&
        s.state === early.servers[i]!.state &&
        s.reason === early.servers[i]!.reason,
    );
  return same ? early : view;
}
