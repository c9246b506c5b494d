/**
 * What a tool call runs with and what it gives back: the call's context, its result, and the
 * services the layers above the tools provide (language servers, undo's snapshots, an editor's
 * buffers, the sub-agent). The tools layer owns these interfaces; the agent and app layers implement
 * them and put them in the context, so no tool imports a layer above it.
 */
import type { LspService } from '../lsp/service.js';
import type { GateVerdict, ToolAsks } from '../permission/gate.js';
import type { PermissionAsk } from '../permission/types.js';
import type { SandboxLevel } from '../sandbox/types.js';
import type { FileHistory } from './file-history.js';
import type { FileTimes } from './file-times.js';

/** What a tool returns. `output` goes to the model; `metadata` is for the UI only. */
export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
  /** images for the model (base64), e.g. from an MCP tool */
  images?: { mimeType: string; data: string }[];
  /** set by the kernel when the person denied permission: the agent ends the turn */
  permissionDenied?: boolean;
  /**
   * How the call ended, when the tool knows better than `outcomeOf` can tell: the kernel sets
   * `validation` for input it rejected; a tool that kills a process on its timeout sets `timeout`.
   */
  outcome?: ToolOutcome;
  /** set when the output was cut to the tool's limit (the kernel's, or the tool's own) */
  truncated?: boolean;
}

/** How a tool call ended, as the call log records it. */
export type ToolOutcome = 'ok' | 'error' | 'validation' | 'permission' | 'timeout' | 'canceled';

/** A persistent shell for one session (bash tool). Implemented in `tools/shell.ts`. */
export interface ShellRunner {
  /** Runs `command`; resolves when it ends, times out or `signal` aborts. Never rejects for a failing command. */
  exec(
    command: string,
    options: {
      timeoutMs: number;
      signal?: AbortSignal;
      onOutput?: (chunk: string) => void;
      /** how the command is contained when the shell has a sandbox (`strict` when not given) */
      sandbox?: SandboxLevel;
    },
  ): Promise<{
    stdout: string;
    stderr: string;
    exitCode: number | null;
    interrupted: boolean;
    timedOut: boolean;
    /** the command ran inside the OS sandbox */
    sandboxed?: boolean;
  }>;
  /** the shell's current directory after the last command */
  readonly cwd: string;
  /**
   * Whether commands run inside an OS sandbox this run can leave (false: none configured, it cannot
   * start here, or this opencode itself runs in another's sandbox). Absent: no sandbox.
   */
  sandboxActive?(): Promise<boolean>;
  close(): void;
}

/**
 * Services and settings the app gives the tools of an agent, each optional: a tool whose service is
 * absent does without it (no diagnostics, no undo snapshot, the disk instead of the editor) or
 * answers that it is not available here.
 */
export interface ToolHostServices {
  /**
   * The project's language servers, when one is configured or discovered: `view` opens the file in
   * them, edit, write and patch append the diagnostics they introduced, and the `diagnostics` tool asks them.
   */
  lsp?: LspService;
  /** undo's snapshots around calls of tools that run programs (the coder only; `undo/bash-changes.ts`) */
  changeTracker?: ChangeTracker;
  /** an editor that reads and writes files for the file tools (`opencode acp`) */
  fileAccess?: FileAccess;
  /** runs the task agent for the `agent` tool (the coder only) */
  runSubAgent?: SubAgentRunner;
  /** the Sourcegraph endpoint, the config's `sourcegraph.url`; the public one when absent */
  sourcegraphUrl?: string;
  /**
   * The places the config's `sandbox.denyRead` adds (absolute, `~/…`, or relative to the project):
   * the file tools guard them as they guard `~/.ssh`.
   */
  secretReadPaths?: readonly string[];
}

/** Services and identity a tool call runs with. */
export interface ToolContext extends ToolHostServices {
  sessionId: string;
  /** the assistant message that holds the call */
  messageId: string;
  toolCallId: string;
  /** the project directory (absolute) */
  cwd: string;
  signal: AbortSignal;
  /** ask the person; resolves when allowed, throws `PermissionDeniedError` when denied */
  askPermission: PermissionAsk;
  /**
   * The permission gate for this call's tool, before it runs (permission/gate.ts): given how the tool
   * asks itself, run it, ask once first, or refuse it; `description` says what the call would do, for
   * reports of a refusal. Omitted: the tool's own requests are the only check.
   */
  permissionGate?: (asks: ToolAsks | undefined, description: string) => GateVerdict;
  fileTimes: FileTimes;
  fileHistory: FileHistory;
  /** the session's persistent shell */
  shell: () => ShellRunner;
  /** report live progress to the UI (e.g. bash output so far) */
  onProgress?: (text: string) => void;
}

/**
 * Runs a call between two snapshots of the project and records the difference, so undo can put back
 * what a program-running tool changed. Implemented in `undo/bash-changes.ts`.
 */
export interface ChangeTracker {
  /**
   * Runs `run` (with a context whose `askPermission` may retake the before-snapshot after a long
   * wait for the person) and records the files it changed. Never rejects for a snapshot problem:
   * the result then carries the `untrackedChanges` metadata.
   */
  around(tool: string, ctx: ToolContext, run: (ctx: ToolContext) => Promise<ToolResult>): Promise<ToolResult>;
}

/**
 * An editor that reads and writes files for the tools (ACP's `fs/read_text_file` and
 * `fs/write_text_file`). A method left out means that direction goes to the disk.
 */
export interface FileAccess {
  /**
   * The text of the absolute `path` as the editor has it (an open buffer's unsaved changes included),
   * as the editor sends it (any line endings, maybe a byte order mark). Rejects when the editor cannot
   * read it; the tools then read the disk, as an editor without the file open would answer.
   */
  readTextFile?(sessionId: string, path: string, signal: AbortSignal): Promise<string>;
  /**
   * Writes `text` (the whole new content: the file's own line endings, no byte order mark) to the
   * absolute `path` through the editor. Rejects when the editor refuses; resolves once it is written.
   */
  writeTextFile?(sessionId: string, path: string, text: string, signal: AbortSignal): Promise<void>;
}

/** What a {@link SubAgentRunner} returns. */
export interface SubAgentAnswer {
  /** the child session's id */
  sessionId: string;
  /** the sub-agent's final text ('' when it gave none) */
  text: string;
  /** set when the sub-agent's run failed */
  error?: string;
}

/**
 * Runs the task agent in a new child session of `parentSessionId` and resolves with its answer.
 * Rejects with an `AbortError` when `signal` aborts. Implemented in `agent/sub-agent.ts`.
 */
export type SubAgentRunner = (input: {
  parentSessionId: string;
  toolCallId: string;
  prompt: string;
  signal: AbortSignal;
}) => Promise<SubAgentAnswer>;
