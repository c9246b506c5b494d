/**
 * How a tool call looks in the editor (ACP "tool calls": kind, title, locations, content): one row
 * per built-in tool, pure functions of the call's input. An MCP, custom or plugin tool is `other`,
 * titled by its name.
 *
 * Source of the shapes: the ACP v1 schema (`ToolKind`, `ToolCallLocation`, `ToolCallContent`) in
 * `@agentclientprotocol/sdk`. Diffs follow what ACP clients show: an edit is `oldText` → `newText` of
 * the replaced text; a new file has no `oldText`.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { parsePatch } from '../tools/patch-parse.js';

/** What the editor shows for one call. */
export interface ToolDisplay {
  kind: ToolKind;
  title: string;
  /** files the call reads or changes, absolute */
  locations: ToolCallLocation[];
  /** diffs of the change an edit, write or patch proposes; empty for other tools */
  content: ToolCallContent[];
}

/** A call's parsed input: whatever the model sent, as an object (empty when it is no JSON object). */
type Input = Record<string, unknown>;

interface DisplayRow {
  kind: ToolKind;
  /** the title from the input; `cwd` makes paths relative for display */
  title: (input: Input, cwd: string) => string;
  /** the paths (as given, relative or absolute) and 1-based line the call concerns */
  locations?: (input: Input) => { path: string; line?: number }[];
  /** the change it proposes, for edits */
  diff?: (input: Input, cwd: string) => ToolCallContent[];
}

/**
 * The built-in tools. Example titles: view `Read src/a.ts`, edit `Edit src/a.ts`, bash
 * `` `npm test` ``, grep `grep "TODO" in src`, fetch `Fetch https://example.com`.
 */
export const TOOL_DISPLAY: Readonly<Record<string, DisplayRow>> = {
  // Read src/a.ts (from line 41 when offset 40)
  view: {
    kind: 'read',
    title: (i, cwd) =>
      `Read ${shown(i.file_path, cwd)}${typeof i.offset === 'number' && i.offset > 0 ? ` (from line ${i.offset + 1})` : ''}`,
    locations: (i) => fileLocation(i.file_path, typeof i.offset === 'number' ? i.offset + 1 : undefined),
  },
  // Edit src/a.ts, with the replaced text as the diff
  edit: {
    kind: 'edit',
    title: (i, cwd) => `Edit ${shown(i.file_path, cwd)}`,
    locations: (i) => fileLocation(i.file_path),
    diff: (i, cwd) =>
      typeof i.file_path === 'string' && typeof i.new_string === 'string'
        ? [
            {
              type: 'diff',
              path: resolve(cwd, i.file_path),
              oldText: typeof i.old_string === 'string' && i.old_string !== '' ? i.old_string : null,
              newText: i.new_string,
            },
          ]
        : [],
  },
  // Write src/a.ts, with the whole file before and after
  write: {
    kind: 'edit',
    title: (i, cwd) => `Write ${shown(i.file_path, cwd)}`,
    locations: (i) => fileLocation(i.file_path),
    diff: (i, cwd) =>
      typeof i.file_path === 'string' && typeof i.content === 'string'
        ? [
            {
              type: 'diff',
              path: resolve(cwd, i.file_path),
              oldText: currentText(resolve(cwd, i.file_path)),
              newText: i.content,
            },
          ]
        : [],
  },
  // Apply patch to 2 files; an added file's diff is its content
  patch: {
    kind: 'edit',
    title: (i) => {
      const n = patchPaths(i.patch_text).length;
      return n === 0 ? 'Apply patch' : `Apply patch to ${n} file${n === 1 ? '' : 's'}`;
    },
    locations: (i) => patchPaths(i.patch_text).map((path) => ({ path })),
    diff: (i, cwd) => patchDiffs(i.patch_text, cwd),
  },
  // `npm test`
  bash: {
    kind: 'execute',
    title: (i) => (typeof i.command === 'string' ? `\`${oneLine(i.command)}\`` : 'Run a command'),
  },
  // grep "TODO" in src
  grep: {
    kind: 'search',
    title: (i, cwd) => `grep ${JSON.stringify(String(i.pattern ?? ''))}${i.path ? ` in ${shown(i.path, cwd)}` : ''}`,
  },
  // Find **/*.ts in src
  glob: {
    kind: 'search',
    title: (i, cwd) => `Find ${String(i.pattern ?? '')}${i.path ? ` in ${shown(i.path, cwd)}` : ''}`,
  },
  // List src
  ls: { kind: 'search', title: (i, cwd) => `List ${i.path ? shown(i.path, cwd) : 'the project'}` },
  // Search Sourcegraph: repo:x foo
  sourcegraph: { kind: 'search', title: (i) => `Search Sourcegraph: ${oneLine(String(i.query ?? ''))}` },
  // Fetch https://example.com
  fetch: { kind: 'fetch', title: (i) => `Fetch ${String(i.url ?? '')}` },
  // Task: find where the config is loaded
  agent: { kind: 'think', title: (i) => `Task: ${oneLine(String(i.prompt ?? ''))}` },
  // Diagnostics of src/a.ts
  diagnostics: {
    kind: 'read',
    title: (i, cwd) => (i.file_path ? `Diagnostics of ${shown(i.file_path, cwd)}` : 'Diagnostics of the project'),
    locations: (i) => fileLocation(i.file_path),
  },
};

/** Longest title, characters: a long command or prompt is cut. */
const MAX_TITLE_CHARS = 120;
/** A file larger than this is not read for a write's diff (the editor shows the new text only). */
const MAX_DIFF_FILE_BYTES = 1_000_000;

/**
 * The display of a call of `name` with the raw JSON `rawInput` (possibly partial or invalid while it
 * streams: then the title is the tool's name until the input parses). Paths are made absolute against `cwd`.
 */
export function toolDisplay(name: string, rawInput: string, cwd: string): ToolDisplay {
  const row = TOOL_DISPLAY[name];
  const input = parseInput(rawInput);
  if (!row) return { kind: 'other', title: name, locations: [], content: [] };
  if (!input) return { kind: row.kind, title: name, locations: [], content: [] };
  let display: ToolDisplay;
  try {
    display = {
      kind: row.kind,
      title: cut(row.title(input, cwd)),
      locations: (row.locations?.(input) ?? []).map((l) => ({ ...l, path: resolve(cwd, l.path) })),
      content: row.diff?.(input, cwd) ?? [],
    };
  } catch {
    // a field of an unexpected type: the name is still a title
    display = { kind: row.kind, title: name, locations: [], content: [] };
  }
  return display;
}

/** The input as an object, or undefined when it is not (yet) a JSON object. */
export function parseInput(rawInput: string): Input | undefined {
  if (rawInput.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(rawInput);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : undefined;
  } catch {
    return undefined;
  }
}

function fileLocation(path: unknown, line?: number): { path: string; line?: number }[] {
  if (typeof path !== 'string' || path === '') return [];
  return [line === undefined ? { path } : { path, line }];
}

/** A path for a title: relative to the project when inside it. */
function shown(path: unknown, cwd: string): string {
  if (typeof path !== 'string' || path === '') return '(no path)';
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function cut(text: string): string {
  return text.length <= MAX_TITLE_CHARS ? text : `${text.slice(0, MAX_TITLE_CHARS - 1)}…`;
}

/** The file's text now, or null when there is none (a new file) or it is too large or unreadable. */
function currentText(path: string): string | null {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > MAX_DIFF_FILE_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function patchPaths(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    return parsePatch(text).flatMap((op) => (op.kind === 'update' && op.moveTo ? [op.path, op.moveTo] : [op.path]));
  } catch {
    return [];
  }
}

/** An added file as a diff from nothing; an update as its removed → added lines; a deletion as text → nothing. */
function patchDiffs(text: unknown, cwd: string): ToolCallContent[] {
  if (typeof text !== 'string') return [];
  try {
    return parsePatch(text).map((op): ToolCallContent => {
      const path = resolve(cwd, op.path);
      if (op.kind === 'add') return { type: 'diff', path, oldText: null, newText: op.content };
      if (op.kind === 'delete') return { type: 'diff', path, oldText: currentText(path) ?? '', newText: '' };
      const chunks = op.hunks.flatMap((h) => h.chunks);
      return {
        type: 'diff',
        path: op.moveTo ? resolve(cwd, op.moveTo) : path,
        oldText: chunks.map((c) => c.removed.join('\n')).join('\n'),
        newText: chunks.map((c) => c.added.join('\n')).join('\n'),
      };
    });
  } catch {
    return [];
  }
}
