/**
 * How each tool call is named in the message list: the original's friendly names, the one key
 * parameter beside the name, and the label shown while the call is prepared and run (from
 * the original's `internal/tui/components/chat/message.go`). Policy as data: {@link TOOL_VIEWS}.
 */
import { relativeToProject } from '../format.js';
import type { ToolCallView } from '../state/chat-item.js';

/** Tool input as far as it could be read; values are whatever JSON the model sent. */
export type ToolInput = Record<string, unknown>;

/** How one built-in tool is shown. */
export interface ToolViewSpec {
  /** the friendly name, e.g. `Bash` */
  title: string;
  /** the key parameter, from the (possibly partial) input; `cwd` shortens paths inside it */
  keyParam: (input: ToolInput, cwd: string | undefined) => string;
  /** shown while the model is still writing the call's input */
  preparingLabel: string;
  /** shown once the input is complete and the tool runs (or waits for permission) */
  runningLabel: string;
}

/** The label for tools with no entry (MCP tools). */
export const DEFAULT_RUNNING_LABEL = 'Waiting for response...';

/** Built-in tools by name. */
export const TOOL_VIEWS: Record<string, ToolViewSpec> = {
  // agent: "Task  Find where the config is loaded"
  agent: {
    title: 'Task',
    keyParam: (i) => oneLine(i.prompt),
    preparingLabel: 'Preparing prompt...',
    runningLabel: 'Waiting for response...',
  },
  // bash: "Bash  npm test"
  bash: {
    title: 'Bash',
    keyParam: (i) => oneLine(i.command),
    preparingLabel: 'Building command...',
    runningLabel: 'Running command...',
  },
  // edit: "Edit  src/app.ts"
  edit: {
    title: 'Edit',
    keyParam: (i, cwd) => shownPath(i.file_path, cwd),
    preparingLabel: 'Preparing edit...',
    runningLabel: 'Writing file...',
  },
  // fetch: "Fetch  https://example.com"
  fetch: {
    title: 'Fetch',
    keyParam: (i) => oneLine(i.url),
    preparingLabel: 'Fetching from URL...',
    runningLabel: 'Fetching from URL...',
  },
  // glob: "Glob  **/*.ts (path=src)"
  glob: {
    title: 'Glob',
    keyParam: (i, cwd) => withExtras(oneLine(i.pattern), { path: shownPath(i.path, cwd) }),
    preparingLabel: 'Finding files...',
    runningLabel: 'Finding files...',
  },
  // grep: "Grep  TODO (path=src, include=*.ts)"
  grep: {
    title: 'Grep',
    keyParam: (i, cwd) => withExtras(oneLine(i.pattern), { path: shownPath(i.path, cwd), include: oneLine(i.include) }),
    preparingLabel: 'Searching content...',
    runningLabel: 'Searching content...',
  },
  // ls: "List  src" (the working directory when no path is given)
  ls: {
    title: 'List',
    keyParam: (i, cwd) => shownPath(i.path, cwd) || '.',
    preparingLabel: 'Listing directory...',
    runningLabel: 'Listing directory...',
  },
  // sourcegraph: "Sourcegraph  repo:^github.com/x lang:go"
  sourcegraph: {
    title: 'Sourcegraph',
    keyParam: (i) => oneLine(i.query),
    preparingLabel: 'Searching code...',
    runningLabel: 'Searching code...',
  },
  // view: "View  src/app.ts (offset=10, limit=50)"
  view: {
    title: 'View',
    keyParam: (i, cwd) =>
      withExtras(shownPath(i.file_path, cwd), { offset: numberText(i.offset), limit: numberText(i.limit) }),
    preparingLabel: 'Reading file...',
    runningLabel: 'Reading file...',
  },
  // write: "Write  src/new.ts"
  write: {
    title: 'Write',
    keyParam: (i, cwd) => shownPath(i.file_path, cwd),
    preparingLabel: 'Writing file...',
    runningLabel: 'Writing file...',
  },
  // patch: "Patch  src/a.ts, src/b.ts"
  patch: {
    title: 'Patch',
    keyParam: (i, cwd) =>
      patchFileNames(typeof i.patch_text === 'string' ? i.patch_text : '')
        .map((p) => shownPath(p, cwd))
        .join(', '),
    preparingLabel: 'Preparing patch...',
    runningLabel: 'Writing file...',
  },
  // diagnostics: "Diagnostics  src/app.ts" (the whole project when no file is given)
  diagnostics: {
    title: 'Diagnostics',
    keyParam: (i, cwd) => shownPath(i.file_path, cwd),
    preparingLabel: 'Waiting for response...',
    runningLabel: 'Waiting for response...',
  },
};

/**
 * Reads a tool call's raw JSON input, which may be cut off mid-stream. Complete JSON objects parse
 * normally; otherwise the top-level string, number and boolean fields that have started are
 * recovered (an unterminated string gives what has arrived so far). Never throws; `{}` when nothing
 * can be read.
 */
export function parseToolInput(raw: string): ToolInput {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ToolInput) : {};
  } catch {
    return partialFields(raw);
  }
}

const FIELD = /"((?:[^"\\]|\\.)*)"\s*:\s*(?:"((?:[^"\\]|\\.)*)("?)|(-?\d+(?:\.\d+)?)|(true|false|null))/g;

function partialFields(raw: string): ToolInput {
  const input: ToolInput = {};
  // only fields of the outermost object: skip anything once a nested object or array has opened
  const top = raw.replace(/^\s*\{/, '');
  for (const match of top.matchAll(FIELD)) {
    const before = top.slice(0, match.index);
    if (/[{[]/.test(before.replace(/"(?:[^"\\]|\\.)*"/g, ''))) break;
    const key = decodeJsonString(match[1]!);
    if (match[2] !== undefined) input[key] = decodeJsonString(match[2]);
    else if (match[4] !== undefined) input[key] = Number(match[4]);
    else if (match[5] !== undefined) input[key] = match[5] === 'null' ? null : match[5] === 'true';
  }
  return input;
}

/** A JSON string's body, decoded; a cut-off escape at the end (`\`, `\u00`) is dropped. */
function decodeJsonString(body: string): string {
  const whole = body.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return whole;
  }
}

/** The files a patch names (`*** Update File:`, `*** Add File:`, `*** Delete File:`), in order, without repeats. */
export function patchFileNames(patchText: string): string[] {
  const names: string[] = [];
  for (const match of patchText.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) {
    const name = match[1]!.trim();
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The title of a call: the friendly name, `server › tool` for an MCP tool, or the raw name. */
export function toolTitle(view: ToolCallView): string {
  const name = view.call.name;
  const spec = TOOL_VIEWS[name];
  if (spec && !view.mcpServer) return spec.title;
  if (view.mcpServer) {
    // MCP tools are named `<server>_<tool>` with unsafe characters as `_` (src/mcp/names.ts)
    const prefix = `${view.mcpServer.replace(/[^a-zA-Z0-9_-]/g, '_')}_`;
    const tool = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    return `${view.mcpServer} › ${tool}`;
  }
  return name;
}

/**
 * The key parameter shown after the title, on one line: see {@link TOOL_VIEWS}. Unknown (MCP)
 * tools show their input as compact JSON (the raw text, newlines folded, while it is incomplete).
 */
export function toolKeyParam(view: ToolCallView, cwd?: string): string {
  const spec = view.mcpServer ? undefined : TOOL_VIEWS[view.call.name];
  const input = parseToolInput(view.call.input);
  if (spec) return spec.keyParam(input, cwd);
  const raw = view.call.input.trim();
  if (raw === '' || raw === '{}') return '';
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return oneLine(raw);
  }
}

/** What a call is doing, while it has no result: preparing (input streaming) or running. */
export function toolProgressLabel(view: ToolCallView): string {
  const spec = view.mcpServer ? undefined : TOOL_VIEWS[view.call.name];
  if (!spec) return DEFAULT_RUNNING_LABEL;
  return view.call.finished ? spec.runningLabel : spec.preparingLabel;
}

/** Text on one line: whitespace runs (newlines included) become one space. Non-strings give `''`. */
function oneLine(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

function numberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '';
}

/** A path relative to `cwd` when inside it (`.` for `cwd` itself), else as given. */
function shownPath(value: unknown, cwd: string | undefined): string {
  const path = oneLine(value);
  return path && cwd ? relativeToProject(path, cwd) : path;
}

/** `main (k=v, k=v)`, leaving out empty values. */
function withExtras(main: string, extras: Record<string, string>): string {
  const shown = Object.entries(extras)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`);
  return shown.length ? `${main} (${shown.join(', ')})` : main;
}
