/**
 * A stored conversation as a list of entries a reader follows: what the person wrote, what
 * the model answered, each tool call together with its result (stored in the next message), and how a
 * reply ended when it did not end normally. `show` and the markdown export render these entries. Pure.
 */
import type { Session } from '../db/session-store.js';
import type { FinishReason, Message, ToolCallPart, ToolResultPart } from '../message.js';

/** One thing to render, in conversation order. */
export type ConversationEntry =
  | { kind: 'heading'; role: 'user' | 'assistant' | 'system' | 'summary' | 'note'; model?: string; time: number }
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'image'; name?: string; mimeType: string; bytes: number }
  | { kind: 'tool'; call: ToolCallPart; result?: ToolResultPart }
  /** a tool result whose call is not in the conversation (a damaged history) */
  | { kind: 'orphan_result'; result: ToolResultPart }
  | { kind: 'ended'; reason: FinishReason; message?: string };

/** Finish reasons a reader is told about; the others (`end_turn`, `tool_use`) are how a reply normally ends. */
const NOTED_REASONS: ReadonlySet<FinishReason> = new Set([
  'max_tokens',
  'canceled',
  'error',
  'permission_denied',
  'step_limit',
  'refusal',
  'pause_turn',
  'unknown',
]);

/**
 * The entries of `messages` (one session, in `seq` order). Tool messages are folded into the calls
 * they answer; consecutive assistant messages of one reply share one heading.
 */
export function conversationEntries(
  session: Pick<Session, 'summaryMessageId'>,
  messages: readonly Message[],
): ConversationEntry[] {
  const results = new Map<string, ToolResultPart>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool_result') results.set(p.toolCallId, p);
  const called = new Set(messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []))));

  const out: ConversationEntry[] = [];
  let lastRole: string | undefined;
  for (const m of messages) {
    const isSummary = m.id === session.summaryMessageId;
    if (m.role !== 'tool') {
      // an undo/redo note is the app's words to the model, not the person's
      const isNote =
        m.role === 'user' && m.parts.length > 0 && m.parts.every((p) => p.type === 'text' && p.note !== undefined);
      const role = isSummary ? 'summary' : isNote ? 'note' : m.role;
      // a reply's steps (assistant, tool, assistant, …) read as one answer
      if (role !== 'assistant' || lastRole !== 'assistant') {
        out.push({
          kind: 'heading',
          role,
          ...(m.model && role === 'assistant' ? { model: m.model } : {}),
          time: m.createdAt,
        });
      }
      lastRole = role;
    }
    for (const p of m.parts) {
      switch (p.type) {
        case 'text':
          if (p.text.trim()) out.push({ kind: 'text', text: p.text });
          break;
        case 'reasoning':
          if (p.thinking.trim()) out.push({ kind: 'thinking', text: p.thinking });
          break;
        case 'image':
          out.push({
            kind: 'image',
            ...(p.name ? { name: p.name } : {}),
            mimeType: p.mimeType,
            bytes: Math.floor((p.data.length * 3) / 4),
          });
          break;
        case 'tool_call': {
          const result = results.get(p.id);
          out.push(result ? { kind: 'tool', call: p, result } : { kind: 'tool', call: p });
          break;
        }
        case 'tool_result':
          if (!called.has(p.toolCallId)) out.push({ kind: 'orphan_result', result: p });
          break;
        case 'finish':
          if (NOTED_REASONS.has(p.reason))
            out.push({ kind: 'ended', reason: p.reason, ...(p.message ? { message: p.message } : {}) });
          break;
      }
    }
  }
  return out;
}

/** How a reply ended, for people: `canceled`, `error: overloaded`, `stopped at the output limit`. */
export function endedText(reason: FinishReason, message?: string): string {
  const base: Record<FinishReason, string> = {
    end_turn: 'done',
    tool_use: 'tool use',
    max_tokens: 'cut at the output limit',
    canceled: 'canceled',
    error: 'error',
    permission_denied: 'permission denied',
    step_limit: 'step limit reached',
    refusal: 'left out of later requests',
    pause_turn: 'paused by the provider and continued',
    unknown: 'ended for an unknown reason',
  };
  // a refusal's message is the provider's explanation, and says first what happened
  if (reason === 'refusal')
    return `${(message ?? 'The model declined to answer').replace(/\.$/, '')}; the prompt is ${base.refusal}`;
  return message ? `${base[reason]}: ${message}` : base[reason];
}

/** `YYYY-MM-DD HH:MM` in the local time zone. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** US dollars for people: `$0.0123` under a dollar, `$4.56` from a dollar on. */
export function costText(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Tokens sent and received over the session (input, cache reads and writes, output). */
export function totalTokens(
  s: Pick<Session, 'promptTokens' | 'completionTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>,
): number {
  return s.promptTokens + s.completionTokens + s.cacheReadTokens + s.cacheWriteTokens;
}

/** USD to the millionth, for JSON (a sum of float prices prints as 0.00020999999999999998 otherwise). */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
