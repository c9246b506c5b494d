/**
 * What the TUI may use of the core: its events and plain functions (DESIGN.md: the TUI never
 * touches the database or a provider). `src/cli/interactive.ts` builds one from the App.
 */
import type { AgentEvents, RunFinished } from '../../agent/events.js';
import type { EventBus } from '../../events/bus.js';
import type { Session } from '../../db/session-store.js';
import type { FileChange } from '../../db/file-store.js';
import type { ImagePart, Message } from '../../message.js';
import type { McpServerInfo } from '../../mcp/service.js';
import type { PermissionDecision, PermissionRequest } from '../../permission/types.js';
import type { ModelInfo } from '../../provider/types.js';
import type { SandboxStatus } from '../../sandbox/types.js';
import type { TurnUndoResult } from '../../undo/result.js';

/** The services of one project, as the TUI sees them. */
export interface ChatServices {
  /** absolute project directory */
  cwd: string;
  version: string;
  /** the agent's events (messages, tools, runs, warnings) */
  bus: EventBus<AgentEvents>;
  permission: {
    onRequest(listener: (request: PermissionRequest) => void): () => void;
    onResolved(listener: (id: string, decision: PermissionDecision) => void): () => void;
    respond(requestId: string, decision: PermissionDecision): void;
    pendingRequests(): PermissionRequest[];
  };
  sessions: {
    /** top-level sessions (no sub-agent sessions), newest first */
    list(): Session[];
    get(id: string): Session | undefined;
    /** a new empty session */
    create(): Session;
    /** messages in order */
    messages(sessionId: string): Message[];
    /** files the session changed, with line counts against their first version */
    modifiedFiles(sessionId: string): FileChange[];
    /** gives the session a new title (ctrl+s → rename); returns the session as stored */
    rename(sessionId: string, title: string): Session;
    /** deletes the session with its messages, file history and sub-agent sessions (ctrl+s → delete) */
    delete(sessionId: string): void;
    /** the TUI opened (or created) the session: the next start reopens it (`-p` runs never count) */
    opened?(sessionId: string): void;
  };
  /**
   * Undoes the file changes of the session's last turn (`src/undo/`): files put back byte
   * for byte, a file changed since left alone with its diff, a note added to the conversation.
   * Rejects with a message to show: a reply is running, nothing to undo, a write failed.
   */
  undo(sessionId: string): Promise<TurnUndoResult>;
  /** Puts back the turn undone most recently; rejects as {@link undo} does. */
  redo(sessionId: string): Promise<TurnUndoResult>;
  /** the coder agent */
  agent: {
    /** runs one prompt; resolves when the reply is finished (never rejects for provider/tool errors) */
    run(sessionId: string, text: string, attachments: ImagePart[]): Promise<RunFinished>;
    /** cancels the running reply: every open tool call gets a "canceled" result */
    cancel(sessionId: string): void;
    isBusy(sessionId: string): boolean;
    /** the coder model */
    model(): ModelInfo;
    /**
     * A model's display name by its `provider/model` id (`anthropic/claude-sonnet-5-5` → `Claude
     * Sonnet 5.5`), as the status bar shows the coder model's; undefined when the catalog does not know it
     */
    modelName?(modelId: string): string | undefined;
  };
  /** summarises the session so later requests send only the summary and what follows */
  compact?(sessionId: string): Promise<void>;
  /** models the person can pick (ctrl+o), grouped by provider, most popular provider first */
  models(): Promise<{ id: string; name: string; models: { id: string; name: string }[] }[]>;
  /**
   * Switches the coder model and saves the choice: to the project's `.opencode.json`, or
   * the global one with `global`; under the active profile's entry when one is active. Resolves with
   * the file written; throws with a clear message.
   */
  setModel(modelId: string, options?: { global?: boolean }): Promise<SavedModel>;
  /** provider profiles: list, the active one, switch for the next request */
  profiles?: ProfileServices;
  /** saves the theme to the global config */
  setTheme(name: string): void;
  /** whether the bash tool's commands run in the OS sandbox (the status bar says so) */
  sandbox?: { status(): Promise<SandboxStatus> };
  mcp: {
    servers(): McpServerInfo[];
    onUpdate(listener: (info: McpServerInfo) => void): () => void;
  };
  /**
   * Custom tools and plugins: `load` loads them once (the TUI calls it after its first
   * frame; a run waits for it) and resolves with what loaded and what failed, for the sidebar.
   */
  customTools?: { load(): Promise<CustomToolsSummary> };
  /** configured language servers' names (sidebar) */
  lspServers: string[];
  /** language servers' states and diagnostics counts, when the app has any */
  lsp?: {
    subscribe(listener: () => void): () => void;
    /** the same object until something changed */
    snapshot(): LspView;
  };
  /** the project's data directory (custom commands, the init flag) */
  dataDir: string;
  /** user config directories whose `commands/` folders hold custom commands (`~/.config/opencode`, `~/.opencode`) */
  userCommandDirs: string[];
  /** the Initialize Project prompt and its flag */
  init: { prompt: string; isInitialized(): boolean; markInitialized(): void };
  /**
   * Workspace trust: the project's own code waits for the person's word. `pending` resolves with what
   * the project would run when it is not trusted (the trust dialog lists it), else undefined.
   * `answer(true)` remembers the project as trusted and starts its code; `answer(false)` runs the
   * session without it. Resolves with a line to show (what happened, or why remembering failed).
   */
  trust?: { pending(): Promise<ProjectCodeView[] | undefined>; answer(trust: boolean): Promise<string> };
}

/** One thing a project would run, as the trust dialog lists it (`src/app/project-code.ts`). */
export interface ProjectCodeView {
  /** `plugin`, `tool file`, `plugin package`, `MCP server`, `language server`, `shell` */
  kind: string;
  name: string;
  /** the command line or URL; empty for files */
  detail: string;
}

/** Language servers as the sidebar and status bar show them. */
export interface LspView {
  servers: { language: string; state: 'idle' | 'starting' | 'ready' | 'failed'; reason?: string }[];
  /** errors and warnings over the files the servers reported on */
  counts: { errors: number; warnings: number };
}

/** The custom tools for the sidebar: each loaded one with its source and file, the plugins' hooks, and one line per failure. */
export interface CustomToolsSummary {
  loaded: { name: string; source: string; origin: string }[];
  /** each plugin with hooks and their names (a plugin with hooks only has no tool in `loaded`) */
  hooks?: { origin: string; source: string; hooks: string[] }[];
  failed: string[];
}

/** Where {@link ChatServices.setModel} saved the choice. */
export interface SavedModel {
  /** the file written */
  file: string;
  /** the key set, e.g. `agents.coder.model` or `profiles.work.agents.coder.model` */
  keyPath: string;
}

/** A provider profile as the profile dialog shows it. */
export interface ProfileView {
  name: string;
  description?: string;
  /** the coder model it uses, when set */
  coderModel?: string;
  /** what keeps it from working, e.g. `anthropic: WORK_ANTHROPIC_KEY is not set` */
  problems: string[];
}

/** Provider profiles. */
export interface ProfileServices {
  /** the profiles of the config, by name */
  list(): ProfileView[];
  /** the active profile's name; undefined when none is */
  active(): string | undefined;
  /**
   * Makes `name` (undefined: none) the active profile from the next request on, without a restart;
   * a reply running keeps its provider. Resolves with warnings to show; rejects with what is missing
   * (a key), leaving the active profile as it was.
   */
  switch(name: string | undefined): Promise<string[]>;
}
