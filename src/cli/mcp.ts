/**
 * MCP in the CLI: the `opencode mcp list` sub-command.
 */
import { resolve } from 'node:path';
import { decideTrustForCommand } from './command-trust.js';
import { loadConfigForCommand } from './load-config.js';
import type { McpServerInfo } from '../mcp/service.js';

/**
 * `opencode mcp list`: connects to every configured server (waiting up to each one's initialize timeout),
 * prints one block per server, disconnects. Returns the exit code: 0, or 2 for a config error.
 */
export async function runMcpList(opts: { cwd?: string; trust?: boolean }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  // connecting starts a stdio server: an untrusted project's own servers are skipped, as in a session
  const trust = await decideTrustForCommand(loaded, cwd, opts.trust);
  const servers = trust.config.mcpServers;
  if (Object.keys(servers).length === 0) {
    process.stdout.write(
      'No MCP servers configured. Add them under "mcpServers" in .opencode.json (see docs/mcp.md).\n',
    );
    return 0;
  }
  const [{ McpService }, { projectSandbox }] = await Promise.all([
    import('../mcp/service.js'),
    import('../sandbox/process.js'),
  ]);
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
