/**
 * A minimal real ToolContext for the read-only tools: real FileTimes, no file history, permission
 * always granted, and a shell that throws (read-only tools must never need one).
 */
import { FileTimes } from '../../src/tools/file-times.js';
import { noFileHistory } from '../../src/tools/file-history.js';
import type { Tool, ToolContext, ToolResult } from '../../src/tools/tool.js';

/** A context rooted at `cwd`; pass `signal` to test cancellation. */
export function toolContext(cwd: string, options: { signal?: AbortSignal; fileTimes?: FileTimes } = {}): ToolContext {
  return {
    sessionId: 'session-1',
    messageId: 'message-1',
    toolCallId: 'call-1',
    cwd,
    signal: options.signal ?? new AbortController().signal,
    askPermission: async () => {},
    fileTimes: options.fileTimes ?? new FileTimes(),
    fileHistory: noFileHistory,
    shell: () => {
      throw new Error('read-only tools must not use the shell');
    },
  };
}

/** Runs `tool` with `input` sent as the JSON the model would send. */
export function runTool(tool: Tool, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  return tool.run(input, ctx);
}
