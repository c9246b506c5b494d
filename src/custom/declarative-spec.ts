/**
 * The declarative tool file format: `.opencode/tools/*.{json,yaml,yml}` holding one tool
 * or a list of tools. This module only reads and checks; `declarative-tool.ts` runs them.
 *
 * Every problem is one line naming its place, `parameters.service.type: missing`; the loader puts the
 * file in front. An error skips that tool (the others of the file still load); a warning (a parameter
 * the model would have to guess: no `type` or no `description`; a timeout above the maximum) keeps it.
 */
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TOOL_NAME_PATTERN } from '../tools/registry.js';

/** Default and largest timeout of a declarative tool, in ms (the bash tool's: 1 min, 10 min). */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const MAX_TIMEOUT_MS = 600_000;

export { TOOL_NAME_PATTERN };

/** A checked declarative tool. */
export interface DeclarativeToolSpec {
  name: string;
  description: string;
  /** JSON Schema object: `{ type: 'object', properties, required }` */
  parameters: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] };
  /** argv with `{{param}}` placeholders; exactly one of `command` and `script` */
  command?: string[];
  /** absolute path of the script (the file gives it relative to itself) */
  script?: string;
  /** as written; relative paths are relative to the project root (the default) */
  cwd?: string;
  /** values may hold `${VAR}`, taken from our environment at call time */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputChars?: number;
  maxOutputLines?: number;
  readOnly: boolean;
  outputFormat: 'text' | 'json';
  /** what the sandbox lets the program do beyond its defaults (no network, writes in the project only); absent: nothing more */
  sandbox?: { network: boolean; allowWrite: string[] };
}

/** What one file gave: the tools that passed, and one line per problem. */
export interface ParsedToolFile {
  tools: DeclarativeToolSpec[];
  errors: string[];
  warnings: string[];
}

const KNOWN_KEYS = new Set([
  'name',
  'description',
  'parameters',
  'command',
  'script',
  'cwd',
  'env',
  'timeout',
  'maxOutputChars',
  'maxOutputLines',
  'readOnly',
  'outputFormat',
  'sandbox',
]);
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

/**
 * Parses a tool file's text. `file` is the file's absolute path (scripts are relative to its folder);
 * `ext` picks the syntax (`json`, or YAML for `yaml`/`yml`). Never throws.
 */
export function parseToolFile(text: string, file: string, ext: string): ParsedToolFile {
  let raw: unknown;
  try {
    raw = ext === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    // yaml ends its first line with ':' before a code excerpt; the excerpt is left out
    const message = (err as Error).message.split('\n')[0]!.replace(/:$/, '');
    return { tools: [], errors: [`not valid ${ext === 'json' ? 'JSON' : 'YAML'}: ${message}`], warnings: [] };
  }
  const items = Array.isArray(raw) ? raw : [raw];
  const out: ParsedToolFile = { tools: [], errors: [], warnings: [] };
  items.forEach((item, index) => {
    // a list names each problem by its tool (or position); a single tool needs no prefix
    const prefix = Array.isArray(raw) ? `${nameOf(item) ?? `[${index}]`}: ` : '';
    const checked = checkTool(item, file);
    // one line per tool that failed: everything wrong with it, so one fix-and-retry is enough
    if (checked.errors.length > 0) out.errors.push(prefix + checked.errors.join('; '));
    out.warnings.push(...checked.warnings.map((w) => prefix + w));
    if (checked.tool && checked.errors.length === 0) out.tools.push(checked.tool);
  });
  return out;
}

function nameOf(item: unknown): string | undefined {
  return isObject(item) && typeof item.name === 'string' ? item.name : undefined;
}

function checkTool(item: unknown, file: string): { tool?: DeclarativeToolSpec; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!isObject(item))
    return {
      errors: ['expected a tool (an object with name, description, parameters and command or script)'],
      warnings,
    };
  for (const key of Object.keys(item)) if (!KNOWN_KEYS.has(key)) warnings.push(`${key}: unknown key (ignored)`);

  const name = item.name;
  if (typeof name !== 'string' || name === '') errors.push('name: missing');
  else if (!TOOL_NAME_PATTERN.test(name))
    errors.push(`name: "${name}" may hold only letters, digits, _ and - (at most 64)`);
  const description = item.description;
  if (typeof description !== 'string' || description.trim() === '')
    errors.push('description: missing (say when to use the tool and when not)');

  const parameters = checkParameters(item.parameters, errors, warnings);

  let command: string[] | undefined;
  let script: string | undefined;
  if (item.command !== undefined && item.script !== undefined)
    errors.push('command, script: give one of them, not both');
  else if (item.command !== undefined) {
    if (
      !Array.isArray(item.command) ||
      item.command.length === 0 ||
      !item.command.every((a) => typeof a === 'string' || typeof a === 'number')
    ) {
      errors.push(
        'command: expected an argv array of strings, e.g. ["git", "log", "-n", "{{count}}"] (never a shell string)',
      );
    } else {
      command = item.command.map(String);
      command.forEach((arg, i) => {
        for (const m of arg.matchAll(PLACEHOLDER)) {
          if (parameters && !(m[1]! in parameters.properties))
            errors.push(`command[${i}]: {{${m[1]}}} is not a parameter`);
        }
      });
      if (/\{\{\s*\}\}/.test(command[0]!) || PLACEHOLDER.test(command[0]!))
        errors.push('command[0]: the program must be fixed, not a placeholder');
      PLACEHOLDER.lastIndex = 0;
    }
  } else if (item.script !== undefined) {
    if (typeof item.script !== 'string' || item.script === '')
      errors.push('script: expected a path relative to the tool file');
    else script = resolve(dirname(file), item.script);
  } else errors.push('command: missing (give command as an argv array, or script as a path)');

  const cwd = optional(item, 'cwd', 'string', errors) as string | undefined;
  const env: Record<string, string> = {};
  if (item.env !== undefined) {
    if (!isObject(item.env)) errors.push('env: expected an object of NAME: value');
    else
      for (const [k, v] of Object.entries(item.env)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') env[k] = String(v);
        else errors.push(`env.${k}: expected a string`);
      }
  }
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  const timeout = optional(item, 'timeout', 'number', errors) as number | undefined;
  if (timeout !== undefined) {
    if (!(timeout > 0)) errors.push('timeout: expected a positive number of milliseconds');
    else if (timeout > MAX_TIMEOUT_MS) {
      warnings.push(`timeout: ${timeout} ms is above the maximum; ${MAX_TIMEOUT_MS} ms (10 min) is used`);
      timeoutMs = MAX_TIMEOUT_MS;
    } else timeoutMs = timeout;
  }
  const maxOutputChars = positiveInt(item, 'maxOutputChars', errors);
  const maxOutputLines = positiveInt(item, 'maxOutputLines', errors);
  const readOnly = (optional(item, 'readOnly', 'boolean', errors) as boolean | undefined) ?? false;
  const outputFormat = item.outputFormat ?? 'text';
  if (outputFormat !== 'text' && outputFormat !== 'json') errors.push('outputFormat: expected "text" or "json"');
  const sandbox = checkSandbox(item.sandbox, errors);

  if (errors.length > 0 || !parameters) return { errors, warnings };
  return {
    tool: {
      name: name as string,
      description: (description as string).trim(),
      parameters,
      ...(command ? { command } : {}),
      ...(script ? { script } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      env,
      timeoutMs,
      ...(maxOutputChars !== undefined ? { maxOutputChars } : {}),
      ...(maxOutputLines !== undefined ? { maxOutputLines } : {}),
      readOnly,
      outputFormat: outputFormat as 'text' | 'json',
      ...(item.sandbox !== undefined ? { sandbox } : {}),
    },
    errors,
    warnings,
  };
}

/** `sandbox: { network?: boolean, allowWrite?: string[] }`, as in the config's MCP and language-server entries. */
function checkSandbox(value: unknown, errors: string[]): DeclarativeToolSpec['sandbox'] {
  const out = { network: false, allowWrite: [] as string[] };
  if (value === undefined) return out;
  if (!isObject(value)) {
    errors.push('sandbox: expected an object such as { "network": true, "allowWrite": ["~/.cache/tool"] }');
    return out;
  }
  for (const key of Object.keys(value))
    if (key !== 'network' && key !== 'allowWrite')
      errors.push(`sandbox.${key}: unknown key (expected network or allowWrite)`);
  if (value.network !== undefined) {
    if (typeof value.network !== 'boolean')
      errors.push(`sandbox.network: expected true or false, got ${JSON.stringify(value.network)}`);
    else out.network = value.network;
  }
  if (value.allowWrite !== undefined) {
    if (!Array.isArray(value.allowWrite) || !value.allowWrite.every((p) => typeof p === 'string' && p !== '')) {
      errors.push('sandbox.allowWrite: expected a list of paths (absolute, "~/…", or relative to the project)');
    } else out.allowWrite = value.allowWrite as string[];
  }
  return out;
}

function checkParameters(
  value: unknown,
  errors: string[],
  warnings: string[],
): DeclarativeToolSpec['parameters'] | undefined {
  if (value === undefined) return { type: 'object', properties: {}, required: [] };
  if (!isObject(value)) {
    errors.push('parameters: expected a JSON Schema object ({ type: object, properties, required })');
    return undefined;
  }
  if (value.type !== undefined && value.type !== 'object')
    errors.push(`parameters.type: expected "object", got ${JSON.stringify(value.type)}`);
  const properties: Record<string, Record<string, unknown>> = {};
  if (value.properties !== undefined && !isObject(value.properties))
    errors.push('parameters.properties: expected an object of name → schema');
  for (const [key, schema] of Object.entries(isObject(value.properties) ? value.properties : {})) {
    if (!isObject(schema)) {
      errors.push(`parameters.${key}: expected a schema object with type and description`);
      continue;
    }
    // the model guesses what it is not told: a warning, not an error
    if (schema.type === undefined) warnings.push(`parameters.${key}.type: missing`);
    if (typeof schema.description !== 'string' || schema.description.trim() === '')
      warnings.push(`parameters.${key}.description: missing`);
    properties[key] = schema;
  }
  let required: string[] = [];
  if (value.required !== undefined) {
    if (!Array.isArray(value.required) || !value.required.every((r) => typeof r === 'string'))
      errors.push('parameters.required: expected a list of parameter names');
    else {
      required = value.required as string[];
      for (const r of required) if (!(r in properties)) errors.push(`parameters.required: "${r}" is not a parameter`);
    }
  }
  return { type: 'object', properties, required };
}

function optional(
  item: Record<string, unknown>,
  key: string,
  type: 'string' | 'number' | 'boolean',
  errors: string[],
): unknown {
  const value = item[key];
  if (value === undefined) return undefined;
  if (typeof value !== type) {
    errors.push(`${key}: expected a ${type}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

function positiveInt(item: Record<string, unknown>, key: string, errors: string[]): number | undefined {
  const value = optional(item, key, 'number', errors) as number | undefined;
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    errors.push(`${key}: expected a positive whole number`);
    return undefined;
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
