/**
 * Runs one assistant message's batch of tool calls and returns exactly one result per call, in call
 * order (the APIs reject a conversation where a call has no result).
 *
 * Fixes over the original (reference §2.2): unknown tools, thrown tools and denials are error results
 * the model can act on; after a denial the rest of the batch is not run; consecutive read-only calls
 * run concurrently.
 */
import type { ToolCallPart, ToolResultPart } from '../message.js';
import type { ToolRegistry } from '../tools/registry.js';
import { resultFromError, type ToolContext, type ToolResult } from '../tools/tool.js';

export const CANCELED_RESULT = 'Tool execution canceled by user';
export const SKIPPED_AFTER_DENIAL = 'Tool execution canceled by user: an earlier tool call in this batch was denied permission';

/** What the batch produced. */
export interface BatchOutcome {
  results: ToolResultPart[];
  permissionDenied: boolean;
  canceled: boolean;
}

export interface BatchOptions {
  calls: ToolCallPart[];
  registry: ToolRegistry;
  signal: AbortSignal;
  /** builds the context of one call */
  contextFor: (call: ToolCallPart) => ToolContext;
  onStart?: (call: ToolCallPart) => void;
  onFinish?: (call: ToolCallPart, result: ToolResultPart) => void;
}

/** Runs the batch. Never rejects. */
export async function runToolCalls(opts: BatchOptions): Promise<BatchOutcome> {
  const { calls, registry, signal } = opts;
  const results = new Array<ToolResultPart | undefined>(calls.length);
  let permissionDenied = false;

  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    if (signal.aborted) {
      results[index] = toPart(call, { output: CANCELED_RESULT, isError: true });
      return;
    }
    opts.onStart?.(call);
    const result = await execute(call, registry, opts.contextFor(call));
    if (result.permissionDenied) permissionDenied = true;
    const part = toPart(call, result);
    results[index] = part;
    opts.onFinish?.(call, part);
  };

  let i = 0;
  while (i < calls.length) {
    if (permissionDenied) {
      for (; i < calls.length; i++) results[i] = toPart(calls[i]!, { output: SKIPPED_AFTER_DENIAL, isError: true });
      break;
    }
    // a run of consecutive read-only calls goes concurrently; anything else alone, in order
    let j = i;
    while (j < calls.length && registry.get(calls[j]!.name)?.readOnly) j++;
    if (j > i + 1) {
      await Promise.all(Array.from({ length: j - i }, (_, k) => runOne(i + k)));
      i = j;
    } else {
      await runOne(i);
      i++;
    }
  }
  return {
    results: results.map((r, k) => r ?? toPart(calls[k]!, { output: CANCELED_RESULT, isError: true })),
    permissionDenied,
    canceled: signal.aborted,
  };
}

async function execute(call: ToolCallPart, registry: ToolRegistry, ctx: ToolContext): Promise<ToolResult> {
  const tool = registry.get(call.name);
  if (!tool) {
    const names = registry.list().map((t) => t.name).join(', ');
    return { output: `Tool not found: ${call.name}. Available tools: ${names}`, isError: true };
  }
  try {
    return await tool.run(call.input, ctx);
  } catch (err) {
    // the kernel catches everything; a tool from elsewhere (MCP, custom) might not
    return resultFromError(err);
  }
}

function toPart(call: ToolCallPart, result: ToolResult): ToolResultPart {
  const part: ToolResultPart = {
    type: 'tool_result',
    toolCallId: call.id,
    name: call.name,
    content: result.output,
    isError: result.isError,
  };
  if (result.metadata) part.metadata = result.metadata;
  if (result.images?.length) part.images = result.images;
  return part;
}
