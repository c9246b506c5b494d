/**
 * `opencode sessions export ID --format md`: a session as markdown a person can read, or paste into a
 * GitHub issue. Each turn is a `### You` / `### Assistant` section; a tool call is a
 * collapsed `<details>` block with its input and (cut) output; thinking is collapsed too. Code fences
 * are longer than any backtick run inside them, so a result holding ``` cannot break out.
 */
import type { Session } from '../db/session-store.js';
import type { Message } from '../message.js';
import { conversationEntries, costText, endedText, localTime, totalTokens } from './conversation.js';
import { parseToolInput, toolCallLine, toolResultLine } from './tool-summary.js';

/** Characters of a tool's output kept in the markdown (first half and last half); GitHub caps an issue at 65,536. */
export const MARKDOWN_OUTPUT_MAX_CHARS = 4000;

const HEADINGS = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  summary: 'Summary (the history before it was compacted)',
  note: 'Note (files undone or redone)',
} as const;

/** What the markdown of one session needs; `children` resolves a sub-agent session by id (for `agent` calls). */
export interface MarkdownSource {
  session: Session;
  messages: readonly Message[];
  children?: (sessionId: string) => { session: Session; messages: readonly Message[] } | undefined;
}

/** The markdown document, ending with a newline. */
export function formatSessionMarkdown(source: MarkdownSource): string {
  const { session } = source;
  const lines = [
    `# ${escapeInline(session.title || 'Untitled session')}`,
    '',
    `- Session: \`${session.id}\``,
    `- Created: ${localTime(session.createdAt)}, updated: ${localTime(session.updatedAt)}`,
    `- Messages: ${session.messageCount}, tokens: ${totalTokens(session)}, cost: ${costText(session.costUsd)}`,
    '',
    ...body(source, 3, 0),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function body(source: MarkdownSource, level: number, depth: number): string[] {
  const out: string[] = [];
  for (const entry of conversationEntries(source.session, source.messages)) {
    switch (entry.kind) {
      case 'heading':
        out.push('', `${'#'.repeat(level)} ${HEADINGS[entry.role]}${entry.model ? ` (${entry.model})` : ''}`, '');
        break;
      case 'text':
        out.push(entry.text.replace(/\n+$/, ''), '');
        break;
      case 'thinking':
        out.push('<details><summary>Thinking</summary>', '', quote(entry.text), '', '</details>', '');
        break;
      case 'image':
        out.push(
          `*[image${entry.name ? ` ${escapeInline(entry.name)}` : ''}, ${entry.mimeType}, ${entry.bytes} bytes]*`,
          '',
        );
        break;
      case 'tool': {
        const { call, result } = entry;
        const input = parseToolInput(call.input);
        out.push(
          `<details><summary>${escapeHtml(toolCallLine(call))} — ${escapeHtml(result ? toolResultLine(result) : 'no result')}</summary>`,
          '',
        );
        out.push('Input:', '', fenced(input ? JSON.stringify(input, null, 2) : call.input, 'json'), '');
        if (result) out.push(result.isError ? 'Error:' : 'Output:', '', fenced(cut(result.content)), '');
        const child =
          call.name === 'agent' && typeof result?.metadata?.sessionId === 'string'
            ? source.children?.(result.metadata.sessionId)
            : undefined;
        if (child && depth < 4) {
          out.push(
            `Sub-agent session \`${child.session.id}\`:`,
            '',
            ...body({ ...child, children: source.children }, Math.min(level + 1, 6), depth + 1),
            '',
          );
        }
        out.push('</details>', '');
        break;
      }
      case 'orphan_result':
        out.push(
          `*Result of ${escapeInline(entry.result.name)} (${entry.result.toolCallId}):*`,
          '',
          fenced(cut(entry.result.content)),
          '',
        );
        break;
      case 'ended':
        out.push(`*[${escapeInline(endedText(entry.reason, entry.message))}]*`, '');
        break;
    }
  }
  return out;
}

/** `text` in a fence longer than any run of backticks in it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

function quote(text: string): string {
  return text
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

/** `text` cut to {@link MARKDOWN_OUTPUT_MAX_CHARS}, keeping its start and end around a note. */
function cut(text: string): string {
  if (text.length <= MARKDOWN_OUTPUT_MAX_CHARS) return text;
  const half = MARKDOWN_OUTPUT_MAX_CHARS / 2;
  return `${text.slice(0, half)}\n… ${text.length - MARKDOWN_OUTPUT_MAX_CHARS} characters cut …\n${text.slice(-half)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Markdown characters that would change a one-line title or note. */
function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1').replace(/\n/g, ' ');
}
