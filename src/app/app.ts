/**
 * The object that builds and holds the services for one working directory: storage, permission,
 * tools, providers and the coder agent. The TUI and `-p` mode both start from here.
 */
import { homedir } from 'node:os';
import { Agent } from '../agent/agent.js';
import { compactSession } from '../agent/compact.js';
import type { AgentEvents } from '../agent/events.js';
import { PROJECT_TREE_MAX_ENTRIES, type PromptEnvironment } from '../agent/prompts.js';
import { createSubAgentRunner } from '../agent/sub-agent.js';
import { generateTitle } from '../agent/title.js';
import { resolveDataDir } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Database } from '../db/index.js';
import type { EventBus } from '../events/bus.js';
import { McpService } from '../mcp/service.js';
import { saveProjectRules } from '../permission/project-rules.js';
import { permissionRules } from '../permission/rules.js';
import { PermissionService } from '../permission/service.js';
import { isNestedRun } from '../permission/nested-run.js';
import { apiKeyEnvNames, applyProfile } from '../config/profiles.js';
import { computeCost, createProvider, type ProviderSettings } from '../provider/index.js';
import type { ModelInfo } from '../provider/types.js';
import { FileTimes } from '../tools/file-times.js';
import { builtinTools, TASK_TOOL_NAMES } from '../tools/index.js';
import { projectTree } from '../tools/ls.js';
import type { ToolRegistry } from '../tools/registry.js';
import { createShell } from '../tools/shell.js';
import { createSandbox, sandboxSettings, type Sandbox } from '../sandbox/index.js';
import { credentialValues, heldSecrets, rememberSecrets, withoutCredentials } from '../tools/redact.js';
import { stopLeftoverJournal } from './leftovers.js';
import { openAppStorage, type AppStorage } from './storage.js';
import { storeWithPlainErrors } from './store-errors.js';
import { createApplyEditHandler } from './lsp-edits.js';
import { LspService } from '../lsp/service.js';
import { planServers, type LspServerPlan } from '../lsp/servers.js';
import { diagnosticsTool } from '../tools/diagnostics.js';
import type { ShellRunner, ToolHostServices } from '../tools/tool.js';
import { createBashChangeTracker } from '../undo/bash-changes.js';
import { recordTextVersion } from '../undo/undo.js';

export interface AppOptions {
  /** absolute project directory */
  cwd: string;
  config: Config;
  /** resolved models per agent kind */
  models: { coder: ModelInfo; task?: ModelInfo; title?: ModelInfo; summarizer?: ModelInfo };
  providerSettings: ProviderSettings;
  /** ask for a title in the background on a session's first message */
  generateTitles: boolean;
  /** services added to the coder's and the task agent's tool context, e.g. `opencode acp`'s editor files (`fileAccess`) */
  toolHost?: ToolHostServices;
  /** bus, database and journal opened beforehand (the TUI's first frame); opened here by default */
  storage?: AppStorage;
  /** the language servers, planned beforehand (the TUI's first frame names them); planned here by default */
  lspServers?: LspServerPlan[];
  /** start the language servers now, in the background, so their initial load is done before the first edit (default true) */
  startLanguageServers?: boolean;
  /**
   * The project is not trusted: its plugins and tool files under `.opencode/` are not loaded
   * (`config` and `lspServers` come without its other code already: `project-code.ts`). Default false.
   */
  projectCodeHeld?: boolean;
  /**
   * The active profile: `config` is the file's own (the base other profiles are applied
   * to when switching); `models` and `providerSettings` are already resolved with the profile applied.
   */
  profile?: string;
}

/**
 * Which providers and models the agents use: what a profile decides. Replaced as a whole
 * by {@link App.switchProviders}.
 */
export interface ProviderChoice {
  /** the active profile's name; undefined when none is */
  profile?: string;
  /** the agents' settings (maxTokens, maxSteps, reasoningEffort) with the profile applied */
  agents: Config['agents'];
  models: AppOptions['models'];
  providerSettings: ProviderSettings;
}

/** The services of one project. */
export interface App {
  cwd: string;
  /** the configuration as the files say it, without a profile applied (see {@link providerChoice}) */
  config: Config;
  db: Database;
  bus: EventBus<AgentEvents>;
  permission: PermissionService;
  tools: ToolRegistry;
  /** the coder agent (replaced by {@link App.setCoderModel}) */
  readonly coder: Agent;
  readonly coderModel: ModelInfo;
  /**
   * Switches the coder to `model` for later runs (the TUI's model dialog). A reply already running
   * finishes on the old agent; callers refuse the switch while one runs (its cancel would not reach it).
   */
  setCoderModel(model: ModelInfo): void;
  /** the providers, models and profile the next run uses */
  readonly providerChoice: ProviderChoice;
  /**
   * Switches providers and models for the next run (a profile chosen in the TUI): the
   * coder and task agents are rebuilt on `choice`'s settings. A run in progress keeps its provider and
   * finishes on the old agents; {@link isBusy} and {@link cancel} still reach it.
   */
  switchProviders(choice: ProviderChoice): void;
  /** true while `sessionId` has a run in progress, on the current coder or one replaced by a switch */
  isBusy(sessionId: string): boolean;
  /** cancels the run of `sessionId`, on whichever coder it runs */
  cancel(sessionId: string): void;
  /**
   * Compact Session: summarises the session now (the summarizer model); later requests send the
   * summary and what follows.
   * @throws SessionBusyError while a reply runs; Error when there is nothing to compact or the summarizer fails
   */
  compact(sessionId: string, signal?: AbortSignal): Promise<void>;
  /** MCP servers: connect in the background from creation; their tools join `tools` as they arrive */
  mcp: McpService;
  /** the OS sandbox the bash tool's commands run in (`sandbox` setting); its status says whether it is active */
  sandbox: Sandbox;
  /** the project's plugins and tool files are not loaded: it is not trusted (`AppOptions.projectCodeHeld`) */
  readonly projectCodeHeld: boolean;
  /** language servers: planned at creation, started when a file of their language is first viewed or changed */
  lsp: LspService;
  /**
   * Cancels every request in progress: replies (with their sub-agents and compaction), compactions
   * started by hand, and background requests (session titles). For quitting, mid-stream or not.
   */
  cancelAll(): void;
  /**
   * Aborts background requests (session titles), waits for runs still going to write their last
   * messages, then closes shells, MCP servers and the database. Call {@link cancelAll} first to end runs too.
   */
  close(): Promise<void>;
}

/**
 * Builds the services. Opens (and migrates) `<cwd>/<data.directory>/opencode.db`.
 * @throws the storage error when the database cannot be opened
 */
export function createApp(opts: AppOptions): App {
  const { cwd, config } = opts;
  const { bus, db, journal } = opts.storage ?? openAppStorage(cwd, config);
  // the keys we hold are [redacted] in every tool result
  rememberSecrets(
    heldSecrets(
      opts.providerSettings.env,
      Object.values(opts.providerSettings.providers).map((p) => p.apiKey),
    ),
  );
  // keys named by apiKeyEnv (a profile's WORK_ANTHROPIC_KEY), every profile's: one may be switched to later
  rememberSecrets(apiKeyEnvNames(config).map((name) => opts.providerSettings.env[name]));
  for (const profile of Object.values(config.profiles ?? {}))
    rememberSecrets(Object.values(profile.providers ?? {}).map((p) => p.apiKey));
  for (const server of Object.values(config.mcpServers))
    rememberSecrets([...credentialValues(server.env), ...credentialValues(server.headers)]);
  // detection runs on first use (a trial bwrap start, cached); `sandbox: "off"` never starts anything
  const sandbox = createSandbox({
    settings: sandboxSettings(config.sandbox),
    projectDir: cwd,
    home: process.env.HOME || homedir(),
  });
  const permission = new PermissionService(cwd, {
    rules: permissionRules(config.permission),
    // "always allow in this project" writes into <cwd>/.opencode.json
    saveRules: (tool, patterns, options) => saveProjectRules(cwd, tool, patterns, options),
    onWarning: (message, sessionId) => bus.emit('warning', { sessionId, message }),
    // started by another opencode's command: approves nothing by itself
    nested: isNestedRun(process.env),
  });
  const tools = builtinTools();
  // connects in the background: the app never waits for a server; logs go to the data dir
  // stdio servers inherit no provider key; what their config entry's `env` sets they still get
  // stdio servers and language servers run in the sandbox as unapproved commands do (src/sandbox/process.ts)
  const mcp = new McpService({
    servers: config.mcpServers,
    cwd,
    registry: tools,
    logDir: resolveDataDir(config, cwd),
    env: withoutCredentials(process.env),
    sandbox,
  });
  mcp.events.on('warning', (w) => bus.emit('warning', { message: w.message }));
  mcp.start();
  // language servers are planned here (a PATH lookup and a bounded scan) and started in the background below
  const lspServers = opts.lspServers ?? planServers(cwd, config.lsp, process.env.PATH).servers;
  const lsp: LspService = new LspService({
    root: cwd,
    servers: lspServers,
    env: withoutCredentials(process.env),
    sandbox,
    onApplyEdit: createApplyEditHandler({ cwd, permission, fileHistory: db.files, lsp: (): LspService => lsp }),
    log: config.debugLSP ? (line) => bus.emit('warning', { message: line }) : undefined,
  });
  // offered whenever a server is configured or discovered, even before it started (the original registered it only if a server had started by then: almost never)
  if (lsp.hasServers) tools.register(diagnosticsTool, 'builtin');
  if (opts.startLanguageServers !== false) lsp.startEarly();
  const shells = new Map<string, ShellRunner>();
  const shellFor = (sessionId: string) => {
    let shell = shells.get(sessionId);
    if (!shell) {
      shell = createShell({
        cwd,
        shellPath: config.shell?.path,
        shellArgs: config.shell?.args,
        passEnv: config.shell?.passEnv,
        sandbox,
      });
      shells.set(sessionId, shell);
    }
    return shell;
  };
  const promptEnvironment = (): PromptEnvironment => ({
    cwd,
    projectTree: projectTree(cwd, PROJECT_TREE_MAX_ENTRIES),
    contextPaths: config.contextPaths,
  });
  let choice: ProviderChoice = {
    profile: opts.profile,
    agents: applyProfile(config, opts.profile).agents,
    models: opts.models,
    providerSettings: opts.providerSettings,
  };
  const fileTimes = new FileTimes();
  // a full or read-only disk during a run names the data folder and what to do
  const agentStore = storeWithPlainErrors(db, resolveDataDir(config, cwd));
  // bash and other program-running tools between two snapshots, for undo
  const changeTracker = createBashChangeTracker(cwd, resolveDataDir(config, cwd), (write) => {
    db.files.turns.record(write);
    // the sidebar's modified files show bash's changes as they show edit's
    recordTextVersion(db.files, write.sessionId, write.path, write.before, write.after);
  });
  // its first snapshot starts with the first run, while the model answers (not at start-up)
  const stopTrackerStart = bus.on('run.started', () => {
    stopTrackerStart();
    changeTracker.start();
  });
  // requests made beside any run (session titles) end with the app: quitting aborts them (otherwise
  // a title waiting on a silent provider kept the process alive for 13+ minutes after quitting)
  const background = new AbortController();
  const toolSettings: ToolHostServices = {
    ...(config.sourcegraph?.url && { sourcegraphUrl: config.sourcegraph.url }),
    // the file tools guard the places `sandbox.denyRead` adds as they guard ~/.ssh
    secretReadPaths: sandboxSettings(config.sandbox).denyRead,
  };
  const makeTaskAgent = ({ agents: { task: taskSettings }, models, providerSettings }: ProviderChoice) => {
    const taskModel = models.task ?? models.coder;
    return new Agent({
      kind: 'task',
      provider: createProvider(taskModel, providerSettings),
      tools: tools.subset(TASK_TOOL_NAMES),
      store: agentStore,
      permission,
      bus,
      toolCallLog: db.toolCalls,
      // the task agent's view reads the editor's buffers too (opencode acp)
      toolServices: { fileTimes, fileHistory: db.files, shellFor, ...toolSettings, lsp, ...opts.toolHost },
      promptEnvironment,
      maxTokens: taskSettings.maxTokens ?? taskModel.defaultMaxTokens,
      maxSteps: taskSettings.maxSteps,
      reasoningEffort: taskSettings.reasoningEffort,
      computeCost,
    });
  };
  let taskAgent = makeTaskAgent(choice);
  // a run keeps the choice it started with: its compaction and sub-agents use the same providers
  const compactWith =
    (current: ProviderChoice) =>
    async (sessionId: string, signal?: AbortSignal): Promise<void> => {
      const summarizerModel = current.models.summarizer ?? current.models.coder;
      // the provider is built per call, as for titles: a missing summarizer credential fails the compaction, not the app
      await compactSession(
        {
          provider: createProvider(summarizerModel, current.providerSettings),
          store: db,
          bus,
          maxTokens: current.agents.summarizer.maxTokens ?? summarizerModel.defaultMaxTokens,
          computeCost,
          // the project's rules (context files), so the summary keeps what they require; no tree needed
          promptEnvironment: () => ({ cwd, projectTree: '', contextPaths: config.contextPaths }),
        },
        sessionId,
        signal,
      );
    };
  const makeCoder = (model: ModelInfo, current: ProviderChoice, task: Agent) => {
    const coderSettings = current.agents.coder;
    const titleModel = current.models.title;
    const compact = compactWith(current);
    const hostServices: ToolHostServices = {
      ...toolSettings,
      lsp,
      runSubAgent: createSubAgentRunner(task, db, bus),
      changeTracker,
      ...opts.toolHost,
    };
    return new Agent({
      kind: 'coder',
      provider: createProvider(model, current.providerSettings),
      tools,
      store: agentStore,
      permission,
      bus,
      toolCallLog: db.toolCalls,
      toolServices: { fileTimes, fileHistory: db.files, shellFor, ...hostServices },
      promptEnvironment,
      maxTokens: coderSettings.maxTokens ?? model.defaultMaxTokens,
      maxSteps: coderSettings.maxSteps,
      reasoningEffort: coderSettings.reasoningEffort,
      computeCost,
      autoCompact: config.autoCompact ? { contextWindowTokens: model.contextWindowTokens, compact } : undefined,
      generateTitle:
        opts.generateTitles && titleModel
          ? async (sessionId, text) => {
              let title: string;
              try {
                title = await generateTitle(
                  createProvider(titleModel, current.providerSettings),
                  text,
                  background.signal,
                );
              } catch (err) {
                if (background.signal.aborted) return; // quitting: no title, and nothing to report
                throw err;
              }
              if (title) {
                db.sessions.updateTitle(sessionId, title);
                bus.emit('session.updated', { sessionId });
              }
            }
          : undefined,
    });
  };
  let coderModel = opts.models.coder;
  let coder = makeCoder(coderModel, choice, taskAgent);
  const retired: Agent[] = [];
  return {
    cwd,
    config,
    db,
    bus,
    permission,
    tools,
    get coder() {
      return coder;
    },
    get coderModel() {
      return coderModel;
    },
    setCoderModel(model: ModelInfo) {
      retired.push(coder);
      coderModel = model;
      coder = makeCoder(model, choice, taskAgent);
    },
    get providerChoice() {
      return choice;
    },
    switchProviders(next: ProviderChoice) {
      retired.push(coder, taskAgent);
      choice = next;
      taskAgent = makeTaskAgent(next);
      coderModel = next.models.coder;
      coder = makeCoder(coderModel, next, taskAgent);
    },
    isBusy: (sessionId) => [coder, ...retired].some((agent) => agent.isBusy(sessionId)),
    cancel(sessionId) {
      for (const agent of [coder, ...retired]) agent.cancel(sessionId);
    },
    compact: (sessionId, signal) => coder.runExclusive(sessionId, (s) => compactWith(choice)(sessionId, s), signal),
    mcp,
    lsp,
    sandbox,
    projectCodeHeld: opts.projectCodeHeld ?? false,
    cancelAll() {
      background.abort();
      for (const agent of [coder, taskAgent, ...retired]) agent.cancelAll();
    },
    async close() {
      background.abort();
      const agents = [coder, taskAgent, ...retired];
      // runs still going (cancelled by the caller, or finishing) write their last messages first
      await Promise.all(agents.map((a) => a.runsSettled()));
      await Promise.all([coder.idle(), taskAgent.idle(), ...retired.map((a) => a.idle())]);
      for (const shell of shells.values()) shell.close();
      changeTracker.close();
      stopLeftoverJournal(journal);
      await Promise.all([mcp.close(), lsp.close(), sandbox.close()]);
      db.close();
    },
  };
}
