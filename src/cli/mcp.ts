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

/** For `-p`: waits for the servers (bounded) and reports each one that failed as a warning on stderr. */
export async function waitForMcpBeforePrompt(mcp: McpService, write: (line: string) => void): Promise<void> {
  await mcp.waitForStartup(PROMPT_MCP_WAIT_MS);
  for (const server of mcp.servers()) {
    if (server.status === 'failed') write(`warning: MCP server "${server.name}" failed: ${server.error ?? 'unknown reason'}`);
  }
}

/**
 * `opencode mcp list`: connects to every configured server (waiting up to each one's initialize timeout),
 * prints one block per server, disconnects. Returns the exit code: 0, or 2 for a config error.
 */
export async function runMcpList(opts: { cwd?: string }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const servers = loaded.config.mcpServers;
  if (Object.keys(servers).length === 0) {
    process.stdout.write('No MCP servers configured. Add them under "mcpServers" in .opencode.json (see the README).\n');
    return 0;
  }
  const { McpService } = await import('../mcp/service.js');
  // no registry and no log files: this only reports; stderr of the servers stays in memory
  const mcp = new McpService({ servers, cwd });
  mcp.start();
  await mcp.waitForStartup();
  process.stdout.write(formatServerList(mcp.servers()));
  await mcp.close();
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
