/**
 * All configured MCP servers of one app: connects them in the background, keeps the tool registry in step
 * with their tool lists, and reports their status for the TUI and `opencode mcp list`.
 *
 * Nothing here blocks the app: `start()` returns at once; a server that fails is `failed` with a reason
 * and the others carry on. Tools are registered with source `mcp` under names from names.ts; collisions
 * are resolved over all servers at once, so the names do not depend on which server answered first.
 */
import path from 'node:path';
import type { McpServerConfig } from '../config/schema.js';
import type { Sandbox } from '../sandbox/types.js';
import { EventBus } from '../events/bus.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import { McpLog, type McpLogLine } from './log.js';
import { assignToolNames, toolKey } from './names.js';
import { McpServer, type McpServerStatus } from './server.js';
import { createMcpTool } from './tool.js';

/** One server as the UI shows it. */
export interface McpServerInfo {
  name: string;
  type: McpServerConfig['type'];
  status: McpServerStatus;
  /** why it failed, one line */
  error?: string;
  /** full names of the tools it offers now (as the model sees them), sorted */
  tools: string[];
}

/** Events of the MCP service. */
export interface McpEvents {
  /** a server's status or tool list changed */
  'server.updated': McpServerInfo;
  /** a tool name collision, a server that failed */
  warning: { server?: string; message: string };
}

export interface McpServiceOptions {
  /** the config's `mcpServers` */
  servers: Record<string, McpServerConfig>;
  /** the project directory (stdio servers run there) */
  cwd: string;
  /** where tools are registered (source `mcp`); none for a status-only use such as `mcp list` */
  registry?: ToolRegistry;
  /** directory for `mcp-<name>.log` files; logs stay in memory when absent */
  logDir?: string;
  /** overrides every server's initialize timeout (tests) */
  initializeTimeoutMs?: number;
  /** environment stdio servers inherit (default `process.env`) */
  env?: Record<string, string | undefined>;
  /** the project's OS sandbox: stdio servers run in it (see {@link McpServerOptions.sandbox}) */
  sandbox?: Sandbox;
}

export class McpService {
  readonly events = new EventBus<McpEvents>();
  private readonly byName = new Map<string, McpServer>();
  /** full name → tool, as registered now */
  private registered = new Map<string, RegisteredTool>();
  private readonly warned = new Set<string>();
  private started = false;

  constructor(private readonly opts: McpServiceOptions) {
    for (const [name, config] of Object.entries(opts.servers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      this.byName.set(name, this.createServer(name, config));
    }
  }

  /**
   * Joins more servers to the configured ones (`opencode acp`: the editor's servers of a session); once
   * started, they connect at once. A name already present is skipped, and returned, so the caller can say so.
   */
  add(servers: Record<string, McpServerConfig>): string[] {
    const skipped: string[] = [];
    for (const [name, config] of Object.entries(servers)) {
      if (this.byName.has(name)) {
        skipped.push(name);
        continue;
      }
      const server = this.createServer(name, config);
      this.byName.set(name, server);
      if (this.started) void server.connect();
    }
    return skipped;
  }

  private createServer(name: string, config: McpServerConfig): McpServer {
    const { opts } = this;
    const server: McpServer = new McpServer({
      name,
      config,
      cwd: opts.cwd,
      log: new McpLog(
        opts.logDir && !config.disabled
          ? path.join(opts.logDir, `mcp-${name.replace(/[^a-zA-Z0-9_-]/g, '_')}.log`)
          : undefined,
      ),
      initializeTimeoutMs: opts.initializeTimeoutMs,
      env: opts.env,
      sandbox: opts.sandbox,
      onChange: () => this.changed(server),
    });
    return server;
  }

  /** Connects every enabled server in the background. Returns at once; calling it again does nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const server of this.byName.values()) void server.connect();
  }

  /** Every configured server, by name. */
  servers(): McpServerInfo[] {
    return [...this.byName.values()].map((s) => this.info(s));
  }

  /** The server and original tool name behind a registered full name (for the UI). */
  toolSource(fullName: string): { server: string; tool: string } | undefined {
    const entry = this.registered.get(fullName);
    return entry && { server: entry.server, tool: entry.original };
  }

  /** The in-memory log of a server (its stderr and our notes), oldest first. */
  logLines(name: string): McpLogLine[] {
    return this.byName.get(name)?.log.lines() ?? [];
  }

  /**
   * Resolves when no server is connecting any more, or after `maxWaitMs`, whichever comes first.
   * Without a bound it waits at most for the slowest initialize timeout.
   */
  async waitForStartup(maxWaitMs = Number.POSITIVE_INFINITY): Promise<void> {
    const all = Promise.all([...this.byName.values()].map((s) => s.settled()));
    if (!Number.isFinite(maxWaitMs)) {
      await all;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
    clearTimeout(timer);
  }

  /**
   * Disconnects and forgets the named servers (`opencode acp`: an editor's servers once no session
   * needs them): their tools leave the registry, stdio processes are stopped. Unknown names are ignored.
   */
  async remove(names: readonly string[]): Promise<void> {
    const servers = names.flatMap((name) => this.byName.get(name) ?? []);
    for (const server of servers) this.byName.delete(server.name);
    this.syncRegistry();
    await Promise.all(servers.map((s) => s.close()));
  }

  /** Disconnects every server (stdio processes stopped) and removes their tools. */
  async close(): Promise<void> {
    const servers = [...this.byName.values()];
    await Promise.all(servers.map((s) => s.close()));
    for (const name of this.registered.keys()) this.opts.registry?.unregister(name, 'mcp');
    this.registered.clear();
  }

  private changed(server: McpServer): void {
    this.syncRegistry();
    const info = this.info(server);
    if (info.status === 'failed' && info.error)
      this.warnOnce(`MCP server "${server.name}" failed: ${info.error}`, server.name);
    this.events.emit('server.updated', info);
  }

  /** Registers the tools of every server that offers them and unregisters the rest. */
  private syncRegistry(): void {
    const offering = [...this.byName.values()].filter((s) => s.offersTools);
    const keys = offering.flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t.name })));
    const { names, warnings } = assignToolNames(keys);
    for (const warning of warnings) this.warnOnce(warning);

    const next = new Map<string, RegisteredTool>();
    for (const server of offering) {
      for (const info of server.tools) {
        const name = names.get(toolKey(server.name, info.name))!;
        const fingerprint = JSON.stringify([info.description, info.inputSchema, info.annotations]);
        const previous = this.registered.get(name);
        // an unchanged tool keeps its object, so the registry sees no churn on a refresh
        const same =
          previous?.server === server.name && previous.original === info.name && previous.fingerprint === fingerprint;
        next.set(
          name,
          same
            ? previous
            : { tool: createMcpTool(server, info, name), server: server.name, original: info.name, fingerprint },
        );
      }
    }
    for (const name of this.registered.keys()) if (!next.has(name)) this.opts.registry?.unregister(name, 'mcp');
    for (const [name, entry] of next)
      if (this.registered.get(name) !== entry) this.opts.registry?.register(entry.tool, 'mcp');
    this.registered = next;
  }

  private info(server: McpServer): McpServerInfo {
    const tools = [...this.registered]
      .filter(([, e]) => e.server === server.name)
      .map(([name]) => name)
      .sort();
    const info: McpServerInfo = { name: server.name, type: server.type, status: server.status, tools };
    if (server.error) info.error = server.error;
    return info;
  }

  private warnOnce(message: string, server?: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    if (server) this.byName.get(server)?.log.info(message);
    this.events.emit('warning', server ? { server, message } : { message });
  }
}

interface RegisteredTool {
  tool: Tool;
  server: string;
  /** the tool's name on its server */
  original: string;
  /** description, schema and annotations as listed, to tell a changed tool from an unchanged one */
  fingerprint: string;
}
