/**
 * The one registry of tools offered to the model, whatever their source.
 *
 * When two sources give a tool of the same name, the higher one wins:
 * project custom tools over user custom tools over MCP tools over built-in tools.
 */
import type { ToolSchema } from '../provider/types.js';
import type { Tool } from './tool.js';

/** Where a tool came from, lowest precedence first. */
export type ToolSource = 'builtin' | 'mcp' | 'user' | 'project';

const precedence: Record<ToolSource, number> = { builtin: 0, mcp: 1, user: 2, project: 3 };

export class ToolRegistry {
  private readonly entries = new Map<string, { tool: Tool; source: ToolSource }[]>();

  /** Adds a tool. A tool of the same name and source replaces the earlier one. */
  register(tool: Tool, source: ToolSource = 'builtin'): void {
    const list = (this.entries.get(tool.name) ?? []).filter((e) => e.source !== source);
    list.push({ tool, source });
    list.sort((a, b) => precedence[b.source] - precedence[a.source]);
    this.entries.set(tool.name, list);
  }

  /** Removes the tool `name` of `source` (e.g. when an MCP server goes away). */
  unregister(name: string, source: ToolSource): void {
    const list = (this.entries.get(name) ?? []).filter((e) => e.source !== source);
    if (list.length) this.entries.set(name, list);
    else this.entries.delete(name);
  }

  /** The winning tool of that name, if any. */
  get(name: string): Tool | undefined {
    return this.entries.get(name)?.[0]?.tool;
  }

  /** The winning tools, sorted by name (a stable order keeps the provider's prompt cache warm). */
  list(): Tool[] {
    return [...this.entries.keys()].sort().map((name) => this.entries.get(name)![0]!.tool);
  }

  /** A registry holding only the named tools (e.g. the task agent's read-only set). */
  subset(names: readonly string[]): ToolRegistry {
    const sub = new ToolRegistry();
    for (const name of names) {
      for (const e of this.entries.get(name) ?? []) sub.register(e.tool, e.source);
    }
    return sub;
  }

  /** The schemas to send to the provider. */
  schemas(): ToolSchema[] {
    return this.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  }
}
