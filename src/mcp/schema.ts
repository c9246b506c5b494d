/**
 * Cleans an MCP tool's `inputSchema` so every provider accepts it. Pure functions.
 *
 * What providers reject, and what is done about it:
 * - `$ref` into `$defs`/`definitions`: OpenAI-compatible servers (vLLM, Ollama, Groq) and Gemini-style
 *   validators fail on references, so local references are inlined; a recursive one becomes `{}` (any
 *   value) at the point where it recurses.
 * - `$schema`, `$id`, `$comment`, `$anchor` and the other `$` keywords: meaningless to a model and refused
 *   by some validators; removed (only where a schema is expected, never a property *named* `$id`).
 * - `anyOf`/`oneOf`/`allOf` at the top level: Anthropic refuses them ("input_schema does not support oneOf,
 *   allOf, or anyOf at the top level"); they are merged into one object (properties of every branch;
 *   `required` = what every branch requires).
 * - a top level that is not `type: "object"` with `properties`: OpenAI refuses an object schema without
 *   `properties`; MCP arguments are always an object anyway.
 * - boolean schemas as a property or list item (`true`/`false`) become `{}` / `{"not": {}}`.
 * Kept: `required` (the original dropped it), `additionalProperties`, `enum`, `format`,
 * `default`, descriptions.
 */

type Json = Record<string, unknown>;

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is a list of schemas (`items` as a list is draft-07 tuple form). */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas'];
/** Non-`$` keywords that are removed. */
const DROPPED_KEYWORDS = new Set(['definitions']);

/** Deeper than this, a reference chain is cut to `{}` (guards against huge expansions). */
const MAX_REF_DEPTH = 16;

/** The cleaned schema: always `{type: "object", properties: {...}, ...}`. */
export function cleanInputSchema(schema: unknown): Json {
  const root = isObject(schema) ? schema : {};
  const cleaned = clean(root, root, [], 0);
  const top = isObject(cleaned) ? flattenTopCombinators(cleaned) : {};
  top.type = 'object';
  if (!isObject(top.properties)) top.properties = {};
  return top;
}

/** Inlines references and drops rejected keywords, recursively. */
function clean(node: unknown, root: Json, refStack: string[], depth: number): unknown {
  if (node === true) return {};
  if (node === false) return { not: {} };
  if (!isObject(node)) return node;

  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target =
      ref.startsWith('#') && !refStack.includes(ref) && depth < MAX_REF_DEPTH ? resolvePointer(root, ref) : undefined;
    const { $ref: _ref, ...siblings } = node;
    const inlined = target === undefined ? {} : clean(target, root, [...refStack, ref], depth + 1);
    // keywords beside the reference (a description, say) win over the target's
    const cleanedSiblings = clean(siblings, root, refStack, depth) as Json;
    return { ...(isObject(inlined) ? inlined : {}), ...cleanedSiblings };
  }

  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('$') || DROPPED_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAP_KEYWORDS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, clean(sub, root, refStack, depth)]),
      );
    } else if (SCHEMA_LIST_KEYWORDS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => clean(sub, root, refStack, depth));
    } else if (SCHEMA_KEYWORDS.includes(key) && isObject(value)) {
      // a boolean here (`additionalProperties: false`) is accepted by every provider and is kept as is
      out[key] = clean(value, root, refStack, depth);
    } else if (key === 'required') {
      if (Array.isArray(value)) out.required = [...new Set(value.filter((v): v is string => typeof v === 'string'))];
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Resolves a local JSON pointer such as `#/$defs/Point` (RFC 6901 escapes, URI-encoded). */
export function resolvePointer(root: Json, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Merges top-level `allOf` / `anyOf` / `oneOf` into one object schema. */
function flattenTopCombinators(schema: Json): Json {
  const { allOf, anyOf, oneOf, ...rest } = schema;
  const properties: Json = isObject(rest.properties) ? { ...rest.properties } : {};
  const required = new Set(Array.isArray(rest.required) ? (rest.required as string[]) : []);
  const branches = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

  for (const branch of branches(allOf)) {
    const flat = flattenTopCombinators(branch);
    Object.assign(properties, flat.properties);
    for (const name of (flat.required as string[] | undefined) ?? []) required.add(name);
  }
  for (const alternatives of [branches(anyOf), branches(oneOf)]) {
    if (alternatives.length === 0) continue;
    const flats = alternatives.map(flattenTopCombinators);
    for (const flat of flats) {
      for (const [name, sub] of Object.entries(flat.properties as Json))
        if (!(name in properties)) properties[name] = sub;
    }
    const common = flats
      .map((flat) => new Set((flat.required as string[] | undefined) ?? []))
      .reduce((a, b) => new Set([...a].filter((name) => b.has(name))));
    for (const name of common) required.add(name);
  }

  const out: Json = { ...rest, type: 'object', properties };
  // a required name with no property is refused by strict validators; without any properties keep the list
  const known = Object.keys(properties).length > 0 ? [...required].filter((name) => name in properties) : [...required];
  if (known.length > 0) out.required = known;
  else delete out.required;
  return out;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
