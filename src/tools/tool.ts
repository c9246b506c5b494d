/**
 * The tool kernel: what every tool needs, so each tool file holds only its own logic.
 *
 * `defineTool` validates the model's input with a zod schema (an invalid input becomes a result the
 * model can act on), catches exceptions into error results, turns a permission denial into the
 * result the agent loop recognises, and cuts output to a character limit.
 */
import { z } from 'zod';
import { isAbortError } from '../abort.js';
import { PermissionDeniedError, PermissionRuleError } from '../permission/errors.js';
import type { ToolAsks } from '../permission/gate.js';
import type { ToolContext, ToolOutcome, ToolResult } from './context.js';
import { ToolError } from './tool-error.js';
import { MAX_OUTPUT_CHARS, truncateOutput } from './truncate.js';

export type {
  ChangeTracker,
  FileAccess,
  ShellRunner,
  SubAgentAnswer,
  SubAgentRunner,
  ToolContext,
  ToolHostServices,
  ToolOutcome,
  ToolResult,
} from './context.js';

/**
 * The outcome of a finished call: the result's own {@link ToolResult.outcome} if set (the kernel sets
 * `validation`, and `permission` for a rule's refusal); else `permission` for the person's denial, `ok` for a success, `canceled` for an error while the run was aborted (`aborted`),
 * `timeout` for bash's timed-out command (its `metadata.timed_out`), and `error` for the rest.
 */
export function outcomeOf(result: ToolResult, aborted: boolean): ToolOutcome {
  if (result.outcome) return result.outcome;
  if (result.permissionDenied) return 'permission';
  if (!result.isError) return 'ok';
  if (aborted) return 'canceled';
  if (result.metadata?.timed_out === true) return 'timeout';
  return 'error';
}

/** A tool as the registry holds it, whatever its source. */
export interface Tool {
  name: string;
  /** model-facing text: when to use it and when not */
  description: string;
  /** JSON Schema of the input (object) */
  inputSchema: Record<string, unknown>;
  /** read-only tools change nothing on disk: calls of one batch may run concurrently (fetch still asks permission) */
  readOnly: boolean;
  /**
   * How the tool asks for permission itself before it changes anything (see `ToolAsks`): `subject` with
   * what it touches, `call` for every call as a whole; omitted when it may never ask. The gate in the
   * execution path asks on its behalf only then.
   */
  asks?: ToolAsks;
  /**
   * Runs one call. `input` is the arguments the model sent, already parsed from its JSON text and
   * checked and coerced against {@link inputSchema} by the one execution path (`agent/tool-calls.ts`,
   * `tools/coerce.ts`): usually an object, though a schema that allows more lets more through.
   */
  run(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

// defined in tool-error.ts: the TUI's file picker (glob-pattern.ts) throws it without loading zod
export { ToolError };

export { MAX_OUTPUT_CHARS };

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  readOnly?: boolean;
  /** how the tool asks for permission itself: see {@link Tool.asks} */
  asks?: ToolAsks;
  /** output cap in characters; default {@link MAX_OUTPUT_CHARS} */
  maxOutputChars?: number;
  /** return a string (success) or a full result; throw {@link ToolError} for an error result */
  run(input: z.infer<S>, ctx: ToolContext): Promise<string | ToolResult>;
}

/**
 * Builds a {@link Tool} from a zod schema and a run function.
 * Never rejects: schema errors, thrown errors and denials all become results.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool {
  const inputSchema = toInputSchema(def.parameters);
  const maxChars = def.maxOutputChars ?? MAX_OUTPUT_CHARS;
  return {
    name: def.name,
    description: def.description,
    inputSchema,
    readOnly: def.readOnly ?? false,
    ...(def.asks ? { asks: def.asks } : {}),
    async run(input, ctx) {
      // zod applies what the JSON Schema the execution path checked cannot say: defaults, refinements, types of its own
      const parsed = def.parameters.safeParse(input);
      if (!parsed.success) return invalidInput(describeInvalidInput(def.name, parsed.error, input));
      const nul = findNulByte(parsed.data);
      // a NUL can't be in a path, a pattern or a command; Node would say "The argument 'args[7]' must be a string without null bytes"
      if (nul !== undefined)
        return invalidInput(
          `${nul} contains a NUL byte (\\0): paths, patterns, commands and text files can't hold one. Remove it and try again.`,
        );
      try {
        const out = await def.run(parsed.data, ctx);
        const result: ToolResult = typeof out === 'string' ? { output: out, isError: false } : out;
        const cut = truncateOutput(result.output, 'marker', { maxOutputChars: maxChars });
        return cut.truncated ? { ...result, output: cut.text, truncated: true } : result;
      } catch (err) {
        return resultFromError(err);
      }
    },
  };
}

/** Converts an exception thrown inside a tool to a result. */
export function resultFromError(err: unknown): ToolResult {
  if (err instanceof PermissionDeniedError) {
    return { output: err.message, isError: true, permissionDenied: true };
  }
  // a rule's refusal: the turn goes on, the log says `permission`
  if (err instanceof PermissionRuleError) {
    return { output: err.message, isError: true, metadata: err.metadata, outcome: 'permission' };
  }
  if (err instanceof ToolError) return { output: err.message, isError: true, metadata: err.metadata };
  if (isAbortError(err)) {
    return { output: 'Tool execution canceled by user', isError: true };
  }
  const errno = err as NodeJS.ErrnoException;
  if (errno?.code === 'ELOOP') {
    return {
      output: `Too many levels of symbolic links at ${errno.path ?? 'the path'} (a symbolic link loop)`,
      isError: true,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { output: `Error: ${message}`, isError: true };
}

export function errorResult(output: string, metadata?: Record<string, unknown>): ToolResult {
  return { output, isError: true, metadata };
}

/** An error result for input the tool rejected before running (outcome `validation` in the call log). */
export function invalidInput(output: string): ToolResult {
  return { output, isError: true, outcome: 'validation' };
}

/** The JSON Schema sent to providers for a zod schema: an object with `properties` and `required`. */
export function toInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  delete json.additionalProperties;
  return stripSafeIntegerBounds(json) as Record<string, unknown>;
}

/** zod 4 gives every `.int()` ±Number.MAX_SAFE_INTEGER bounds: noise that costs prompt characters. */
function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}

/** Turns a zod error into one line per problem that tells the model what to send. */
export function describeInvalidInput(toolName: string, error: z.ZodError, input: unknown): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.join('.') || '(input)';
    const sent = valueAt(input, issue.path);
    if (issue.code === 'invalid_type' && sent === undefined) return `${path} is required`;
    if (issue.code === 'invalid_type') {
      return `${path} must be ${article(issue.expected)} ${issue.expected}; you sent ${JSON.stringify(sent)}`;
    }
    if (issue.code === 'unrecognized_keys') return `unknown parameter(s): ${issue.keys.join(', ')}`;
    return `${path}: ${issue.message}`;
  });
  return `Invalid input for ${toolName}: ${lines.join('; ')}`;
}

/** The name (`file_path`, `edits.0.old_string`) of the first string in `input` holding a NUL byte. */
export function findNulByte(input: unknown, path = ''): string | undefined {
  if (typeof input === 'string') return input.includes('\0') ? path || '(input)' : undefined;
  if (input === null || typeof input !== 'object') return undefined;
  for (const [key, value] of Object.entries(input)) {
    const found = findNulByte(value, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
