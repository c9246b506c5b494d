/**
 * One chat item (a user or assistant message) drawn as terminal lines for the message list
 * (as the original draws it). Pure: the same item, options and theme give the same lines, which is what lets
 * {@link LineCache} keep them.
 *
 * Layout: a user message sits behind a `┃ ` bar in the secondary colour, attachments as `[name]`.
 * An assistant message is its parts in order, a blank line between them: thinking (muted italic),
 * text as markdown, tool calls (see tool-lines.ts), then the reply's footer. No blank line at the
 * start or end: spacing between items is the list's job. A text past 256 KiB (HUGE_TEXT_CHARS) is laid
 * out lazily and, in a reply, not lexed as markdown (lazy-rows.ts).
 */
import chalk from 'chalk';
import type { ImagePart, ReasoningPart, TextPart, ToolCallPart } from '../../message.js';
import type { ChatItem, RenderOptions, ReplyFooter, ToolCallView } from '../state/chat-item.js';
import type { Theme } from '../theme.js';
import { REFUSAL_HINT } from '../../agent/reply-end.js';
import { HUGE_TEXT_CHARS, hugeTextRows, LazyWrappedText } from './lazy-rows.js';
import { renderMarkdown } from './markdown.js';
import { mapRows, RowSeq, type Rows } from './rows.js';
import { renderStreamingMarkdown } from './streaming-markdown.js';
import { fitLine, wrapText } from './text-width.js';
import { renderToolCall } from './tool-lines.js';

/** Options of {@link renderChatItem}: the cached {@link RenderOptions} plus the project directory. */
export type ChatItemRenderOptions = RenderOptions & {
  /** paths inside it are shown relative in tool calls */
  cwd?: string;
  /** the key that shows finished thinking, named on its collapsed line (the keymap's; default ctrl+y; `''`: none) */
  thinkingKey?: string;
};

/** Thinking lines shown while a message streams (the newest ones). */
export const STREAMING_THINKING_LINES = 6;

/**
 * A text part longer than this is shown while it streams as its last {@link STREAMING_TAIL_CHARS}
 * characters, wrapped as plain text, below a note: laying out a growing megabyte on every frame froze
 * the screen. The finished message is shown whole, its rows cut when shown (lazy-rows.ts).
 */
export const STREAMING_FULL_MAX_CHARS = 256 * 1024;

/** Characters of a long streaming text part shown while it streams (~550 rows at 120 columns). */
export const STREAMING_TAIL_CHARS = 64 * 1024;

/** The table's key that shows finished thinking in full, when the caller names none. */
const SHOW_THINKING_KEY = 'ctrl+y';

const USER_BAR = '┃ ';
const NOTE_UNDO_MARK = '↶ ';
const NOTE_REDO_MARK = '↷ ';

/**
 * Draws one chat item as lines of at most `options.width` columns, none containing `\n`, with no
 * leading or trailing blank line. See the module comment for the layout.
 */
export function renderChatItem(item: ChatItem, options: ChatItemRenderOptions, theme: Theme): string[] {
  const rows = layoutChatItem(item, options, theme);
  return Array.isArray(rows) ? (rows as string[]) : rows.slice();
}

/**
 * {@link renderChatItem}'s rows as {@link Rows}: an array for an item of normal size; for one holding
 * a text past {@link HUGE_TEXT_CHARS} (a reply, a user message, shown thinking), rows that are cut
 * from the text only when read (lazy-rows.ts), so opening a session with a 1 MiB line lays out only
 * what is on screen.
 */
export function layoutChatItem(item: ChatItem, options: ChatItemRenderOptions, theme: Theme): Rows {
  const width = Math.max(1, options.width);
  const sections =
    item.role === 'user' ? [userLines(item, width, theme)] : assistantSections(item, { ...options, width }, theme);
  const fit = (line: string) => fitLine(line, width);
  const parts: Rows[] = [];
  for (const section of sections) {
    if (section.length === 0) continue;
    if (parts.length) parts.push(['']);
    parts.push(Array.isArray(section) ? (section as string[]).map(fit) : mapRows(section, fit));
  }
  if (parts.every((part) => Array.isArray(part))) return (parts as string[][]).flat();
  return new RowSeq(parts);
}

function userLines(item: ChatItem, width: number, theme: Theme): Rows {
  const note = noteLines(item, width, theme);
  if (note) return note;
  const room = Math.max(1, width - USER_BAR.length);
  const text = item.message.parts
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('')
    .replace(/\n+$/, '');
  const bar = chalk.hex(theme.secondary)(USER_BAR);
  const attachments = item.message.parts
    .filter((p): p is ImagePart => p.type === 'image')
    .map((p) => `[${p.name ?? p.mimeType}]`);
  const attachmentLines = attachments.length
    ? wrapText(attachments.join(' '), room).map((l) => bar + chalk.hex(theme.textMuted)(l))
    : [];
  if (text.length > HUGE_TEXT_CHARS) {
    const style = chalk.hex(theme.text);
    return new RowSeq([mapRows(new LazyWrappedText(text, room), (l) => bar + style(l)), attachmentLines]);
  }
  const lines = text === '' ? [] : wrapText(text, room).map((l) => bar + chalk.hex(theme.text)(l));
  lines.push(...attachmentLines);
  if (lines.length === 0) lines.push(bar);
  return lines;
}

/**
 * A note opencode wrote into the conversation (an undo or redo, `TextPart.note`), muted
 * behind `↶ ` / `↷ ` so it does not read as the person's words; undefined for a person's message.
 */
function noteLines(item: ChatItem, width: number, theme: Theme): string[] | undefined {
  const texts = item.message.parts.filter((p): p is TextPart => p.type === 'text');
  if (texts.length === 0 || !texts.every((p) => p.note)) return undefined;
  const mark = texts[0]!.note === 'redo' ? NOTE_REDO_MARK : NOTE_UNDO_MARK;
  const muted = chalk.hex(theme.textMuted);
  const text = texts
    .map((p) => p.text)
    .join('')
    .replace(/\n+$/, '');
  return wrapText(text, Math.max(1, width - mark.length)).map((line, i) =>
    muted((i === 0 ? mark : ' '.repeat(mark.length)) + line),
  );
}

/** An assistant message's sections in order (thinking, text, tool calls, footer), empty ones included. */
function assistantSections(item: ChatItem, options: ChatItemRenderOptions, theme: Theme): Rows[] {
  const { width } = options;
  const sections: Rows[] = [];
  const views = new Map(item.tools.map((v) => [v.call.id, v]));
  const drawn = new Set<ToolCallView>();
  const parts = item.message.parts;
  let hasText = false;

  parts.forEach((part, index) => {
    if (part.type === 'reasoning') {
      sections.push(
        thinkingLines(
          part,
          item.streaming,
          options.showThinking,
          width,
          theme,
          options.thinkingKey ?? SHOW_THINKING_KEY,
        ),
      );
    } else if (part.type === 'text') {
      if (part.text.trim()) hasText = true;
      // only the part still being written can end mid-line or inside an open code fence
      const writing = item.streaming && index === parts.length - 1;
      if (writing && part.text.length > STREAMING_FULL_MAX_CHARS)
        sections.push(streamingTailLines(part.text, width, theme));
      else if (writing) sections.push(renderStreamingMarkdown(`${item.id}:${index}`, part.text, width, theme));
      else
        sections.push(
          part.text.length > HUGE_TEXT_CHARS
            ? hugeTextRows(part.text, width, theme)
            : renderMarkdown(part.text, width, theme),
        );
    } else if (part.type === 'tool_call') {
      const view = views.get(part.id) ?? { call: part as ToolCallPart };
      drawn.add(view);
      sections.push(renderToolCall(view, options, theme));
    }
  });
  // results may arrive for calls the message doesn't list (defensive: the store owns that invariant)
  for (const view of item.tools) if (!drawn.has(view)) sections.push(renderToolCall(view, options, theme));
  if (item.footer) sections.push(footerLines(item.footer, hasText || item.tools.length > 0, width, theme));
  return sections;
}

/** The end of a long streaming text (see {@link STREAMING_FULL_MAX_CHARS}), from a line start when one is near. */
function streamingTailLines(text: string, width: number, theme: Theme): string[] {
  let start = text.length - STREAMING_TAIL_CHARS;
  const lineStart = text.indexOf('\n', start);
  if (lineStart !== -1 && lineStart - start < 4096) start = lineStart + 1;
  // a UTF-16 pair cut in two would show a replacement character
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  const note = `… ${start.toLocaleString('en-US')} characters above; the whole reply is shown when it finishes`;
  return [chalk.hex(theme.textMuted)(note), ...wrapText(text.slice(start), width)];
}

function thinkingLines(
  part: ReasoningPart,
  streaming: boolean,
  showThinking: boolean,
  width: number,
  theme: Theme,
  key: string,
): Rows {
  const text = part.thinking.trim();
  if (!text) return [];
  const style = chalk.italic.hex(theme.textMuted);
  if (streaming)
    return wrapText(text, width)
      .slice(-STREAMING_THINKING_LINES)
      .map((l) => style(l));
  if (!showThinking) {
    const count = text.split('\n').length;
    return [style(`Thinking (${count} line${count === 1 ? '' : 's'})${key ? ` — ${key} to show` : ''}`)];
  }
  if (text.length > HUGE_TEXT_CHARS) return mapRows(new LazyWrappedText(text, width), (l) => style(l));
  return wrapText(text, width).map((l) => style(l));
}

/**
 * The reply's footer text: `model (12.3s)` for a normal finish, `canceled` (`interrupted: <note>` when a
 * crash cut it off), `error: <message>`,
 * `permission denied`, `step limit: <message>`, or `finished without output` for an end_turn that
 * wrote nothing. `hasOutput`: the message has text or tool calls.
 */
export function footerText(footer: ReplyFooter, hasOutput: boolean): string {
  switch (footer.reason) {
    case 'canceled':
      // a reply cut off by a crash carries the repair's note (agent/history.ts); one the person canceled has none
      return footer.message ? `interrupted: ${oneLine(footer.message)}` : 'canceled';
    case 'error':
      return footer.message ? `error: ${oneLine(footer.message)}` : 'error';
    case 'permission_denied':
      return 'permission denied';
    case 'step_limit':
      return footer.message ? `step limit: ${oneLine(footer.message)}` : 'step limit';
    case 'refusal':
      return `${oneLine(footer.message ?? 'The model declined to answer')} (${REFUSAL_HINT})`;
    case 'unknown':
      return footer.message ? `warning: ${oneLine(footer.message)}` : modelAndDuration(footer);
    case 'end_turn':
      if (!hasOutput) return 'finished without output';
      return modelAndDuration(footer);
    default:
      return modelAndDuration(footer);
  }
}

/** The footer, wrapped: an error's explanation is the part worth reading, often at its end. */
function footerLines(footer: ReplyFooter, hasOutput: boolean, width: number, theme: Theme): string[] {
  const warn = footer.reason === 'refusal' || (footer.reason === 'unknown' && footer.message);
  const colour = chalk.hex(footer.reason === 'error' ? theme.error : warn ? theme.warning : theme.textMuted);
  return wrapText(footerText(footer, hasOutput), width).map((line) => colour(line));
}

/**
 * `Claude Sonnet 5.5 (12.3s)`: the model's display name (its id without the provider when it has
 * none), the duration in seconds (minutes past 60 s).
 */
function modelAndDuration(footer: ReplyFooter): string {
  const model = footer.modelName ?? (footer.model ? footer.model.slice(footer.model.indexOf('/') + 1) : '');
  const duration = footer.durationMs === undefined ? '' : formatDuration(footer.durationMs);
  if (model && duration) return `${model} (${duration})`;
  return model || duration;
}

/** `850ms` → `0.9s`, `12345` → `12.3s`, `125000` → `2m 5s`. */
export function formatDuration(ms: number): string {
  const tenths = Math.round(Math.max(0, ms) / 100);
  // 59.97 s would round to "60.0s": switch to minutes where the rounded value does
  if (tenths < 600) return `${(tenths / 10).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
