/**
 * One-line summaries of tool calls and their results, for people reading a session outside the TUI
 * (`opencode sessions show`, the markdown export) and for `-p -f stream-json`. Pure.
 */
import type { ToolCallPart, ToolResultPart } from '../message.js';

/**
 * The input field that says what a built-in tool call was about, by tool. A tool not listed (MCP,
 * custom) is summarised by its first string field. Example per row: what `show` prints after the name.
 */
export const TOOL_SUBJECT_FIELD: Readonly<Record<string, string>> = {
  bash: 'command', // bash: npm test
  edit: 'file_path', // edit: src/app.ts
  write: 'file_path', // write: README.md
  view: 'file_path', // view: src/app.ts
  glob: 'pattern', // glob: **/*.ts
  grep: 'pattern', // grep: TODO
  ls: 'path', // ls: src
  fetch: 'url', // fetch: https://example.com
  sourcegraph: 'query', // sourcegraph: repo:foo bar
  patch: 'patch_text', // patch: *** Begin Patch (first line)
  diagnostics: 'file_path', // diagnostics: src/app.ts
  agent: 'prompt', // agent: find where the config is loaded
};

/** Longest subject or result line kept in a summary, in characters (longer ones end with `…`). */
export const SUMMARY_MAX_CHARS = 120;

/** A line that only opens or closes the wrapper a tool puts around its output for the model (`<file>`, `</result>`). */
const WRAPPER_TAG = /^<\/?[a-z_]+>$/;

/** `text`'s first non-empty line that is not a wrapper tag, cut to `maxChars` with `…`. */
export function firstLine(text: string, maxChars = SUMMARY_MAX_CHARS): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '' && !WRAPPER_TAG.test(l.trim()))
      ?.trim() ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** The call's input parsed, or `undefined` when it is not a JSON object (a model may send invalid JSON). */
export function parseToolInput(input: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(input);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the call was about, one line: `npm test`, `src/app.ts`; empty when the input says nothing. */
export function toolCallSubject(call: Pick<ToolCallPart, 'name' | 'input'>): string {
  const input = parseToolInput(call.input);
  if (!input) return firstLine(call.input);
  const field = TOOL_SUBJECT_FIELD[call.name];
  const value = field !== undefined ? input[field] : Object.values(input).find((v) => typeof v === 'string');
  return typeof value === 'string' ? firstLine(value) : '';
}

/** The call as one line: `bash: npm test`, or the name alone. */
export function toolCallLine(call: Pick<ToolCallPart, 'name' | 'input'>): string {
  const subject = toolCallSubject(call);
  return subject ? `${call.name}: ${subject}` : call.name;
}

/**
 * The line a built-in tool writes in place of output when the command printed nothing, by tool, so
 * a summary says `no output` rather than `1 line: no output`. Example per row: the result content.
 */
export const EMPTY_OUTPUT_MARKER: Readonly<Record<string, string>> = {
  bash: 'no output', // `true` → "no output"; `cd src` → "no output\n(the working directory is now /repo/src)"
};

/** A note bash adds around the output (`(ran in /x)`, `(the working directory is now /x)`), not output itself. */
const BASH_NOTE = /^\(.*\)$/;

/**
 * A result's size and first line, e.g. `error, 3 lines: FAIL test/add.test.ts`; `no output` when
 * empty or when it is only the tool's {@link EMPTY_OUTPUT_MARKER} (with bash's notes after it in
 * parentheses: `no output (the working directory is now /repo/src)`).
 */
export function toolResultLine(result: Pick<ToolResultPart, 'content' | 'isError'> & { name?: string }): string {
  const marker = result.name !== undefined ? EMPTY_OUTPUT_MARKER[result.name] : undefined;
  if (marker !== undefined && !result.isError) {
    const lines = result.content.replace(/\n+$/, '').split('\n');
    const notes = lines.filter((l) => BASH_NOTE.test(l));
    if (lines.length === notes.length + 1 && lines.includes(marker)) {
      return notes.length === 0 ? 'no output' : `no output ${firstLine(notes.join('\n'))}`;
    }
  }
  const lines = result.content === '' ? 0 : result.content.replace(/\n$/, '').split('\n').length;
  const head = firstLine(result.content);
  const size = lines === 0 ? 'no output' : `${lines} line${lines === 1 ? '' : 's'}`;
  return `${result.isError ? 'error, ' : ''}${size}${head ? `: ${head}` : ''}`;
}
