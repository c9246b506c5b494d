/**
 * Turns zod issues into one line per problem, in the form `key.path: expected X, got Y`, and splits
 * unknown keys (warnings) from real errors. Pure functions; the loader adds the file name.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** One problem found in a config value: a dotted key path (empty for the root) and what is wrong. */
export interface ConfigProblem {
  /** e.g. `agents.coder.maxTokens`, `mcpServers.git.args[1]`; `''` for the top level */
  keyPath: string;
  /** e.g. `expected number, got string` */
  text: string;
}

/** Unknown keys and errors of one validation. */
export interface SplitIssues {
  /** paths of keys the schema does not know, e.g. `['agents', 'coder', 'temperature']` */
  unknownKeys: PropertyKey[][];
  errors: ConfigProblem[];
}

/** Renders a path like `mcpServers.git.args[1]`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Splits zod issues into unknown keys and formatted errors, in the order zod reported them. */
export function splitIssues(issues: readonly Issue[]): SplitIssues {
  const unknownKeys: PropertyKey[][] = [];
  const errors: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unknownKeys.push([...issue.path, key]);
      continue;
    }
    for (const problem of describeIssue(issue, [])) errors.push(problem);
  }
  return { unknownKeys, errors };
}

/** The JSON type of a value, in the words used by error lines: `string`, `array`, `null`, `integer`… */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

// zod's names for expected types, in JSON words
const EXPECTED_NAMES: Record<string, string> = { record: 'object', int: 'integer', map: 'object' };

function describeIssue(issue: Issue, prefix: readonly PropertyKey[]): ConfigProblem[] {
  const keyPath = formatKeyPath([...prefix, ...issue.path]);
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return [{ keyPath, text: `expected ${nameOf(issue.expected)}, but it is missing` }];
      const got = issue.expected === 'int' && typeof input === 'number' ? String(input) : gotName(input);
      return [{ keyPath, text: `expected ${nameOf(issue.expected)}, got ${got}` }];
    }
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      const expected = values.length === 1 ? values[0] : `one of ${values.join(', ')}`;
      return [{ keyPath, text: `expected ${expected}, got ${preview(input)}` }];
    }
    case 'too_small':
    case 'too_big': {
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const what = issue.origin === 'number' || issue.origin === 'int' ? 'number' : `${issue.origin} length`;
      return [{ keyPath, text: `expected ${what} ${op} ${String(bound)}, got ${preview(input)}` }];
    }
    case 'invalid_union': {
      // When the value had the right shape for exactly one alternative (its problems are deeper down),
      // that alternative's problems are the useful ones.
      const deeper = issue.errors.filter((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0));
      if (deeper.length === 1) return deeper[0].flatMap((inner) => describeIssue(inner, [...prefix, ...issue.path]));
      return [{ keyPath, text: `${issue.message}, got ${jsonTypeName(input)}` }];
    }
    case 'invalid_format':
      return [{ keyPath, text: `${issue.message}, got ${preview(input)}` }];
    default:
      return [{ keyPath, text: issue.message }];
  }
}

function nameOf(expected: string): string {
  return EXPECTED_NAMES[expected] ?? expected;
}

// "got integer" reads oddly when a number was expected; say "number" unless the kinds differ.
function gotName(input: unknown): string {
  const name = jsonTypeName(input);
  return name === 'integer' ? 'number' : name;
}

/** A short rendering of a bad value: strings quoted, long values cut to 40 characters. */
function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
