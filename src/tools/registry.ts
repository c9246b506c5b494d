/**
 * The one registry of tools offered to the model, whatever their source.
 *
 * When two sources give a tool of the same name, the higher one wins:
 * runtime (registered by a program embedding the agent) over project custom tools (files and plugins)
 * over user custom tools over MCP tools over built-in tools. Every entry keeps where it came from (a
 * file, a plugin, a server) so an override can be named, and `"tools": { "<name>": false }` in
 * `.opencode.json` turns a name off whatever its source.
 *
 * The registry also carries the tool-call hooks of plugins: it is what every call path (the coder, the
 * task sub-agent, the runtime API) already shares, so the hooks reach every call without a second
 * channel through the agent.
 */
import { untilAborted } from '../abort.js';
import type { ToolSchema } from '../provider/types.js';
import type { PermissionAsk } from '../permission/types.js';
import { ToolError, type Tool, type ToolContext, type ToolResult } from './tool.js';

/** Tool names the providers accept (Anthropic and OpenAI: letters, digits, `_` and `-`, at most 64). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Where a tool came from, lowest precedence first. */
export type ToolSource = 'builtin' | 'mcp' | 'user' | 'project' | 'runtime';

/** Sources from lowest to highest precedence. */
export const TOOL_SOURCES: readonly ToolSource[] = ['builtin', 'mcp', 'user', 'project', 'runtime'];

const precedence: Record<ToolSource, number> = { builtin: 0, mcp: 1, user: 2, project: 3, runtime: 4 };

/** How a source is named in messages: `the built-in grep`, `project tool grep`. */
export const SOURCE_LABEL: Record<ToolSource, string> = {
  builtin: 'built-in',
  mcp: 'MCP',
  user: 'user',
  project: 'project',
  runtime: 'runtime',
};

/** One registration of a tool. */
export interface ToolEntry {
  tool: Tool;
  source: ToolSource;
  /** the file or plugin that defined it (relative to the project when inside it), e.g. `.opencode/tools/grep.yaml` */
  origin?: string;
}

/**
 * Hooks run on every tool call (plugins' `tool.execute.before` / `after`, `permission.ask`).
 * Implemented in `src/plugin/hooks.ts`; the registry only carries them.
 */
export interface ToolCallHooks {
  /**
   * May rewrite the arguments (JSON text) or block the call with a reason the model sees. `blocked`: the call is refused with that text; `hookFailed` when a hook threw (an `error` in the call log, not a refusal)
   */
  before(call: {
    sessionId: string;
    callId: string;
    tool: string;
    args: unknown;
  }): Promise<{ args: unknown } | { blocked: string; hookFailed?: boolean }>;
  /** may rewrite the output */
  after(
    call: { sessionId: string; callId: string; tool: string; args: unknown },
    result: { output: string; isError: boolean },
  ): Promise<string>;
  /** may answer a permission request before the person is asked */
  permission(request: {
    sessionId: string;
    callId: string;
    tool: string;
    action: string;
    description: string;
    params: Record<string, unknown>;
  }): Promise<'allow' | 'deny' | 'ask'>;
}

/** Whether the registration `entry` of the tool `name` is offered to (and may be run by) `sessionId`. */
export type SessionToolFilter = (entry: ToolEntry, name: string, sessionId: string) => boolean;

export class ToolRegistry {
  private readonly entries = new Map<string, ToolEntry[]>();
  private readonly disabled = new Set<string>();
  private readonly changeListeners = new Set<() => void>();
  /** plugins' hooks; undefined when no plugin declares any */
  hooks: ToolCallHooks | undefined;
  private sessionFilter: SessionToolFilter | undefined;

  /** Calls `listener` after every register / unregister (e.g. to name a new override); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }

  /** Adds a tool. A tool of the same name and source replaces the earlier one. */
  register(tool: Tool, source: ToolSource = 'builtin', origin?: string): void {
    const list = (this.entries.get(tool.name) ?? []).filter((e) => e.source !== source);
    list.push(origin === undefined ? { tool, source } : { tool, source, origin });
    list.sort((a, b) => precedence[b.source] - precedence[a.source]);
    this.entries.set(tool.name, list);
    this.changed();
  }

  /** Removes the tool `name` of `source` (e.g. when an MCP server goes away). */
  unregister(name: string, source: ToolSource): void {
    const list = (this.entries.get(name) ?? []).filter((e) => e.source !== source);
    if (list.length) this.entries.set(name, list);
    else this.entries.delete(name);
    this.changed();
  }

  /** Turns names off (`"tools": { "<name>": false }`): they are neither offered nor run, whatever their source. */
  disable(names: Iterable<string>): void {
    for (const name of names) this.disabled.add(name);
  }

  /** Whether `name` was turned off by {@link disable}. */
  isDisabled(name: string): boolean {
    return this.disabled.has(name);
  }

  /** The winning tool of that name, if any (none when the name is disabled). */
  get(name: string): Tool | undefined {
    if (this.disabled.has(name)) return undefined;
    return this.entries.get(name)?.[0]?.tool;
  }

  /** The winning entry of that name, with its source and origin. */
  entry(name: string): ToolEntry | undefined {
    if (this.disabled.has(name)) return undefined;
    return this.entries.get(name)?.[0];
  }

  /** Every registration of `name`, winner first (disabled names included, for listings). */
  all(name: string): readonly ToolEntry[] {
    return this.entries.get(name) ?? [];
  }

  /** Every registered name, sorted (disabled names included). */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** The winning tools, sorted by name (a stable order keeps the provider's prompt cache warm). */
  list(): Tool[] {
    return this.names()
      .filter((name) => !this.disabled.has(name))
      .map((name) => this.entries.get(name)![0]!.tool);
  }

  /** A registry holding only the named tools (e.g. the task agent's read-only set), with the same hooks. */
  subset(names: readonly string[]): ToolRegistry {
    const sub = new ToolRegistry();
    for (const name of names) {
      for (const e of this.entries.get(name) ?? []) sub.register(e.tool, e.source, e.origin);
    }
    sub.disable(this.disabled);
    // the sub-agent's calls go through the same plugins' hooks; read at call time, plugins load later
    Object.defineProperty(sub, 'hooks', { get: () => this.hooks, set: () => {}, enumerable: true });
    return sub;
  }

  /**
   * Decides which registrations a session is offered (`opencode acp`: an editor's MCP servers only to
   * the sessions that passed them); `undefined` removes it. Without one every session gets every tool.
   */
  setSessionFilter(filter: SessionToolFilter | undefined): void {
    this.sessionFilter = filter;
  }

  /**
   * The registry as `sessionId` sees it: this one when no session filter is set, else a copy holding
   * the registrations the filter lets through (a name whose winner is filtered out falls back to the
   * next source), with the same disabled names and hooks. Built afresh per call: take one per step.
   */
  forSession(sessionId: string): ToolRegistry {
    const filter = this.sessionFilter;
    if (!filter) return this;
    const view = new ToolRegistry();
    for (const [name, entries] of this.entries) {
      for (const e of entries) if (filter(e, name, sessionId)) view.register(e.tool, e.source, e.origin);
    }
    view.disable(this.disabled);
    Object.defineProperty(view, 'hooks', { get: () => this.hooks, set: () => {}, enumerable: true });
    return view;
  }

  /** The schemas to send to the provider. */
  schemas(): ToolSchema[] {
    return this.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  }
}

/**
 * One line per name where a higher source shadows a lower one, e.g.
 * `project tool grep (.opencode/tools/grep.yaml) overrides the built-in grep`. Disabled names have none.
 */
export function overrideWarnings(registry: ToolRegistry): string[] {
  const lines: string[] = [];
  for (const name of registry.names()) {
    if (registry.isDisabled(name)) continue;
    const [winner, ...shadowed] = registry.all(name);
    if (!winner || shadowed.length === 0) continue;
    for (const lower of shadowed)
      lines.push(`${describeEntry(winner, name)} overrides ${describeShadowed(lower, name)}`);
  }
  return lines;
}

/** `project tool grep (.opencode/tools/grep.yaml)` */
export function describeEntry(entry: ToolEntry, name: string): string {
  const origin = entry.origin ? ` (${entry.origin})` : '';
  return entry.source === 'builtin' ? `the built-in ${name}` : `${SOURCE_LABEL[entry.source]} tool ${name}${origin}`;
}

/** `the built-in grep`, `the user tool grep (~/.config/opencode/tools/grep.yaml)` */
export function describeShadowed(entry: ToolEntry, name: string): string {
  return entry.source === 'builtin' ? `the built-in ${name}` : `the ${describeEntry(entry, name)}`;
}

/**
 * The `params` of permission requests a plugin's `permission.ask` allowed: whoever answers the
 * person's requests (`custom/start.ts`) answers these `allow` without showing them. A request that
 * reaches no such answerer is asked as usual.
 */
export const PLUGIN_APPROVED = new WeakSet<object>();

/**
 * Runs `tool` with the plugins' hooks around it: `before` may rewrite the arguments or
 * block the call (an error result with the reason), the tool's permission requests go to
 * `permission` first (`deny` → an error result the model sees; `allow` → the request still goes to
 * the permission service, so `deny` rules hold, marked {@link PLUGIN_APPROVED} so that the app answers
 * it in the person's place), and `after` may rewrite the output. Without hooks this is `tool.run(input, ctx)`.
 * `input` is the parsed arguments, already checked against the tool's schema. The hooks see a copy of
 * them: a hook changes what the tool gets by returning new arguments, not by changing the ones it is given.
 */
export async function runWithHooks(
  tool: Tool,
  input: unknown,
  ctx: ToolContext,
  hooks: ToolCallHooks | undefined,
): Promise<ToolResult> {
  if (!hooks) return tool.run(input, ctx);
  const call = { sessionId: ctx.sessionId, callId: ctx.toolCallId, tool: tool.name, args: structuredClone(input) };
  // a hook that never settles must not outlive esc
  const before = await untilAborted(hooks.before(call), ctx.signal);
  // a plugin's refusal is a policy's, as a permission rule's is: `permission` in the call log
  if ('blocked' in before)
    return {
      output: before.blocked,
      isError: true,
      metadata: { blockedByPlugin: true },
      ...(before.hookFailed ? {} : { outcome: 'permission' as const }),
    };
  // a plugin's arguments reach the tool as JSON carries them, as the model's would
  const rewritten = before.args === call.args ? input : jsonValue(before.args);
  call.args = before.args;
  const askPermission: PermissionAsk = async (request, subject) => {
    const answer = await untilAborted(
      hooks.permission({
        sessionId: ctx.sessionId,
        callId: ctx.toolCallId,
        tool: tool.name,
        action: request.action,
        description: request.description,
        params: request.params,
      }),
      ctx.signal,
    );
    if (answer === 'allow') {
      // the service keeps `params` by reference in the request it shows: the mark travels with it
      const params = { ...request.params };
      PLUGIN_APPROVED.add(params);
      return ctx.askPermission({ ...request, params }, subject);
    }
    if (answer === 'deny') throw new ToolError(`Permission denied by a plugin: ${request.description}`);
    return ctx.askPermission(request, subject);
  };
  const result = await tool.run(rewritten, { ...ctx, askPermission });
  const output = await untilAborted(hooks.after(call, { output: result.output, isError: result.isError }), ctx.signal);
  return output === result.output ? result : { ...result, output };
}

/** `value` as a JSON round trip leaves it: no functions or `undefined` members, dates as strings; `{}` for nothing. */
function jsonValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? {} : (JSON.parse(text) as unknown);
}
