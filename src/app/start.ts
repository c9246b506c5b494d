/**
 * The one start-up path of every front end: the TUI, `-p`, `opencode acp` (one start per project
 * folder) and the runtime API (`createOpencode`). {@link startApp} returns the steps in their order;
 * each step runs the ones before it that have not run yet, once, so a front end awaits only what it
 * needs and may do its own work between two steps (the TUI draws its first full frame after step 3;
 * `-p` prints the config's warnings after step 1 and the trust line after step 4).
 *
 * Only light modules are imported here: the TUI's first frame loads this file, so the config's
 * schema, the trust decision, the app and the custom tools' loader are imported when their step runs.
 */
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { CustomToolsReport } from '../custom/load.js';
import type { LspServerPlan } from '../lsp/servers.js';
import type { App, AppOptions, createApp } from './app.js';
import { chooseProviders, resolveModels, type ChosenProviders } from './models.js';
import type { TrustDecision } from './project-code.js';
import { openAppStorage, type AppStorage } from './storage.js';
import { configSource } from '../config/light.js';

/** The step of {@link startApp} that failed. */
export type StartStep = 'config' | 'models' | 'storage';

/**
 * A start that cannot go on. `message` is `lines` joined: a config problem's lines each name their
 * file and are printed as they are; the other steps' line is printed after `opencode: `. `cause` is
 * the error the step caught (the runtime API hands it to the program).
 */
export class StartError extends Error {
  constructor(
    /** `config`: .opencode.json is wrong; `models`: a profile or model cannot be used (no credential among them); `storage`: the session database cannot be opened */
    readonly step: StartStep,
    /** the lines that say what is wrong: one per config problem, else one */
    readonly lines: string[],
    options: { cause?: unknown } = {},
  ) {
    super(lines.join('\n'), options);
    this.name = 'StartError';
  }
}

/** What the app starts with of the project's own code (its plugins, tool files, MCP and language servers). */
export interface TrustedStart {
  config: Config;
  lspServers: LspServerPlan[];
  /** the project's plugins and tool files stay unloaded */
  held: boolean;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** the project directory (absolute, an existing folder) */
  cwd: string;
  /** provider keys, HOME, XDG_CONFIG_HOME, PATH and OPENCODE_PROFILE are read from here */
  env: NodeJS.ProcessEnv;
  /** `-m provider/model`: the coder model, used as given or refused */
  model?: string;
  /** `--profile NAME`, else OPENCODE_PROFILE; `false`: no profile at all (the runtime API reads none) */
  profile?: string | false;
  /** `-d`: debug logging whatever the config says */
  debug?: boolean;
  /** `--trust`: the project's own code runs this time, trusted or not (refused inside another opencode's command) */
  trust?: boolean;
  /** ask for a title in the background on a session's first message */
  generateTitles: boolean;
  /** further options of `createApp`, e.g. `opencode acp`'s editor files for the tools */
  appOptions?: Partial<AppOptions>;
  /** step 1's reader; default `loadConfig`. The TUI passes its remembered check (no schema before its first frame) */
  readConfig?: () => Promise<LoadedConfig | { problems: string[] }>;
  /**
   * Step 4 for a front end that asks the person (the TUI's trust dialog): resolves with what the app
   * starts with. Default: {@link AppStart.trust}'s decision, asking nobody.
   */
  decideTrust?: () => Promise<TrustedStart>;
  /** how step 5 loads `createApp`; the TUI loads the app's modules a slice at a time after its first frame */
  loadApp?: () => Promise<typeof createApp>;
}

/** Step 1's result. */
export interface StartConfig {
  /** the files as loaded: the merged config, warnings, each file's own value */
  loaded: LoadedConfig;
  /** `loaded.config` with `-d` applied: what the app is built with */
  config: Config;
}

/** Where a custom tool's warnings and a plugin's log lines go, besides the bus's `warning` events. */
export interface CustomToolsOutput {
  write?: (line: string) => void;
  /** a plugin's own log lines, `[<plugin>] <message>` (default `write`) */
  writePluginLog?: (line: string) => void;
}

/** The steps of one start, in order. Each runs the steps before it that have not run, once. */
export interface AppStart {
  /**
   * 1. `.opencode.json` read and checked (the global file, then the project's).
   * @throws {StartError} step `config`, one line per problem
   */
  config(): Promise<StartConfig>;
  /**
   * 2. The profile applied (`--profile`, else OPENCODE_PROFILE) and the agents' models resolved; a
   * saved model without its key replaced, with a warning naming its file.
   * @throws {StartError} step `models`: an unknown profile, no credential, an unknown model
   */
  providers(): Promise<ChosenProviders>;
  /**
   * 3. The project's database opened (and migrated), what a killed opencode left cleaned. Optional:
   * without it step 5 opens it. The TUI opens it before its first frame to list the sessions; it
   * closes it itself (`closeAppStorage`) when it quits before step 5 has taken it over.
   * @throws {StartError} step `storage`
   */
  storage(): Promise<AppStorage>;
  /** 4. Whether the project's own code runs: trusted, `--trust`, or nothing to hold; asks nobody. */
  trust(): Promise<TrustDecision>;
  /**
   * 5. The app: services, tools, agents; its MCP servers connect and its language servers start in the
   * background from here. Waits for {@link StartAppOptions.decideTrust} when given, else uses step 4.
   * @throws {StartError} step `storage` when the database cannot be opened (step 3 not run); a
   *   failure of the app's own load as it is
   */
  app(): Promise<App>;
  /**
   * 6. The project's custom tools and plugins loaded into the app's registry (step 5 first). Problems
   * are said as `warning` events and through `output`. Later calls return the first call's promise.
   */
  customTools(output?: CustomToolsOutput): Promise<CustomToolsReport>;
}

/**
 * Starts a project for a front end: returns its steps ({@link AppStart}), of which nothing has run yet.
 * The order, and what each front end does between the steps:
 * 1. config — `-p` prints its warnings; the TUI checks its key bindings;
 * 2. providers (profile and models);
 * 3. storage — only the TUI, which then draws its first full frame on the database alone;
 * 4. trust — `-p` says which of the project's code is held back; the TUI asks with a dialog instead;
 * 5. app — MCP and language servers start in the background;
 * 6. custom tools — `-p` and the runtime API wait for them and for MCP (`mcp-wait.ts`) before the
 *    first request; `opencode acp` loads them in the background; the TUI before its first run.
 * Nothing is thrown by this call; each step throws as its TSDoc says.
 */
export function startApp(options: StartAppOptions): AppStart {
  const { cwd, env } = options;
  let config: Promise<StartConfig> | undefined;
  let providers: Promise<ChosenProviders> | undefined;
  let storage: Promise<AppStorage> | undefined;
  let trust: Promise<TrustDecision> | undefined;
  let app: Promise<App> | undefined;
  let customTools: Promise<CustomToolsReport> | undefined;
  const steps: AppStart = {
    config: () => (config ??= readConfig(options)),
    providers: () =>
      (providers ??= steps.config().then(async ({ loaded, config }) => {
        try {
          if (options.profile !== false)
            return await chooseProviders(config, loaded, env, { model: options.model, profile: options.profile });
          const selected = await resolveModels(config, env, {
            cliModel: options.model,
            sourceOf: (keyPath) => configSource(loaded, keyPath),
          });
          return { ...selected, config };
        } catch (err) {
          throw new StartError('models', [(err as Error).message], { cause: err });
        }
      })),
    storage: () =>
      (storage ??= steps.providers().then(async () => {
        const { config } = await steps.config();
        try {
          return openAppStorage(cwd, config);
        } catch (err) {
          throw new StartError('storage', [`cannot open the session database: ${(err as Error).message}`], {
            cause: err,
          });
        }
      })),
    trust: () =>
      (trust ??= steps.providers().then(async () => {
        const { loaded, config } = await steps.config();
        const { decideTrust } = await import('./project-code.js');
        return decideTrust({ config, sources: loaded.sources }, cwd, env, { trustFlag: options.trust });
      })),
    app: () =>
      (app ??= steps.providers().then(async (chosen) => {
        const createApp = options.loadApp ? await options.loadApp() : (await import('./app.js')).createApp;
        const start = options.decideTrust ? await options.decideTrust() : trustedStart(await steps.trust());
        const opened = storage ? await storage : undefined;
        const appOptions: AppOptions = {
          cwd,
          config: start.config,
          models: chosen.models,
          providerSettings: chosen.settings,
          generateTitles: options.generateTitles,
          profile: chosen.profile,
          lspServers: start.lspServers,
          projectCodeHeld: start.held,
          storage: opened,
          ...options.appOptions,
        };
        if (opened) return createApp(appOptions);
        try {
          return createApp(appOptions);
        } catch (err) {
          throw new StartError('storage', [`cannot open the session database: ${(err as Error).message}`], {
            cause: err,
          });
        }
      })),
    customTools: (output = {}) =>
      (customTools ??= steps.app().then(async (started) => {
        const { startCustomTools } = await import('../custom/start.js');
        return startCustomTools(started, { env, ...output });
      })),
  };
  return steps;
}

/** Step 1: the config, with `-d` applied. */
async function readConfig(options: StartAppOptions): Promise<StartConfig> {
  let loaded: LoadedConfig | { problems: string[] };
  if (options.readConfig) {
    loaded = await options.readConfig();
  } else {
    const { configProblems, loadConfig } = await import('../config/load.js');
    try {
      loaded = loadConfig({ cwd: options.cwd, env: options.env });
    } catch (err) {
      // the runtime API hands a program the error itself
      throw new StartError('config', configProblems(err), { cause: err });
    }
  }
  if ('problems' in loaded) throw new StartError('config', loaded.problems);
  return { loaded, config: { ...loaded.config, debug: loaded.config.debug || !!options.debug } };
}

/** What the app starts with when nobody is asked: the decision as it is. */
function trustedStart(decision: TrustDecision): TrustedStart {
  return { config: decision.config, lspServers: decision.lspServers, held: !decision.trusted };
}
