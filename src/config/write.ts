/**
 * Writes settings back into `.opencode.json` files as people wrote them: the model
 * (ctrl+o: the project's file, or the global one when asked), the theme (global), and "always allow
 * in this project" rules. Only the one member changes; everything else in the file stays
 * as written: comments, trailing commas, key order, indentation, line endings, a byte order mark.
 * The original re-serialised its whole Config struct (losing comments and unknown keys, inverting
 * `lsp.disabled`).
 *
 * Member positions come from jsonc-parser's syntax tree (`parseTree`); the edits are applied with its
 * `applyEdits`. Its own `modify` is not used to insert, because it reformats the enclosing lines
 * (a one-line object such as `{"permission":{"bash":"ask"}}` would be spread over seven lines).
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, parseTree, type Node as TreeNode } from 'jsonc-parser';
import { CONFIG_FILE_NAME, ConfigError, checkFile, globalConfigCandidates, type LoadConfigOptions } from './load.js';
import { parseJsonText } from './json-text.js';
import { readConfigText } from './light.js';

/**
 * Sets `keyPath` (e.g. `['tui', 'theme']` or `['agents', 'coder', 'model']`) to `value` in the global
 * config file: the first existing candidate, or `$HOME/.opencode.json` when there is none, by a
 * minimal edit ({@link setJsonValue}). Writes atomically (temp file + rename). Returns the file written.
 * @throws {ConfigError} when the existing file is invalid, or the new value does not fit the schema
 *   (nothing is written then).
 */
export function setGlobalConfigValue(
  options: Pick<LoadConfigOptions, 'env' | 'home'>,
  keyPath: readonly string[],
  value: unknown,
): string {
  if (keyPath.length === 0) throw new ConfigError(['setGlobalConfigValue: empty key path']);
  const candidates = globalConfigCandidates(options);
  const file = candidates.find((candidate) => readConfigText(candidate) !== undefined) ?? candidates[0]!;
  // a new global file is private: it may hold keys
  return updateConfigFile(file, [keyPath.join('.')], (text) => setJsonValue(text, keyPath, value), 0o600);
}

/**
 * Sets `keyPath` to `value` in the project's `<cwd>/.opencode.json` (created when missing), by a
 * minimal edit. Returns the file written.
 * @throws {ConfigError} as {@link setGlobalConfigValue}
 */
export function setProjectConfigValue(cwd: string, keyPath: readonly string[], value: unknown): string {
  if (keyPath.length === 0) throw new ConfigError(['setProjectConfigValue: empty key path']);
  return updateProjectConfigFile(cwd, [keyPath.join('.')], (text) => setJsonValue(text, keyPath, value));
}

/**
 * Changes the project's `<cwd>/.opencode.json` with `edit`, a function from the file's text to the new
 * text (e.g. a series of {@link setJsonValue} calls), so everything else in the file stays as written.
 * A missing file starts as an empty object. Writes atomically, keeping the file's mode. Returns the file.
 * @throws {ConfigError} when the file is not valid JSONC, or when the result has a problem under one of
 *   `checkedKeys` (e.g. `['permission']`); nothing is written then.
 */
export function updateProjectConfigFile(
  cwd: string,
  checkedKeys: readonly string[],
  edit: (text: string) => string,
): string {
  return updateConfigFile(path.join(cwd, CONFIG_FILE_NAME), checkedKeys, edit, 0o644);
}

/** {@link updateProjectConfigFile} for any config file; a missing file (and its folder) is created with `newFileMode`. */
function updateConfigFile(
  file: string,
  checkedKeys: readonly string[],
  edit: (text: string) => string,
  newFileMode: number,
): string {
  const existing = readConfigText(file);
  if (existing !== undefined) {
    const checked = checkFile(file, existing);
    // only syntax (or top-level) errors stop us; a bad value elsewhere is the person's to fix and is kept
    if (!checked.value) throw new ConfigError(checked.errors);
  }
  const text = edit(existing ?? '{\n}\n');
  const problems = checkFile(file, text).errors.filter((line) =>
    checkedKeys.some((key) => line.startsWith(`${file}: ${key}`)),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: existing === undefined ? newFileMode : statSync(file).mode & 0o7777 });
  renameSync(temp, file);
  return file;
}

/**
 * Sets `keyPath` to `value` in the JSONC text `text` by a minimal edit: only the member's own text
 * changes; the rest of the file (comments, trailing commas, key order, indentation, spacing, line
 * endings, a byte order mark) stays as it was. A missing member is appended at the end of its object with the indentation of its
 * siblings; missing parent objects are created; a parent that is not an object is replaced.
 * With `moveToEnd`, an existing member is removed and appended instead of changed in place (for
 * settings where order matters, like permission rules, where the last match wins).
 * @throws {JsonSyntaxError} when `text` is not valid JSONC
 * @throws {Error} when `text` is not an object, or (a bug) the edit would not give the expected value
 */
export function setJsonValue(
  text: string,
  keyPath: readonly string[],
  value: unknown,
  options: { moveToEnd?: boolean } = {},
): string {
  if (keyPath.length === 0) throw new Error('setJsonValue: empty key path');
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const source = text.slice(bom.length);
  const before: unknown = parseJsonText(source);
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
  if (JSON.stringify(parseJsonText(result.slice(bom.length))) !== JSON.stringify(expected)) {
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
    const content = formatValue(nested, indent, style, isMultiline(text, node));
    return applyEdits(text, [{ offset: member.value.start, length: member.value.end - member.value.start, content }]);
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
    if (memberIndent.startsWith(braceIndent) && memberIndent.length > braceIndent.length)
      unit = memberIndent.slice(braceIndent.length);
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
  const indent =
    members.length > 0 && multiline
      ? lineIndent(text, members[members.length - 1]!.keyStart)
      : braceIndent + style.unit;
  const member = `${JSON.stringify(key)}${style.colon}${formatValue(value, indent, style, multiline)}`;
  if (members.length === 0) {
    const inner = { offset: object.start + 1, length: object.end - 1 - (object.start + 1) };
    const between = text.slice(inner.offset, inner.offset + inner.length);
    // an empty object holding only a comment keeps it, after the new member
    if (between.trim() !== '')
      return applyEdits(text, [{ offset: inner.offset, length: 0, content: `${style.eol}${indent}${member}` }]);
    const content = multiline ? `${style.eol}${indent}${member}${style.eol}${braceIndent}` : member;
    return applyEdits(text, [{ ...inner, content }]);
  }
  const after = members[members.length - 1]!.value.end;
  if (multiline) {
    // the rest of the last member's line (a comma, a comment about it) stays with it: the new member
    // goes on the next line, keeping a trailing comma if the file used one
    const rest = /^([ \t]*)(,?)([ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/[ \t]*)?)(?=\r?\n)/.exec(
      text.slice(after),
    );
    if (rest && rest[3]!.trim() !== '') {
      const hadComma = rest[2] === ',';
      const lineEnd = after + rest[0].length;
      return applyEdits(text, [
        ...(hadComma ? [] : [{ offset: after, length: 0, content: ',' }]),
        { offset: lineEnd, length: 0, content: `${style.eol}${indent}${member}${hadComma ? ',' : ''}` },
      ]);
    }
  }
  const separator = multiline ? `,${style.eol}${indent}` : style.colon === ':' ? ',' : ', ';
  return applyEdits(text, [{ offset: after, length: 0, content: separator + member }]);
}

function removeMember(text: string, object: JsonNode, index: number): string {
  const members = object.members!;
  const member = members[index]!;
  if (members.length === 1)
    return applyEdits(text, [{ offset: object.start + 1, length: object.end - 1 - (object.start + 1), content: '' }]);
  if (index < members.length - 1) {
    const next = members[index + 1]!.keyStart;
    return applyEdits(text, [{ offset: member.keyStart, length: next - member.keyStart, content: '' }]);
  }
  const previousEnd = members[index - 1]!.value.end;
  return applyEdits(text, [{ offset: previousEnd, length: member.value.end - previousEnd, content: '' }]);
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
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

/** The whitespace at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** Positions of every object member in valid JSONC text (the caller has checked it), from jsonc-parser's tree. */
function parseJsonNodes(text: string): JsonNode {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree) throw new Error('setJsonValue: no JSON value in the text');
  return toJsonNode(tree);
}

function toJsonNode(node: TreeNode): JsonNode {
  const out: JsonNode = { start: node.offset, end: node.offset + node.length };
  if (node.type !== 'object') return out;
  out.members = (node.children ?? []).flatMap((property) => {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) return [];
    return [
      {
        key: keyNode.value as string,
        keyStart: keyNode.offset,
        keyEnd: keyNode.offset + keyNode.length,
        value: toJsonNode(valueNode),
      },
    ];
  });
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
