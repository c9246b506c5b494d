/**
 * MCP in the CLI: the `opencode mcp list` sub-command, and how long `-p` waits for MCP servers.
 */
import { resolve } from 'node:path';
import { loadConfigForCommand } from './load-config.js';
import type { McpServerInfo, McpService } from '../mcp/service.js';

/**
 * How long `-p` waits for MCP servers before the first model request, at most. A one-shot prompt needs
 * its tools on that first request, so it waits until every server has connected or failed; the bound keeps
 * a server that never answers from costing its whole 30 s initialize timeout. A server still starting
 * after this joins the run from the next step. Local servers start in 0.3 to 3 s; an `npx` server that
 * must first be downloaded can take longer.
 */
export const PROMPT_MCP_WAIT_MS = 10_000;

/**
 * For `-p`: waits for the servers (at most `maxWaitMs`), then says on stderr, through `write`, which
 * failed and which are still starting (a silent server cost every run its 10 s wait with
 * nothing said). From the call on, every MCP warning of the run is written too, once each: a tool name
 * collision (README "Names and schemas"), a server failing later. Returns the function that stops that.
 */
export async function waitForMcpBeforePrompt(
  mcp: McpService,
  write: (line: string) => void,
  maxWaitMs = PROMPT_MCP_WAIT_MS,
): Promise<() => void> {
  const said = new Set<string>();
  const warn = (message: string) => {
    if (said.has(message)) return;
    said.add(message);
    write(`warning: ${message}`);
  };
  const stop = mcp.events.on('warning', (w) => warn(w.message));
  await mcp.waitForStartup(maxWaitMs);
  const servers = mcp.servers();
  for (const server of servers) {
    if (server.status === 'failed') warn(`MCP server "${server.name}" failed: ${server.error ?? 'unknown reason'}`);
  }
  const starting = servers.filter((s) => s.status === 'connecting').map((s) => `"${s.name}"`);
  if (starting.length > 0) {
    const one = starting.length === 1;
    warn(
      `MCP server${one ? '' : 's'} ${starting.join(', ')} ${one ? 'is' : 'are'} still starting after ${maxWaitMs / 1000} s; ` +
        `the run goes on without ${one ? 'its' : 'their'} tools (they join from the next step if ${one ? 'it connects' : 'they connect'})`,
    );
  }
  return stop;
}

/**
 * `opencode mcp list`: connects to every configured server (waiting up to each one's initialize timeout),
 * prints one block per server, disconnects. Returns the exit code: 0, or 2 for a config error.
 */
export async function runMcpList(opts: { cwd?: string; trust?: boolean }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  // connecting starts a stdio server: an untrusted project's own servers are skipped, as in a session
  const { decideTrust, heldLine } = await import('../app/project-code.js');
  const trust = decideTrust(loaded, cwd, process.env, { trustFlag: opts.trust });
  if (trust.refusal) process.stderr.write(`opencode: ${trust.refusal}\n`);
  if (!trust.trusted) process.stderr.write(`opencode: ${heldLine(trust.items, process.env)}\n`);
  const servers = trust.config.mcpServers;
  if (Object.keys(servers).length === 0) {
    process.stdout.write('No MCP servers configured. Add them under "mcpServers" in .opencode.json (see docs/mcp.md).\n');
    return 0;
  }
  const [{ McpService }, { projectSandbox }] = await Promise.all([import('../mcp/service.js'), import('../sandbox/process.js')]);
  // stdio servers run in the sandbox, as in a session
  const sandbox = projectSandbox(loaded.config.sandbox, cwd);
  // no registry and no log files: this only reports; stderr of the servers stays in memory
  const mcp = new McpService({ servers, cwd, sandbox });
  mcp.start();
  await mcp.waitForStartup();
  process.stdout.write(formatServerList(mcp.servers()));
  await mcp.close();
  await sandbox.close();
  return 0;
}

/**
 * The `mcp list` text: a line per server, `name  type  status`, then its tool names indented, e.g.
 * ```
 * files  stdio  connected, 2 tools
 *   files_read_file
 *   files_write_file
 * broken  stdio  failed: command not found: nope
 * ```
 */
export function formatServerList(servers: readonly McpServerInfo[]): string {
  const lines: string[] = [];
  for (const server of servers) {
    const status =
      server.status === 'connected'
        ? `connected, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`
        : server.status === 'failed'
          ? `failed: ${server.error ?? 'unknown reason'}`
          : server.status;
    lines.push(`${server.name}  ${server.type}  ${status}`);
    if (server.status === 'connected') for (const tool of server.tools) lines.push(`  ${tool}`);
  }
  return `${lines.join('\n')}\n`;
}
