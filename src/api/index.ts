/**
 * The runtime API for programs that embed the agent: `import { createOpencode } from 'opencode'`.
 *
 * It builds the same services as `opencode -p` for one project directory (its `.opencode.json`, its
 * custom tools and plugins, its MCP servers, its session database), and gives the program the
 * registry, the events and `run`. A tool registered while a session runs is offered from the next
 * model call (the agent reads the registry's schemas for every request).
 *
 * @example
 * const opencode = await createOpencode({ directory: process.cwd() });
 * opencode.tools.register({ name: 'deploy_status', description: '…', args: { type: 'object', properties: {} }, execute: async () => 'green' });
 * const answer = await opencode.run('release-check', 'Is the deploy green?');
 * console.log(answer.text);
 * await opencode.close();
 */
import { resolve } from 'node:path';
import { finalText, type RunResult } from '../agent/agent.js';
import type { AgentEvents } from '../agent/events.js';
import type { App } from '../app/app.js';
import { PROMPT_MCP_WAIT_MS } from '../app/mcp-wait.js';
import type { ProjectCodeItem, TrustDecision } from '../app/project-code.js';
import { startApp, StartError } from '../app/start.js';
import type { CustomToolsReport } from '../custom/load.js';
import type { EventBus } from '../events/bus.js';
import type { PluginTool } from '../plugin/api.js';
import { createPluginTool, checkPluginTool } from '../plugin/tool.js';
import type { ToolSource } from '../tools/registry.js';

export type { PluginTool, PluginToolContext, PluginToolResult } from '../plugin/api.js';
export type { AgentEvents } from '../agent/events.js';
export type { ProjectCodeItem } from '../app/project-code.js';
export { tool, definePlugin } from '../plugin/api.js';

/** A tool a program registers: a plugin tool with its name. */
export interface RuntimeTool<Args = Record<string, unknown>> extends PluginTool<Args> {
  name: string;
}

export interface OpencodeOptions {
  /** the project directory (default the current directory) */
  directory?: string;
  /** the coder model as provider/model (default: `.opencode.json`, then the first provider with a credential) */
  model?: string;
  /** provider credentials, HOME and XDG_CONFIG_HOME are read from here (default `process.env`) */
  env?: Record<string, string | undefined>;
  /**
   * What happens when a tool asks permission (nobody is at a terminal): `approve` (as `opencode -p`,
   * the default), `refuse`, or a function that decides. Deny rules of `.opencode.json` hold either way.
   */
  permission?:
    | 'approve'
    | 'refuse'
    | ((request: { tool: string; description: string; params: Record<string, unknown> }) => Promise<'allow' | 'deny'>);
  /**
   * Run the project's own code (its plugins and tool files under `.opencode/`, the MCP and language
   * servers and shell its `.opencode.json` names) even when the person has not trusted the project
   * (`opencode trust`). Default false: an untrusted project's code is skipped and {@link Opencode.heldProjectCode}
   * names it. Ignored inside another opencode's command (`OPENCODE_SANDBOXED=1`).
   */
  trust?: boolean;
}

/** What {@link Opencode.run} resolves with: the run's end, and the answer's text. */
export interface OpencodeRunResult extends RunResult {
  text: string;
}

/** An embedded agent for one project. */
export interface Opencode {
  directory: string;
  tools: {
    /** Adds (or replaces) a tool; `source` defaults to `runtime`, the highest precedence. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of any argument shape
    register(tool: RuntimeTool<any>, options?: { source?: Exclude<ToolSource, 'builtin' | 'mcp'> }): void;
    /** Removes a tool registered through this API (`source` as given to register). */
    unregister(name: string, options?: { source?: Exclude<ToolSource, 'builtin' | 'mcp'> }): void;
    /** The names offered to the model now. */
    names(): string[];
  };
  /** The agent's events: `run.started`, `tool.started`, `message.updated`, `warning`, … */
  events: Pick<EventBus<AgentEvents>, 'on'>;
  /** What loading the project's custom tools gave (failures, warnings, overrides). */
  customTools: CustomToolsReport;
  /** The project's own code that was not started because the project is not trusted (empty when it all runs). */
  heldProjectCode: ProjectCodeItem[];
  /** Runs `prompt` in the session `sessionId` (created on first use); resolves when the run ends. */
  run(sessionId: string, prompt: string, options?: { signal?: AbortSignal }): Promise<OpencodeRunResult>;
  /** Cancels runs still going (their `run` resolves with reason `canceled`), then closes shells, MCP servers, language servers and the database. */
  close(): Promise<void>;
}

/**
 * Builds the agent for `options.directory`.
 * @throws Error naming the problem when `.opencode.json` is invalid, no model can be used (no
 *   credential), or the session database cannot be opened
 */
export async function createOpencode(options: OpencodeOptions = {}): Promise<Opencode> {
  const directory = resolve(options.directory ?? process.cwd());
  const env = options.env ?? process.env;
  // no profile: a program picks its providers through `env` and `model`, not OPENCODE_PROFILE
  const start = startApp({
    cwd: directory,
    env,
    model: options.model,
    profile: false,
    trust: options.trust,
    generateTitles: false,
  });
  let app: App;
  let trust: TrustDecision;
  try {
    [app, trust] = await Promise.all([start.app(), start.trust()]);
  } catch (err) {
    // the program gets the error the step met: ConfigError, ModelSelectionError, the storage's own
    throw err instanceof StartError && err.cause instanceof Error ? err.cause : err;
  }
  const permission = options.permission ?? 'approve';
  if (typeof permission === 'function') {
    app.permission.onRequest((request) => {
      permission({ tool: request.toolName, description: request.description, params: request.params })
        .then((answer) => app.permission.respond(request.id, answer === 'allow' ? 'allow' : 'deny'))
        .catch(() => app.permission.respond(request.id, 'deny'));
    });
  } else {
    app.permission.setUnattended({ autoApprove: permission === 'approve' });
  }
  const customTools = await start.customTools();
  await app.mcp.waitForStartup(PROMPT_MCP_WAIT_MS);
  return {
    directory,
    tools: {
      register(tool, registerOptions = {}) {
        const problems = checkPluginTool(tool?.name ?? '', tool);
        if (typeof tool?.name !== 'string' || tool.name === '') problems.unshift('name: missing');
        if (problems.length > 0)
          throw new Error(`cannot register the tool ${tool?.name ?? '(unnamed)'}: ${problems.join('; ')}`);
        app.tools.register(createPluginTool(tool.name, tool), registerOptions.source ?? 'runtime', 'createOpencode');
      },
      unregister(name, registerOptions = {}) {
        app.tools.unregister(name, registerOptions.source ?? 'runtime');
      },
      names: () => app.tools.list().map((t) => t.name),
    },
    events: { on: (type, handler) => app.bus.on(type, handler) },
    customTools,
    heldProjectCode: trust.trusted ? [] : trust.items,
    async run(sessionId, prompt, runOptions = {}) {
      if (!app.db.sessions.get(sessionId))
        app.db.sessions.create({ id: sessionId, title: prompt.trim().replace(/\s+/g, ' ').slice(0, 100) || 'Session' });
      const result = await app.coder.run(sessionId, prompt, { signal: runOptions.signal });
      return { ...result, text: finalText(result) };
    },
    async close() {
      // runs still going are cancelled: a tool that never settles must not hold close() (the agent
      // stops waiting for a call once its run is cancelled)
      app.cancelAll();
      await app.close();
    },
  };
}
