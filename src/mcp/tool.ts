/**
 * An MCP server's tool as a {@link Tool} of our registry: named `<server>_<tool>`
 * (see names.ts), described by the server, with its input schema cleaned for the providers (schema.ts).
 *
 * Every call asks permission as the original did: action `execute`, the description
 * `execute <full name> with the following parameters: <json>`, the arguments as params, the project
 * directory as path; the permission service keys rules and grants by the full tool name. A denial ends
 * the turn like any built-in tool's (the original let the loop continue; our kernel treats every denial
 * alike, tools/tool.ts).
 */
import { errorResult, resultFromError, type Tool, type ToolResult } from '../tools/tool.js';
import { toToolResult } from './result.js';
import { cleanInputSchema } from './schema.js';
import { McpCallError, type McpServer, type McpToolInfo } from './server.js';

/** Builds the registry entry for `tool` of `server`, offered to the model as `name`. */
export function createMcpTool(server: McpServer, tool: McpToolInfo, name: string): Tool {
  const source = { server: server.name, tool: tool.name };
  return {
    name,
    description: tool.description?.trim() || `The tool "${tool.name}" of the MCP server "${server.name}".`,
    inputSchema: cleanInputSchema(tool.inputSchema),
    // the server's hint only lets calls of one batch run side by side; permission is asked regardless
    readOnly: tool.annotations?.readOnlyHint === true,
    // every call asks as a whole (below) before the server is called
    asks: 'call',
    async run(input, ctx): Promise<ToolResult> {
      // a server's schema without `type: object` lets other JSON through; MCP's arguments are an object
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        return errorResult(
          `The input of ${name} must be a JSON object of parameters; you sent ${String(JSON.stringify(input)).slice(0, 100)}`,
        );
      }
      const args = input as Record<string, unknown>;
      try {
        await ctx.askPermission({
          action: 'execute',
          description: `execute ${name} with the following parameters: ${JSON.stringify(args)}`,
          params: args,
          path: ctx.cwd,
        });
        const result = await server.callTool(tool.name, args, { signal: ctx.signal });
        return toToolResult(result, source);
      } catch (err) {
        if (err instanceof McpCallError)
          return errorResult(err.message, { mcpServer: server.name, mcpTool: tool.name });
        return resultFromError(err);
      }
    },
  };
}
