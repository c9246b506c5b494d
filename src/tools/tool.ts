/**
 * The tool kernel: what every tool needs, so each tool file holds only its own logic.
 *
 * `defineTool` validates the model's input with a zod schema (an invalid input becomes a result the
 * model can act on), catches exceptions into error results, turns a permission denial into the
 * result the agent loop recognises, and cuts output to a character limit.
 */
import { z } from 'zod';
import type { ToolSchema } from '../provider/types.js';
import { PermissionDeniedError, PermissionRuleError } from '../permission/errors.js';
import type { GateVerdict, ToolAsks } from '../permission/gate.js';
import type { PermissionAsk } from '../permission/types.js';
import type { SandboxLevel } from '../sandbox/types.js';
import type { FileTimes } from './file-times.js';
import type { FileHistory } from './file-history.js';
import { ToolError } from './tool-error.js';

/** What a tool returns. `output` goes to the model; `metadata` is for the UI only. */
export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
  /** images for the model (base64), e.g. from an MCP tool */
  images?: { mimeType: string; data: string }[];
  /** set by the kernel when the person denied permission: the agent ends the turn */
  permissionDenied?: boolean;
  /**
   * How the call ended, when the tool knows better than {@link outcomeOf} can tell: the kernel sets
   * `validation` for input it rejected; a tool that kills a process on its timeout sets `timeout`.
   */
  outcome?: ToolOutcome;
  /** set when the output was cut to the tool's limit (the kernel's, or the tool's own) */
  truncated?: boolean;
}

/** How a tool call ended, as the call log records it. */
export type ToolOutcome = 'ok' | 'error' | 'validation' | 'permission' | 'timeout' | 'canceled';

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

/** A persistent shell for one session (bash tool). Implemented in `tools/shell.ts`. */
export interface ShellRunner {
  /** Runs `command`; resolves when it ends, times out or `signal` aborts. Never rejects for a failing command. */
  exec(
    command: string,
    options: {
      timeoutMs: number;
      signal?: AbortSignal;
      onOutput?: (chunk: string) => void;
      /** how the command is contained when the shell has a sandbox (`strict` when not given) */
      sandbox?: SandboxLevel;
    },
  ): Promise<{
    stdout: string;
    stderr: string;
    exitCode: number | null;
    interrupted: boolean;
    timedOut: boolean;
    /** the command ran inside the OS sandbox */
    sandboxed?: boolean;
  }>;
  /** the shell's current directory after the last command */
  readonly cwd: string;
  close(): void;
}

/** Services and identity a tool call runs with. */
export interface ToolContext {
  sessionId: string;
  /** the assistant message that holds the call */
  messageId: string;
  toolCallId: string;
  /** the project directory (absolute) */
  cwd: string;
  signal: AbortSignal;
  /** ask the person; resolves when allowed, throws {@link PermissionDeniedError} when denied */
  askPermission: PermissionAsk;
  /**
   * The permission gate for this call's tool, before it runs (permission/gate.ts): given how the tool
   * asks itself, run it, ask once first, or refuse it; `description` says what the call would do, for
   * reports of a refusal. Omitted: the tool's own requests are the only check.
   */
  permissionGate?: (asks: ToolAsks | undefined, description: string) => GateVerdict;
  fileTimes: FileTimes;
  fileHistory: FileHistory;
  /** the session's persistent shell */
  shell: () => ShellRunner;
  /** report live progress to the UI (e.g. bash output so far) */
  onProgress?: (text: string) => void;
  /** extra services for tools added by later layers (agent tool, LSP) */
  extra?: Record<string, unknown>;
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
  /** `input` is the raw JSON text the model sent */
  run(input: string, ctx: ToolContext): Promise<ToolResult>;
}

// defined in tool-error.ts: the TUI's file picker (glob-pattern.ts) throws it without loading zod
export { ToolError };

/** Default cap on a tool's output, in characters (the original's bash limit, reference §1.1). */
export const MAX_OUTPUT_CHARS = 30_000;

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
 * Never rejects: invalid JSON, schema errors, thrown errors and denials all become results.
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
    async run(rawInput, ctx) {
      let json: unknown;
      try {
        json = rawInput.trim() === '' ? {} : JSON.parse(rawInput);
      } catch (err) {
        return invalidInput(
          `The input of ${def.name} is not valid JSON (${(err as Error).message}). Send the parameters as a JSON object.`,
        );
      }
      const parsed = def.parameters.safeParse(json);
      if (!parsed.success) return invalidInput(describeInvalidInput(def.name, parsed.error, json));
      const nul = findNulByte(parsed.data);
      // a NUL can't be in a path, a pattern or a command; Node would say "The argument 'args[7]' must be a string without null bytes"
      if (nul !== undefined) return invalidInput(`${nul} contains a NUL byte (\\0): paths, patterns, commands and text files can't hold one. Remove it and try again.`);
      try {
        const out = await def.run(parsed.data, ctx);
        const result: ToolResult = typeof out === 'string' ? { output: out, isError: false } : out;
        if (result.output.length <= maxChars) return result;
        return { ...result, output: truncateMiddle(result.output, maxChars), truncated: true };
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
  if (err instanceof Error && err.name === 'AbortError') {
    return { output: 'Tool execution canceled by user', isError: true };
  }
  const errno = err as NodeJS.ErrnoException;
  if (errno?.code === 'ELOOP') {
    return { output: `Too many levels of symbolic links at ${errno.path ?? 'the path'} (a symbolic link loop)`, isError: true };
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

/**
 * Cuts `text` to at most about `maxChars` characters, keeping the head and the tail around a marker
 * that says how many lines were left out (the original's bash truncation, reference §1.1).
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  const head = text.slice(0, half);
  const tail = text.slice(text.length - half);
  const omitted = text.slice(half, text.length - half);
  const omittedLines = omitted.split('\n').length;
  return `${head}\n\n... [${omittedLines} lines truncated] ...\n\n${tail}`;
}
