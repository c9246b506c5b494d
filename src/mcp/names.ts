/**
 * Names of MCP tools as the model sees them: `<server>_<tool>` (the original's scheme),
 * made safe for every provider. Pure functions.
 *
 * Providers accept tool names matching `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's function-name rule; Anthropic's
 * is the same or looser), so other characters become `_` and a longer name is cut and given a stable
 * 8-character hash of the full original name, which keeps two long names with a common prefix apart.
 */
import { createHash } from 'node:crypto';

/** The longest tool name every supported provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_LENGTH = 8;

/** One MCP tool to name: the server's config name and the tool's own name. */
export interface McpToolKey {
  server: string;
  tool: string;
}

/** The result of {@link assignToolNames}. */
export interface ToolNameAssignment {
  /** full name per tool, keyed by {@link toolKey} */
  names: Map<string, string>;
  /** one line per collision that was resolved */
  warnings: string[];
}

/** A stable short hash: the first 8 hex digits of the SHA-256 of `text`. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The provider-safe name of a tool, e.g. `github_create_issue`; `my.server` + `read file` →
 * `my_server_read_file`. Names over 64 characters keep their first 55 and end in `_<hash>`.
 */
export function sanitizeToolName(server: string, tool: string): string {
  const full = `${server}_${tool}`;
  const safe = full.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe.length <= MAX_TOOL_NAME_LENGTH ? safe : withHash(safe, full);
}

/** The map key of one tool in {@link ToolNameAssignment.names}. */
export function toolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/**
 * Names every tool of every server. When two tools map to the same name (`a.b`+`c` and `a_b`+`c` both give
 * `a_b_c`), the first in (server, tool) order keeps it and each other gets a hash suffix of its own
 * original names, so the outcome does not depend on which server connected first.
 */
export function assignToolNames(tools: readonly McpToolKey[]): ToolNameAssignment {
  const sorted = [...tools].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
  const names = new Map<string, string>();
  const warnings: string[] = [];
  const taken = new Map<string, McpToolKey>();
  for (const key of sorted) {
    const wanted = sanitizeToolName(key.server, key.tool);
    let name = wanted;
    for (let attempt = 0; taken.has(name); attempt++) {
      name = withHash(wanted, `${toolKey(key.server, key.tool)}${attempt === 0 ? '' : `#${attempt}`}`);
    }
    if (name !== wanted) {
      const owner = taken.get(wanted)!;
      warnings.push(
        `MCP tool "${key.tool}" of server "${key.server}" and tool "${owner.tool}" of server "${owner.server}" ` +
          `both map to "${wanted}"; the first is named "${name}"`,
      );
    }
    taken.set(name, key);
    names.set(toolKey(key.server, key.tool), name);
  }
  return { names, warnings };
}

function withHash(name: string, hashed: string): string {
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${shortHash(hashed)}`;
}

// code-unit order, independent of the locale
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
