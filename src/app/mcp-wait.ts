/**
 * How a front end with nobody at a terminal (`-p`, the runtime API, `opencode acp`'s prompts) waits for
 * the MCP servers before a model request that needs their tools.
 */
import type { McpService } from '../mcp/service.js';

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
