/**
 * One tool call drawn as terminal lines: a header `● Bash  npm test`, nested sub-agent calls, then
 * the body: while running the progress label (or, for bash, the tail of its output so far), after
 * it the first {@link RESULT_MAX_LINES} lines of the result (as the original; {@link EXPANDED_MAX_LINES}
 * once the person expanded it): edit/write/patch show their diff, view a highlighted code block of
 * the file, bash its output as a code block, errors in the error colour.
 */
import chalk from 'chalk';
import { CONTENT_LINES_KEY, type ChatItem, type ToolCallView } from '../state/chat-item.js';
import type { Theme } from '../theme.js';
import { renderDiff } from './diff.js';
import { languageForPath } from './highlight.js';
import { renderCodeBlock, renderMarkdown } from './markdown.js';
import { fitLine, normalizeText, wrapText } from './text-width.js';
import { parseToolInput, toolKeyParam, toolProgressLabel, toolTitle } from './tool-view.js';

/** Result lines shown under a finished call; the rest is summed up in `… (N more lines)`. */
export const RESULT_MAX_LINES = 10;

/**
 * Result lines shown under an expanded call (`messages.expand`); a longer result still
 * ends in `… (N more lines)`, and the pager (`messages.pager`) shows it whole.
 */
export const EXPANDED_MAX_LINES = 500;

/** Lines of live bash output shown while the command runs. */
export const PROGRESS_MAX_LINES = 10;

/** Columns the body of a call is indented by, under its header. */
const BODY_INDENT = '  ';

/** The options the tool views need. */
export interface ToolLineOptions {
  width: number;
  /** the project directory: paths inside it are shown relative */
  cwd?: string;
}

/** How a result's text is drawn, by tool name; tools not listed show plain muted text. */
const RESULT_STYLE: Record<string, 'diff' | 'file' | 'output' | 'markdown'> = {
  edit: 'diff', // the unified diff in metadata.diff
  write: 'diff',
  patch: 'diff',
  view: 'file', // the file's lines, highlighted by its extension
  bash: 'output', // stdout/stderr as a code block
  agent: 'markdown', // the sub-agent's answer
  fetch: 'markdown',
};

/** The call's header line: a dot (muted while running, success or error once done), the title, the key parameter. */
export function toolHeaderLine(view: ToolCallView, options: ToolLineOptions, theme: Theme): string {
  const dotColour = !view.result ? theme.textMuted : view.result.isError ? theme.error : theme.success;
  const param = toolKeyParam(view, options.cwd);
  const line = `${chalk.hex(dotColour)('●')} ${chalk.bold.hex(theme.accent)(toolTitle(view))}${param ? `  ${chalk.hex(theme.text)(param)}` : ''}`;
  return fitLine(line, options.width);
}

/**
 * Draws one tool call: header, the sub-agent's calls (header lines only, indented by 2), then the
 * progress or result body indented by 2. Lines are at most `options.width` columns.
 */
export function renderToolCall(view: ToolCallView, options: ToolLineOptions, theme: Theme): string[] {
  const lines = [toolHeaderLine(view, options, theme)];
  for (const child of view.children ?? []) lines.push(...nestedToolLines(child, options, theme));
  if (view.result) {
    const body = resultBody(view, options, theme);
    lines.push(...withCut(body.lines, body.hidden, theme));
  } else lines.push(...progressLines(view, options, theme));
  return lines.map((line) => fitLine(line, options.width));
}

/**
 * Whether the call's result can be expanded or collapsed: it is expanded, or lines of
 * it are cut. False while the call runs.
 */
export function isExpandable(view: ToolCallView, options: ToolLineOptions, theme: Theme): boolean {
  if (!view.result) return false;
  return view.expanded === true || resultBody(view, options, theme).hidden > 0;
}

/** A sub-agent's tool calls, one header line each, indented by 2 (its own sub-agents further). */
function nestedToolLines(child: ChatItem, options: ToolLineOptions, theme: Theme): string[] {
  const inner = { ...options, width: Math.max(1, options.width - BODY_INDENT.length) };
  const lines: string[] = [];
  for (const view of child.tools) {
    lines.push(BODY_INDENT + toolHeaderLine(view, inner, theme));
    for (const grandchild of view.children ?? [])
      lines.push(...nestedToolLines(grandchild, inner, theme).map((l) => BODY_INDENT + l));
  }
  return lines;
}

function progressLines(view: ToolCallView, options: ToolLineOptions, theme: Theme): string[] {
  if (view.interrupted)
    return [BODY_INDENT + chalk.hex(theme.textMuted)('interrupted: no result (the process ended while it ran)')];
  if (view.call.name === 'bash' && !view.mcpServer && view.progress?.trim()) {
    const tail = lastLines(normalizeText(view.progress).replace(/\n+$/, ''), PROGRESS_MAX_LINES);
    return renderCodeBlock(tail, undefined, options.width, theme).slice(-PROGRESS_MAX_LINES);
  }
  return [BODY_INDENT + chalk.hex(theme.textMuted)(toolProgressLabel(view))];
}

/** A finished call's body: its result's lines (at most the call's limit) and how many were left out. */
function resultBody(view: ToolCallView, options: ToolLineOptions, theme: Theme): { lines: string[]; hidden: number } {
  const result = view.result!;
  const max = view.expanded ? EXPANDED_MAX_LINES : RESULT_MAX_LINES;
  const room = Math.max(1, options.width - BODY_INDENT.length);
  const style = view.mcpServer ? undefined : RESULT_STYLE[view.call.name];
  const muted = chalk.hex(theme.textMuted);
  const first = (text: string, total?: unknown) => firstLines(text, max, total);

  if (result.isError) {
    const { text, hidden } = first(result.content, result.metadata?.[CONTENT_LINES_KEY]);
    return { lines: wrapText(text, room).map((l) => BODY_INDENT + chalk.hex(theme.error)(l)), hidden };
  }
  if (style === 'diff' && typeof result.metadata?.diff === 'string' && result.metadata.diff !== '') {
    const diff = renderDiff(result.metadata.diff, room, theme).map((l) => BODY_INDENT + l);
    return { lines: diff.slice(0, max), hidden: diff.length - Math.min(diff.length, max) };
  }
  if (style === 'file') {
    const path =
      stringField(result.metadata?.file_path) ?? stringField(parseToolInput(view.call.input).file_path) ?? '';
    const { text, hidden } = first(stringField(result.metadata?.content) ?? viewedText(result.content));
    return { lines: renderCodeBlock(text, languageForPath(path), options.width, theme), hidden };
  }
  if (style === 'output') {
    const { text, hidden } = first(result.content, result.metadata?.[CONTENT_LINES_KEY]);
    return { lines: renderCodeBlock(text, undefined, options.width, theme), hidden };
  }
  if (style === 'markdown') {
    const { text, hidden } = first(result.content, result.metadata?.[CONTENT_LINES_KEY]);
    return { lines: renderMarkdown(text, room, theme).map((l) => BODY_INDENT + l), hidden };
  }
  if (result.content.trim() === '') return { lines: [], hidden: 0 };
  const { text, hidden } = first(result.content, result.metadata?.[CONTENT_LINES_KEY]);
  return { lines: wrapText(text, room).map((l) => BODY_INDENT + muted(l)), hidden };
}

/** The first `max` lines of `text` (trailing newlines ignored) and how many were left out. */
function firstLines(text: string, max: number, totalLines?: unknown): { text: string; hidden: number } {
  const lines = normalizeText(text).replace(/\n+$/, '').split('\n');
  // a result cut for display knows how long the whole one was
  const total = typeof totalLines === 'number' ? Math.max(totalLines, lines.length) : lines.length;
  return { text: lines.slice(0, max).join('\n'), hidden: Math.max(0, total - max) };
}

function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).join('\n');
}

function withCut(lines: string[], hidden: number, theme: Theme): string[] {
  if (hidden <= 0) return lines;
  return [...lines, BODY_INDENT + chalk.hex(theme.textMuted)(`… (${hidden} more line${hidden === 1 ? '' : 's'})`)];
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The file text inside a view result for the model (`<file>`, `     1|line` rows, a trailing note),
 * for results without `metadata.content` (src/tools/view.ts).
 */
export function viewedText(content: string): string {
  const rows = content.replace(/\r\n/g, '\n').split('\n');
  const numbered = rows.filter((row) => /^\s*\d+\|/.test(row));
  if (numbered.length === 0) return content;
  return numbered.map((row) => row.replace(/^\s*\d+\|/, '')).join('\n');
}
