/**
 * Runs one assistant message's batch of tool calls and returns exactly one result per call, in call
 * order (the APIs reject a conversation where a call has no result).
 *
 * Fixes over the original: unknown tools, thrown tools and denials are error results
 * the model can act on; after a denial the rest of the batch is not run; consecutive read-only calls
 * run concurrently.
 *
 * This is the one path every call of every source goes through, so it is where the arguments are
 * parsed from the model's JSON text once and coerced to the tool's schema (tools/coerce.ts), and the
 * tool receives the parsed value; it is also where the permission gate applies the
 * rules keyed by the tool's name before the tool runs (permission/gate.ts), and where each call is
 * written to the call log as it finishes.
 */
import type { ToolCallPart, ToolResultPart } from '../message.js';
import { changeTrackerFor } from '../tools/change-tracker.js';
import { prepareToolInput } from '../tools/coerce.js';
import { runWithHooks, type ToolRegistry } from '../tools/registry.js';
import type { ToolCallRow } from '../db/index.js';
import { PermissionRuleError } from '../permission/errors.js';
import type { PermissionAsk, PermissionGrant } from '../permission/types.js';
import { outcomeOf, resultFromError, type Tool, type ToolContext, type ToolResult } from '../tools/tool.js';
import { redactSecrets, redactSecretsDeep } from '../tools/redact.js';

export const CANCELED_RESULT = 'Tool execution canceled by user';
export const SKIPPED_AFTER_DENIAL =
  'Tool execution canceled by user: an earlier tool call in this batch was denied permission';

/** What the batch produced. */
export interface BatchOutcome {
  results: ToolResultPart[];
  permissionDenied: boolean;
  canceled: boolean;
  /**
   * With {@link BatchOptions.holdLastFinish}, when every call ran: the last call's log record and
   * `onFinish`, not yet made. The caller runs it (in its next transaction) before it awaits anything.
   */
  heldFinish?: () => void;
}

export interface BatchOptions {
  calls: ToolCallPart[];
  registry: ToolRegistry;
  signal: AbortSignal;
  /** builds the context of one call */
  contextFor: (call: ToolCallPart) => ToolContext;
  onStart?: (call: ToolCallPart) => void;
  onFinish?: (call: ToolCallPart, result: ToolResultPart) => void;
  /** the call log: one record per call, written as it finishes (db's `ToolCallLog`); omitted → not logged */
  log?: ToolCallRecorder;
  /** runs a call's log record and `onFinish` so their writes commit together (the store's `batch`) */
  transaction?: <T>(fn: () => T) => T;
  /**
   * The last call to finish (when every call ran) does not write: its record and `onFinish` are handed
   * back as {@link BatchOutcome.heldFinish}, for the caller to commit with the writes it makes next,
   * at the same moment (one commit less per step). Nothing runs between the two but the
   * promise continuations that return the outcome: no I/O, timer or other event can come first.
   */
  holdLastFinish?: boolean;
}

/** One finished tool call, as the call log stores it: the db's row, so the two never drift. */
export type ToolCallRecord = ToolCallRow;

/** Where finished calls are written. `record` may throw (a full disk): the batch carries on without it. */
export interface ToolCallRecorder {
  record(call: ToolCallRecord): void;
}

/** Runs the batch. Never rejects. */
export async function runToolCalls(opts: BatchOptions): Promise<BatchOutcome> {
  const { calls, registry, signal } = opts;
  const results = new Array<ToolResultPart | undefined>(calls.length);
  let permissionDenied = false;
  let ran = 0;
  let heldFinish: (() => void) | undefined;

  // a call that never ran (canceled before it started, skipped after a denial) is logged too: the model made it
  const notRun = (call: ToolCallPart, output: string): ToolResultPart => {
    record(
      opts,
      call,
      opts.contextFor(call),
      { result: { output, isError: true }, source: sourceOf(registry, call.name), coerced: false },
      Date.now(),
      true,
    );
    return toPart(call, { output, isError: true });
  };

  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    if (signal.aborted) {
      results[index] = notRun(call, CANCELED_RESULT);
      return;
    }
    opts.onStart?.(call);
    const ctx = opts.contextFor(call);
    const startedAt = Date.now();
    const executed = await execute(call, registry, ctx);
    const result = executed.result;
    if (result.permissionDenied) permissionDenied = true;
    const part = toPart(call, result);
    results[index] = part;
    const finished = () => {
      record(opts, call, ctx, executed, startedAt, signal.aborted);
      opts.onFinish?.(call, part);
    };
    if (++ran === calls.length && opts.holdLastFinish) heldFinish = finished;
    else if (opts.transaction) opts.transaction(finished);
    else finished();
  };

  let i = 0;
  while (i < calls.length) {
    if (permissionDenied) {
      for (; i < calls.length; i++) results[i] = notRun(calls[i]!, SKIPPED_AFTER_DENIAL);
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
    ...(heldFinish ? { heldFinish } : {}),
  };
}

/** What running one call gave, with what the log needs to know of it. */
interface Executed {
  result: ToolResult;
  source: string;
  coerced: boolean;
}

async function execute(call: ToolCallPart, registry: ToolRegistry, ctx: ToolContext): Promise<Executed> {
  const tool = registry.get(call.name);
  if (!tool) {
    const names = registry
      .list()
      .map((t) => t.name)
      .join(', ');
    return {
      result: { output: `Tool not found: ${call.name}. Available tools: ${names}`, isError: true },
      source: 'unknown',
      coerced: false,
    };
  }
  const source = sourceOf(registry, call.name);
  // one check for every source: the kernel's zod schema, an MCP server's or a custom tool's JSON Schema
  const prepared = prepareToolInput(call.name, tool.inputSchema, call.input);
  if (!prepared.ok)
    return { result: { output: prepared.message, isError: true, outcome: 'validation' }, source, coerced: false };
  const coerced = prepared.coercions.length > 0;
  // the gate: a rule that names the tool holds before it runs, whether or not the tool asks itself
  const gate = ctx.permissionGate?.(tool.asks, gateDescription(tool.name, prepared.input)) ?? {
    action: 'run' as const,
  };
  if (gate.action === 'deny')
    return { result: resultFromError(new PermissionRuleError(gate.message)), source, coerced };
  const gated = gate.action === 'ask' ? askedFirst(tool, prepared.value, prepared.input) : tool;
  try {
    // plugins' hooks run after the coercion, around permission and the run
    const run = (c: ToolContext) => runWithHooks(gated, prepared.value, c, registry.hooks);
    // a program-running tool runs between two snapshots, so undo can put back what it changed
    const tracker = changeTrackerFor(ctx, tool, source);
    return { result: await (tracker ? tracker.around(tool.name, ctx, run) : run(ctx)), source, coerced };
  } catch (err) {
    // the kernel catches everything; a tool from elsewhere (MCP, custom) might not
    return { result: resultFromError(err), source, coerced };
  }
}

/**
 * `tool` asking permission for the call as a whole before it runs (an `ask` rule for a tool not known to
 * ask itself). The request goes through the context it runs with, so plugins' `permission.ask` hooks
 * answer it too. The tool's own requests in that call are then answered with the same grant when they
 * have no subject (asked once, not twice), and judged as usual when they name one (a refinement).
 * `input` and `inputText` are the call's arguments and their JSON text, as the model sent them (coerced).
 */
function askedFirst(tool: Tool, input: unknown, inputText: string): Tool {
  return {
    ...tool,
    async run(runInput, ctx) {
      let grant: PermissionGrant | void;
      try {
        grant = await ctx.askPermission({
          action: 'execute',
          // a plugin's hook may have rewritten the arguments: the person is asked about what will run
          description: gateDescription(tool.name, runInput === input ? inputText : JSON.stringify(runInput)),
          params: paramsOf(runInput),
          path: ctx.cwd,
        });
        ctx.signal.throwIfAborted();
      } catch (err) {
        return resultFromError(err);
      }
      const askPermission: PermissionAsk = async (request, subject) =>
        subject ? ctx.askPermission(request, subject) : grant;
      return tool.run(runInput, { ...ctx, askPermission });
    },
  };
}

/** What a call the gate asks about (or refuses) would do, as the dialog and reports say it: MCP's wording. */
function gateDescription(name: string, input: string): string {
  return `execute ${name} with the following parameters: ${input}`;
}

/** The call's arguments as the dialog's params (the input already passed the tool's schema: an object). */
function paramsOf(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };
}

function sourceOf(registry: ToolRegistry, name: string): string {
  return registry.entry(name)?.source ?? 'unknown';
}

function record(
  opts: BatchOptions,
  call: ToolCallPart,
  ctx: ToolContext,
  executed: Executed,
  startedAt: number,
  aborted: boolean,
): void {
  if (!opts.log) return;
  const { result } = executed;
  try {
    opts.log.record({
      sessionId: ctx.sessionId,
      messageId: ctx.messageId,
      toolCallId: call.id,
      tool: call.name,
      source: executed.source,
      startedAt,
      durationMs: Math.max(0, Date.now() - startedAt),
      outcome: outcomeOf(result, aborted),
      coerced: executed.coerced,
      inputChars: call.input.length,
      outputChars: result.output.length,
      truncated: result.truncated === true,
    });
  } catch {
    // the log is for the periodic review; a failed write (a locked or full disk) must not fail the call
  }
}

function toPart(call: ToolCallPart, result: ToolResult): ToolResultPart {
  const part: ToolResultPart = {
    type: 'tool_result',
    toolCallId: call.id,
    name: call.name,
    // every result of every source passes here before it is stored or sent: keys we hold never do
    content: redactSecrets(result.output),
    isError: result.isError,
  };
  if (result.metadata) part.metadata = redactSecretsDeep(result.metadata); // stored too (view's holds the file)
  if (result.images?.length) part.images = result.images;
  return part;
}
