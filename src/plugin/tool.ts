/**
 * A plugin's or a program's tool ({@link PluginTool}) as a {@link Tool} of the registry: its `args`
 * (zod or JSON Schema) become the input schema, a zod schema also validates, `execute` gets the
 * plugin context, and the output is cut to its limits like every custom tool's. A
 * cancelled call (esc, the runtime API's `close()`) returns at once even when `execute` ignores its
 * `signal` and never settles: the run must not wait on a promise nobody can end.
 */
import { z } from 'zod';
import { abortError } from '../abort.js';
import { TOOL_NAME_PATTERN } from '../tools/registry.js';
import {
  describeInvalidInput,
  errorResult,
  resultFromError,
  toInputSchema,
  type Tool,
  type ToolResult,
} from '../tools/tool.js';
import { truncateOutput } from '../tools/truncate.js';
import type { PluginTool } from './api.js';

/** Whether `value` is a zod schema (checked by shape: the author's zod may be another copy than ours). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function' &&
    '_zod' in value
  );
}

/**
 * Checks a tool definition; returns one line per problem (empty when fine), e.g.
 * `tools.hello.execute: missing (a function (args, ctx) => output)`.
 */
export function checkPluginTool(name: string, def: unknown): string[] {
  const problems: string[] = [];
  if (!TOOL_NAME_PATTERN.test(name))
    problems.push(`tools.${name}: a name may hold only letters, digits, _ and - (at most 64)`);
  if (typeof def !== 'object' || def === null)
    return [...problems, `tools.${name}: expected { description, args, execute }`];
  const d = def as Record<string, unknown>;
  if (typeof d.description !== 'string' || d.description.trim() === '')
    problems.push(`tools.${name}.description: missing`);
  if (typeof d.execute !== 'function')
    problems.push(`tools.${name}.execute: missing (a function (args, ctx) => output)`);
  if (d.args !== undefined && !isZodSchema(d.args) && (typeof d.args !== 'object' || d.args === null)) {
    problems.push(`tools.${name}.args: expected a zod object or a JSON Schema object`);
  } else if (d.args !== undefined && !isZodSchema(d.args)) {
    try {
      JSON.stringify(d.args);
    } catch (err) {
      problems.push(
        `tools.${name}.args: a JSON Schema must be plain JSON (${(err as Error).message.split('\n')[0]}); remove the cycle or the BigInt`,
      );
    }
  }
  return problems;
}

/** Builds the registry's tool. Its `run` never rejects. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of any argument shape
export function createPluginTool(name: string, def: PluginTool<any>): Tool {
  const zod = isZodSchema(def.args) ? def.args : undefined;
  const inputSchema = zod ? toInputSchema(zod) : jsonSchemaOf(def.args);
  return {
    name,
    description: def.description.trim(),
    inputSchema,
    readOnly: def.readOnly ?? false,
    async run(input, ctx): Promise<ToolResult> {
      let args: unknown = input;
      if (zod) {
        const parsed = zod.safeParse(input);
        if (!parsed.success) return errorResult(describeInvalidInput(name, parsed.error as z.ZodError, input));
        args = parsed.data;
      }
      try {
        ctx.signal.throwIfAborted();
        const out = await untilAborted(
          def.execute(args as Record<string, unknown>, {
            sessionId: ctx.sessionId,
            callId: ctx.toolCallId,
            directory: ctx.cwd,
            signal: ctx.signal,
            ask: async (permission) => {
              await ctx.askPermission({
                action: 'execute',
                description: permission.description,
                params: permission.params ?? {},
                path: ctx.cwd,
              });
            },
          }),
          ctx.signal,
        );
        const result =
          typeof out === 'string'
            ? { output: out, isError: false }
            : { output: String(out?.output ?? ''), isError: out?.isError === true, metadata: out?.metadata };
        const cut = truncateOutput(result.output, 'note', def);
        return { ...result, output: cut.text, ...(cut.truncated ? { truncated: true } : {}) };
      } catch (err) {
        return resultFromError(err);
      }
    },
  };
}

/**
 * The input schema of JSON Schema `args`: a copy made through JSON, so the schema offered is the one loaded
 * whatever the plugin later does to its own object (the providers keep a tool list's request bytes while
 * its schema objects are the same ones: provider/body-encoding.ts `ToolListBytes`).
 */
function jsonSchemaOf(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null) return { type: 'object', properties: {} };
  const schema = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  // a bare map of properties is accepted too: { city: { type: 'string' } }
  if (schema.type === undefined && schema.properties === undefined) return { type: 'object', properties: schema };
  delete schema.$schema;
  return schema;
}

/** `value` awaited, or an AbortError as soon as `signal` aborts (what `execute` does later is ignored). */
function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(value)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
