/**
 * `opencode sessions show ID`: a session as plain text for a terminal or a pipe. Tool calls
 * are one line each with their result's summary under them; thinking is named, not printed.
 *
 * ```
 * Fix the add test
 * session 3f2a9c1e-…  ·  updated 2026-12-01 14:03  ·  6 messages  ·  $0.0123
 *
 * ── you · 2026-12-01 14:02
 * the add test fails; fix it
 *
 * ── assistant · anthropic/claude-sonnet-5-5 · 2026-12-01 14:02
 * Looking at the test.
 *   ▸ bash: npm test
 *     error, 12 lines: FAIL test/add.test.ts
 * Fixed: add() returned a - b.
 * ```
 */
import { Chalk } from 'chalk';
import type { Session } from '../db/session-store.js';
import type { Message } from '../message.js';
import { conversationEntries, costText, endedText, localTime } from './conversation.js';
import { toolCallLine, toolResultLine } from './tool-summary.js';

const ROLE_NAMES = {
  user: 'you',
  assistant: 'assistant',
  system: 'system',
  summary: 'summary (compacted history)',
  note: 'note (files undone or redone)',
} as const;

/** The session as text; `color` adds ANSI styles (only when stdout is a terminal). Ends with a newline. */
export function formatSessionText(session: Session, messages: readonly Message[], options: { color: boolean }): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const lines: string[] = [c.bold(session.title || '(untitled)')];
  const meta = [
    `session ${session.id}`,
    ...(session.parentSessionId ? [`sub-agent of ${session.parentSessionId}`] : []),
    `updated ${localTime(session.updatedAt)}`,
    `${session.messageCount} message${session.messageCount === 1 ? '' : 's'}`,
    costText(session.costUsd),
  ];
  lines.push(c.dim(meta.join('  ·  ')));
  for (const entry of conversationEntries(session, messages)) {
    switch (entry.kind) {
      case 'heading': {
        const head = [
          '──',
          ROLE_NAMES[entry.role],
          ...(entry.model ? [`· ${entry.model}`] : []),
          `· ${localTime(entry.time)}`,
        ].join(' ');
        lines.push('', c.bold(head));
        break;
      }
      case 'text':
        lines.push(entry.text.replace(/\n+$/, ''));
        break;
      case 'thinking':
        lines.push(c.dim(`(thinking, ${entry.text.length} characters)`));
        break;
      case 'image':
        lines.push(c.dim(`[image${entry.name ? ` ${entry.name}` : ''}, ${entry.mimeType}, ${entry.bytes} bytes]`));
        break;
      case 'tool': {
        lines.push(c.cyan(`  ▸ ${toolCallLine(entry.call)}`));
        const result = entry.result ? toolResultLine(entry.result) : 'no result';
        lines.push(`    ${entry.result?.isError ? c.red(result) : c.dim(result)}`);
        break;
      }
      case 'orphan_result':
        lines.push(
          c.dim(`  ◂ result of ${entry.result.name} (${entry.result.toolCallId}): ${toolResultLine(entry.result)}`),
        );
        break;
      case 'ended':
        lines.push(c.yellow(`[${endedText(entry.reason, entry.message)}]`));
        break;
    }
  }
  return `${lines.join('\n')}\n`;
}
