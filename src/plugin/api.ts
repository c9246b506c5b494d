/**
 * The plugin API, and the typed helpers authors import as
 * `import { tool, definePlugin } from 'opencode/plugin'`.
 *
 * A plugin is an ES module (`.js`, `.mjs`, `.ts`) whose default export is an async function: it gets
 * {@link PluginInput} and returns {@link PluginResult}: tools and hooks. The shapes follow sst/opencode's
 * plugins (`@opencode-ai/plugin`), with a hook's answer returned rather than written into its argument.
 *
 * @example
 * export default definePlugin(async ({ directory }) => ({
 *   tools: { hello: tool({ description: 'Greets', args: z.object({ who: z.string() }), execute: async ({ who }) => `hi ${who}` }) },
 *   hooks: { 'tool.execute.before': async (call) => (call.tool === 'view' && String(call.args.file_path).endsWith('.env') ? { block: 'no .env' } : undefined) },
 * }));
 */
import type { z } from 'zod';

/** What a plugin's function receives. */
export interface PluginInput {
  /** the project directory (absolute) */
  directory: string;
  /** the git work tree holding it (absolute), or the project directory outside git */
  worktree: string;
  /** the loaded `.opencode.json` (read only) */
  config: Readonly<Record<string, unknown>>;
  /** lines for the logs page (TUI) or stderr with `-p --debug` */
  log: PluginLog;
}

export interface PluginLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a plugin tool's `execute` receives besides its arguments. */
export interface PluginToolContext {
  sessionId: string;
  callId: string;
  /** the project directory (absolute) */
  directory: string;
  /** aborts when the person cancels the run */
  signal: AbortSignal;
  /**
   * Asks the person (or the rules, or `-p`'s policy) for permission; resolves when allowed, rejects
   * when denied (let it propagate: the denial becomes the result the model sees).
   */
  ask(permission: { description: string; params?: Record<string, unknown> }): Promise<void>;
}

/** A tool's result: text for the model, or the text with an error flag and metadata for the UI. */
export type PluginToolResult = string | { output: string; isError?: boolean; metadata?: Record<string, unknown> };

/** A tool a plugin (or a program through the runtime API) adds. */
export interface PluginTool<Args = Record<string, unknown>> {
  /** model-facing: when to use it, when not */
  description: string;
  /** a zod object, or a JSON Schema object (`{ type: 'object', properties, required }`) */
  args: z.ZodType<Args> | Record<string, unknown>;
  execute(args: Args, ctx: PluginToolContext): Promise<PluginToolResult>;
  /** changes nothing: calls of one batch may run side by side (default false) */
  readOnly?: boolean;
  /** output limits (default 30,000 characters, no line limit) */
  maxOutputChars?: number;
  maxOutputLines?: number;
}

/** Identifies one tool call for the hooks. */
export interface ToolCallInfo {
  tool: string;
  sessionId: string;
  callId: string;
  /** the arguments as the model sent them (after coercion) */
  args: Record<string, unknown>;
}

/** The hooks a plugin may declare; each is called on every tool call of every source. */
export interface PluginHooks {
  /** before the tool runs: return `{ args }` to rewrite the arguments, `{ block: reason }` to refuse the call (the model sees the reason); throwing blocks too */
  'tool.execute.before'?(call: ToolCallInfo): Promise<void | { args?: Record<string, unknown>; block?: string }>;
  /** after it ran: return `{ output }` to rewrite what the model sees */
  'tool.execute.after'?(
    call: ToolCallInfo,
    result: { output: string; isError: boolean },
  ): Promise<void | { output?: string }>;
  /** when a tool asks permission: answer `allow` or `deny` in the person's place, or `ask` (or nothing) to let them decide */
  'permission.ask'?(request: {
    tool: string;
    sessionId: string;
    callId: string;
    action: string;
    description: string;
    params: Record<string, unknown>;
  }): Promise<void | 'allow' | 'deny' | 'ask'>;
  /** every event of the bus (`run.started`, `tool.finished`, `message.updated`, …) */
  event?(event: { type: string; properties: unknown }): void | Promise<void>;
}

/** What a plugin's function returns. */
export interface PluginResult {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of every argument shape side by side
  tools?: Record<string, PluginTool<any>>;
  hooks?: PluginHooks;
}

/** A plugin: the default export of its module. */
export type Plugin = (input: PluginInput) => Promise<PluginResult> | PluginResult;

/** Types a plugin function (an identity at run time). */
export function definePlugin(plugin: Plugin): Plugin {
  return plugin;
}

/** Types a tool, inferring `execute`'s arguments from a zod `args` (an identity at run time). */
export function tool<Args>(definition: PluginTool<Args>): PluginTool<Args> {
  return definition;
}

/** zod, the same copy opencode validates with, for authors who have none installed. */
export { z } from 'zod';
