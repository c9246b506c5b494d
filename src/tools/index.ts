/**
 * The built-in tools, one line each (the original's set). A new tool is one file and one line here.
 */
import { ToolRegistry } from './registry.js';
import { agentTool } from './agent.js';
import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { fetchTool } from './fetch.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { patchTool } from './patch.js';
import { sourcegraphTool } from './sourcegraph.js';
import { viewTool } from './view.js';
import { writeTool } from './write.js';

/** A registry holding every built-in tool. */
export function builtinTools(): ToolRegistry {
  const registry = new ToolRegistry();
  const BUILTIN_TOOLS = [
    agentTool,
    bashTool,
    editTool,
    fetchTool,
    globTool,
    grepTool,
    lsTool,
    patchTool,
    sourcegraphTool,
    viewTool,
    writeTool,
  ];
  for (const tool of BUILTIN_TOOLS) {
    registry.register(tool, 'builtin');
  }
  return registry;
}

/** The read-only tools of the `task` sub-agent (as the original's). */
export const TASK_TOOL_NAMES = ['glob', 'grep', 'ls', 'sourcegraph', 'view'] as const;
