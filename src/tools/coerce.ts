/**
 * Arguments the model gets wrong: before any tool runs, whatever its source (built-in,
 * MCP, custom), its arguments are checked against its JSON Schema (`Tool.inputSchema`) and coerced
 * where the intent is clear. Pure: no I/O, the input is never mutated.
 *
 * The coercions, one row per rule with an example, are {@link COERCIONS}. What cannot be coerced is a
 * problem naming the parameter, the type expected and what was sent, in the kernel's wording
 * (`limit must be an integer; you sent "five"`).
 *
 * Keywords read: `type` (one or a list), `properties`, `required`, `items`, `enum`, `anyOf` / `oneOf`.
 * Others (`minimum`, `minLength`, `pattern`, `$ref`, …) pass through: the tool checks them (the kernel's
 * zod schema, an MCP server's own validation).
 */

/** A JSON Schema node as tools carry it (`Tool.inputSchema`). */
export type JsonSchema = Record<string, unknown>;

/** One value changed to fit the schema: `limit` `"5"` → `5`. */
export interface ArgumentCoercion {
  /** dotted path of the parameter, `edits.0.line`; `(input)` for the whole input */
  path: string;
  from: unknown;
  /** the new value; `undefined` when an optional parameter sent as `null` was dropped */
  to: unknown;
}

/** What {@link coerceArguments} made of a value. */
export interface CoercedArguments {
  value: unknown;
  coercions: ArgumentCoercion[];
  /** one line per parameter that could not be made to fit, e.g. `offset must be an integer; you sent "x"` */
  problems: string[];
}

/**
 * The coercions, by the type the schema expects. Each applies only when the value sent does not
 * already have an accepted type. The examples are the table test's rows (test/tools/coerce-arguments.test.ts).
 */
export const COERCIONS = [
  { expected: 'integer', sent: 'a string holding a whole number', example: '"42" → 42, " -7 " → -7, "5.0" → 5' },
  { expected: 'number', sent: 'a string holding a decimal number', example: '"2.5" → 2.5, "1e3" → 1000' },
  { expected: 'boolean', sent: 'the string true or false, any case', example: '"true" → true, "False" → false' },
  { expected: 'string', sent: 'a number or a boolean', example: '404 → "404", true → "true"' },
  { expected: 'array', sent: 'a JSON text of an array', example: '"[1,2]" → [1, 2]' },
  { expected: 'array', sent: 'one value', example: '"*.log" → ["*.log"]' },
  { expected: 'object', sent: 'a JSON text of an object', example: '"{\\"a\\":1}" → { a: 1 }' },
  {
    expected: 'an enum member',
    sent: 'its text, or its text in another case',
    example: '"2" → 2 for enum [1, 2]; "Markdown" → "markdown"',
  },
  { expected: 'an optional property', sent: 'null', example: '{ "offset": null } → {} (null meant "not given")' },
] as const;

const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Name used in messages for the whole input. */
const ROOT = '(input)';

/**
 * Checks `value` against `schema` and coerces it where the intent is clear ({@link COERCIONS}).
 * Never throws. `problems` empty means `value` fits the keywords read (see the module comment).
 */
export function coerceArguments(schema: JsonSchema, value: unknown): CoercedArguments {
  const out: Collector = { coercions: [], problems: [] };
  const coerced = coerceNode(schema, value, '', out);
  return { value: coerced, ...out };
}

/** The outcome of {@link prepareToolInput}. */
export type PreparedInput =
  | {
      ok: true;
      /** the arguments to hand the tool: the parsed JSON, coerced */
      value: unknown;
      /** their JSON text: `rawInput` itself when nothing changed, else the coerced value's (for permission dialogs and reports) */
      input: string;
      coercions: ArgumentCoercion[];
    }
  | { ok: false; message: string };

/**
 * Parses the raw JSON text a model sent for tool `toolName` and coerces it to `schema`: the one place
 * a call's arguments are parsed, before any tool of any source runs. Empty text stands for `{}`.
 * A failure's `message` is the error result the model sees:
 * `Invalid input for view: limit must be an integer; you sent "five"`.
 */
export function prepareToolInput(toolName: string, schema: JsonSchema, rawInput: string): PreparedInput {
  let parsed: unknown;
  try {
    parsed = rawInput.trim() === '' ? {} : JSON.parse(rawInput);
  } catch (err) {
    return {
      ok: false,
      message: `The input of ${toolName} is not valid JSON (${(err as Error).message}). Send the parameters as a JSON object.`,
    };
  }
  const root = schema.type === undefined && schema.properties !== undefined ? { ...schema, type: 'object' } : schema;
  const result = coerceArguments(root, parsed);
  if (result.problems.length)
    return { ok: false, message: `Invalid input for ${toolName}: ${result.problems.join('; ')}` };
  const input = result.coercions.length ? JSON.stringify(result.value) : rawInput;
  return { ok: true, value: result.value, input, coercions: result.coercions };
}

interface Collector {
  coercions: ArgumentCoercion[];
  problems: string[];
}

function coerceNode(schema: unknown, value: unknown, path: string, out: Collector): unknown {
  if (!isObject(schema)) return value; // `true`, `{}`-like or a malformed node: anything goes
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches) return coerceUnion(schema, branches, value, path, out);

  let current = value;
  const types = typesOf(schema);
  if (types && !types.some((t) => hasType(t, current))) {
    const converted = convert(types, current);
    if (!converted) {
      out.problems.push(`${name(path)} must be ${describeTypes(types, schema)}; you sent ${show(current)}`);
      return current;
    }
    out.coercions.push({ path: name(path), from: current, to: converted.value });
    current = converted.value;
  }

  if (Array.isArray(schema.enum) && !schema.enum.some((member) => sameValue(member, current))) {
    const member = enumMemberFor(schema.enum, current);
    if (member === undefined) {
      out.problems.push(`${name(path)} must be one of ${schema.enum.map(show).join(', ')}; you sent ${show(current)}`);
      return current;
    }
    out.coercions.push({ path: name(path), from: current, to: member.value });
    current = member.value;
  }

  if (isObject(current) && isObject(schema.properties)) return coerceObject(schema, current, path, out);
  if (Array.isArray(current) && schema.items !== undefined) {
    return current.map((item, i) => coerceNode(schema.items, item, join(path, String(i)), out));
  }
  return current;
}

function coerceObject(schema: JsonSchema, value: Record<string, unknown>, path: string, out: Collector): unknown {
  const properties = schema.properties as Record<string, unknown>;
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((k) => typeof k === 'string')
    : [];
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties[key];
    if (propertySchema === undefined) {
      result[key] = item; // unknown keys are the tool's business (zod strips or rejects them)
      continue;
    }
    if (item === null && !required.includes(key) && !acceptsNull(propertySchema)) {
      // models send `"offset": null` for "not given"; an optional property that can't be null means just that
      out.coercions.push({ path: join(path, key), from: null, to: undefined });
      continue;
    }
    result[key] = coerceNode(propertySchema, item, join(path, key), out);
  }
  for (const key of required) {
    if (!(key in value)) out.problems.push(`${join(path, key)} is required`);
  }
  return result;
}

function coerceUnion(schema: JsonSchema, branches: unknown[], value: unknown, path: string, out: Collector): unknown {
  const attempts = branches.map((branch) => {
    const local: Collector = { coercions: [], problems: [] };
    // a branch inherits the keywords beside anyOf (e.g. `properties` shared by every branch)
    const merged = isObject(branch) ? { ...withoutUnion(schema), ...branch } : branch;
    return { value: coerceNode(merged, value, path, local), ...local };
  });
  const exact = attempts.find((a) => a.problems.length === 0 && a.coercions.length === 0);
  const chosen = exact ?? attempts.find((a) => a.problems.length === 0);
  if (chosen) {
    out.coercions.push(...chosen.coercions);
    return chosen.value;
  }
  const forms = branches.map((b) => (isObject(b) ? describeNode(b) : 'anything'));
  out.problems.push(`${name(path)} must be ${[...new Set(forms)].join(' or ')}; you sent ${show(value)}`);
  return value;
}

function withoutUnion(schema: JsonSchema): JsonSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
  return rest;
}

function typesOf(schema: JsonSchema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true; // a type we don't know: leave it to the tool
  }
}

/** The first of `types` that `value` converts to (see {@link COERCIONS}). */
function convert(types: string[], value: unknown): { value: unknown } | undefined {
  for (const type of types) {
    const converted = convertTo(type, value);
    if (converted) return converted;
  }
  return undefined;
}

function convertTo(type: string, value: unknown): { value: unknown } | undefined {
  switch (type) {
    case 'integer':
    case 'number': {
      if (typeof value !== 'string' || !NUMBER_TEXT.test(value.trim())) return undefined;
      const n = Number(value.trim());
      if (!Number.isFinite(n)) return undefined;
      if (type === 'integer' && !Number.isSafeInteger(n)) return undefined;
      return { value: n };
    }
    case 'boolean': {
      if (typeof value !== 'string') return undefined;
      const text = value.trim().toLowerCase();
      return text === 'true' ? { value: true } : text === 'false' ? { value: false } : undefined;
    }
    case 'string':
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean'
        ? { value: String(value) }
        : undefined;
    case 'array': {
      if (typeof value === 'string' && value.trim().startsWith('[')) {
        const parsed = parseJson(value);
        if (Array.isArray(parsed)) return { value: parsed };
      }
      return value === null || value === undefined ? undefined : { value: [value] };
    }
    case 'object': {
      if (typeof value !== 'string' || !value.trim().startsWith('{')) return undefined;
      const parsed = parseJson(value);
      return isObject(parsed) ? { value: parsed } : undefined;
    }
    default:
      return undefined;
  }
}

function enumMemberFor(members: unknown[], value: unknown): { value: unknown } | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const text = String(value);
  const exact = members.filter((m) => isScalar(m) && String(m) === text);
  if (exact.length === 1) return { value: exact[0] };
  const folded = members.filter((m) => typeof m === 'string' && m.toLowerCase() === text.toLowerCase());
  return folded.length === 1 ? { value: folded[0] } : undefined;
}

function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return true;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches) return branches.some(acceptsNull);
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const types = typesOf(schema);
  return types === undefined || types.includes('null');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

function describeTypes(types: string[], schema: JsonSchema): string {
  return types
    .map((t) => {
      if (
        t === 'array' &&
        isObject(schema.items) &&
        typeof schema.items.type === 'string' &&
        schema.items.type !== 'array'
      ) {
        return `an array of ${schema.items.type === 'boolean' ? 'booleans' : `${schema.items.type}s`}`;
      }
      return TYPE_NAMES[t] ?? t;
    })
    .join(' or ');
}

function describeNode(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(show).join(', ')}`;
  const types = typesOf(schema);
  return types ? describeTypes(types, schema) : 'another form';
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

function name(path: string): string {
  return path || ROOT;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
