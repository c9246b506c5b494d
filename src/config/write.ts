/**
 * Writes settings back: one setting to the global config file, as the TUI does when the person picks a
 * model or a theme (reference §8), and edits of the project's file, as "always allow in this project"
 * does (issue #4 §3). Unlike the original, which re-serialised its whole Config struct (losing unknown
 * keys and inverting `lsp.disabled`), only the one key changes; everything else in the file is kept,
 * in the project's file down to its formatting.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAME, ConfigError, checkFile, globalConfigCandidates, type LoadConfigOptions } from './load.js';
import { parseJsonText } from './json-text.js';

/**
 * Sets `keyPath` (e.g. `['tui', 'theme']` or `['agents', 'coder', 'model']`) to `value` in the global
 * config file: the first existing candidate, or `$HOME/.opencode.json` when there is none. Writes
 * atomically (temp file + rename), 2-space indented. Returns the file written.
 * @throws {ConfigError} when the existing file is invalid JSON, or the new value does not fit the schema
 *   (nothing is written then).
 */
export function setGlobalConfigValue(
  options: Pick<LoadConfigOptions, 'env' | 'home'>,
  keyPath: readonly string[],
  value: unknown,
): string {
  if (keyPath.length === 0) throw new ConfigError(['setGlobalConfigValue: empty key path']);
  const candidates = globalConfigCandidates(options);
  let file = candidates[0];
  let document: Record<string, unknown> = {};
  for (const candidate of candidates) {
    const text = readIfExists(candidate);
    if (text === undefined) continue;
    file = candidate;
    const checked = checkFile(candidate, text);
    // Only syntax (or top-level) errors stop us; a bad value elsewhere is the person's to fix and is kept.
    if (!checked.value) throw new ConfigError(checked.errors);
    document = parseJsonText(text) as Record<string, unknown>;
    break;
  }

  let node = document;
  for (const key of keyPath.slice(0, -1)) {
    const child = node[key];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keyPath[keyPath.length - 1]] = value;

  const problems = checkFile(file, JSON.stringify(document)).errors.filter((line) =>
    line.startsWith(`${file}: ${keyPath.join('.')}`),
  );
  if (problems.length > 0) throw new ConfigError(problems);

  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return file;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError([`${file}: cannot read: ${(err as Error).message}`]);
  }
}


/**
 * Changes the project's `<cwd>/.opencode.json` with `edit`, a function from the file's text to the new
 * text (e.g. a series of {@link setJsonValue} calls), so everything else in the file stays as written.
 * A missing file starts as an empty object. Writes atomically, keeping the file's mode. Returns the file.
 * @throws {ConfigError} when the file is not valid JSON, or when the result has a problem under one of
 *   `checkedKeys` (e.g. `['permission']`); nothing is written then.
 */
export function updateProjectConfigFile(cwd: string, checkedKeys: readonly string[], edit: (text: string) => string): string {
  const file = path.join(cwd, CONFIG_FILE_NAME);
  const existing = readIfExists(file);
  if (existing !== undefined) {
    const checked = checkFile(file, existing);
    if (!checked.value) throw new ConfigError(checked.errors);
  }
  const text = edit(existing ?? '{\n}\n');
  const problems = checkFile(file, text).errors.filter((line) =>
    checkedKeys.some((key) => line.startsWith(`${file}: ${key}`)),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: existing === undefined ? 0o644 : statSync(file).mode & 0o7777 });
  renameSync(temp, file);
  return file;
}

/**
 * Sets `keyPath` to `value` in the JSON text `text` by a minimal edit: only the member's own text
 * changes; the rest of the file (key order, indentation, spacing, line endings, a byte order mark)
 * stays as it was. A missing member is appended at the end of its object with the indentation of its
 * siblings; missing parent objects are created; a parent that is not an object is replaced.
 * With `moveToEnd`, an existing member is removed and appended instead of changed in place (for
 * settings where order matters, like permission rules, where the last match wins).
 * @throws {Error} when `text` is not a JSON object, or (a bug) the edit would not give the expected value
 */
export function setJsonValue(text: string, keyPath: readonly string[], value: unknown, options: { moveToEnd?: boolean } = {}): string {
  if (keyPath.length === 0) throw new Error('setJsonValue: empty key path');
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const source = text.slice(bom.length);
  const before: unknown = JSON.parse(source);
  if (!isObject(before)) throw new Error('setJsonValue: the JSON text is not an object');
  const result = bom + editMember(source, keyPath, value, options.moveToEnd ?? false);

  // the edit is checked against the same change made to the parsed value, key order included
  const expected = structuredClone(before);
  let node: Record<string, unknown> = expected;
  for (const key of keyPath.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keyPath[keyPath.length - 1]!;
  if (options.moveToEnd) delete node[last];
  node[last] = value;
  if (JSON.stringify(JSON.parse(result.slice(bom.length))) !== JSON.stringify(expected)) {
    throw new Error(`setJsonValue: editing ${keyPath.join('.')} did not give the expected JSON`);
  }
  return result;
}

interface JsonNode {
  start: number;
  /** just after the value */
  end: number;
  members?: JsonMember[];
}

interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

function editMember(text: string, keyPath: readonly string[], value: unknown, moveToEnd: boolean): string {
  const style = detectStyle(text);
  let node = parseJsonNodes(text);
  for (let i = 0; i < keyPath.length; i++) {
    const key = keyPath[i]!;
    const rest = keyPath.slice(i + 1);
    const nested = rest.reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
    const members = node.members!;
    // JSON.parse keeps the last of duplicate keys: so do we
    const index = members.map((m) => m.key).lastIndexOf(key);
    const member = members[index];
    if (!member) return appendMember(text, node, key, nested, style);
    if (rest.length > 0 && member.value.members) {
      node = member.value;
      continue;
    }
    if (rest.length === 0 && moveToEnd && index !== members.length - 1) {
      const removed = removeMember(text, node, index);
      return appendMember(removed, findObject(parseJsonNodes(removed), keyPath.slice(0, i)), key, nested, style);
    }
    const indent = lineIndent(text, member.keyStart);
    return text.slice(0, member.value.start) + formatValue(nested, indent, style, isMultiline(text, node)) + text.slice(member.value.end);
  }
  throw new Error('unreachable');
}

interface JsonStyle {
  eol: string;
  /** one level of indentation */
  unit: string;
  /** between a key and its value, e.g. `: ` */
  colon: string;
  /** the document spans several lines */
  multiline: boolean;
}

function detectStyle(text: string): JsonStyle {
  const root = parseJsonNodes(text);
  const first = root.members?.[0];
  const colon = first ? text.slice(first.keyEnd, first.value.start) : ': ';
  let unit = '  ';
  if (first && isMultiline(text, root)) {
    const memberIndent = lineIndent(text, first.keyStart);
    const braceIndent = lineIndent(text, root.start);
    if (memberIndent.startsWith(braceIndent) && memberIndent.length > braceIndent.length) unit = memberIndent.slice(braceIndent.length);
  }
  return {
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    unit,
    colon: colon.trim() === ':' ? colon : ': ',
    multiline: /\n/.test(text.trimEnd()),
  };
}

/** An object is laid out one member a line when a line break precedes its last member (or, empty, when the file has several lines). */
function isMultiline(text: string, node: JsonNode): boolean {
  const members = node.members ?? [];
  if (members.length === 0) return /\n/.test(text.trimEnd());
  const last = members[members.length - 1]!;
  const from = members.length > 1 ? members[members.length - 2]!.value.end : node.start + 1;
  return text.slice(from, last.keyStart).includes('\n');
}

function appendMember(text: string, object: JsonNode, key: string, value: unknown, style: JsonStyle): string {
  const members = object.members!;
  const multiline = members.length === 0 ? style.multiline : isMultiline(text, object);
  const braceIndent = lineIndent(text, object.start);
  const indent = members.length > 0 && multiline ? lineIndent(text, members[members.length - 1]!.keyStart) : braceIndent + style.unit;
  const member = `${JSON.stringify(key)}${style.colon}${formatValue(value, indent, style, multiline)}`;
  if (members.length === 0) {
    const inside = multiline ? `${style.eol}${indent}${member}${style.eol}${braceIndent}` : member;
    return text.slice(0, object.start + 1) + inside + text.slice(object.end - 1);
  }
  const after = members[members.length - 1]!.value.end;
  return text.slice(0, after) + (multiline ? `,${style.eol}${indent}` : style.colon === ':' ? ',' : ', ') + member + text.slice(after);
}

function removeMember(text: string, object: JsonNode, index: number): string {
  const members = object.members!;
  const member = members[index]!;
  if (members.length === 1) return text.slice(0, object.start + 1) + text.slice(object.end - 1);
  if (index < members.length - 1) return text.slice(0, member.keyStart) + text.slice(members[index + 1]!.keyStart);
  return text.slice(0, members[index - 1]!.value.end) + text.slice(member.value.end);
}

function findObject(root: JsonNode, keyPath: readonly string[]): JsonNode {
  let node = root;
  for (const key of keyPath) {
    const members = node.members!;
    node = members[members.map((m) => m.key).lastIndexOf(key)]!.value;
  }
  return node;
}

/** `value` as JSON text for a member indented by `indent`: one member a line when `multiline`, else compact. */
function formatValue(value: unknown, indent: string, style: JsonStyle, multiline: boolean): string {
  if (!multiline) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent);
}

/** The whitespace at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** Positions of every object member in valid JSON text (the caller has checked it with JSON.parse). */
function parseJsonNodes(text: string): JsonNode {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const value = (): JsonNode => {
    space();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: JsonMember[] = [];
      space();
      if (text[i] === '}') {
        i++;
        return { start, end: i, members };
      }
      for (;;) {
        space();
        const keyStart = i;
        string();
        const keyEnd = i;
        const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
        space();
        i++; // ':'
        const v = value();
        members.push({ key, keyStart, keyEnd, value: v });
        space();
        if (text[i++] === '}') return { start, end: i, members };
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return { start, end: i };
      }
      for (;;) {
        value();
        space();
        if (text[i++] === ']') return { start, end: i };
      }
    }
    if (c === '"') string();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
    return { start, end: i };
  };
  return value();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
