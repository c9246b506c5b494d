/**
 * Compaction (the original's, with its weaknesses fixed: the history trimmed, counts cumulative): the session's history since
 * the last summary goes to the summarizer model, whose answer is stored as an assistant message in the
 * same session and recorded as `summaryMessageId`; later requests send only the summary (rewritten to
 * the user role by `historyForProvider`) and what follows it.
 *
 * Differences from the original:
 * - The history goes to the summarizer as a plain-text transcript in one user message, not as the raw
 *   messages: the request carries no tool definitions, and Anthropic rejects `tool_use` blocks without
 *   them; thinking blocks (bound to their model) are left out for the same reason.
 * - The transcript is trimmed to fit the summarizer's context window: each tool result and tool input
 *   is cut to a bounded size, and the oldest messages are dropped first.
 * - Token counts stay cumulative (`addUsage`), and the context size after compaction is the summary's
 *   size (its output tokens), not zero.
 * - The summarizer sees the project's rules (the coder's context files), so the summary keeps what
 *   they require; the original's summarizer saw the conversation alone.
 */
import { abortError } from '../abort.js';
import type { Message, Usage } from '../message.js';
import type { EventBus } from '../events/bus.js';
import type { ModelInfo, Provider } from '../provider/types.js';
import type { AgentEvents } from './events.js';
import { historyForProvider } from './history.js';
import { systemPrompt, type PromptEnvironment } from './prompts.js';

/** What compaction needs of storage; the SQLite stores in `db/` satisfy it. */
export interface CompactStore {
  sessions: {
    get(id: string): { id: string; summaryMessageId?: string | null } | undefined;
    /** adds to the totals; `contextTokens` replaces the current context size */
    addUsage(id: string, usage: Usage, costUsd: number, contextTokens?: number): unknown;
    setSummaryMessage(id: string, messageId: string | null): unknown;
  };
  messages: {
    create(input: { sessionId: string; role: 'assistant'; parts: Message['parts']; model?: string }): Message;
    list(sessionId: string): Message[];
    finish(message: Message): void;
  };
}

export interface CompactDeps {
  /** the summarizer model's provider; its `contextWindowTokens` bounds the transcript */
  provider: Provider;
  store: CompactStore;
  bus: EventBus<AgentEvents>;
  /** output cap of the summary, tokens (at most half the summarizer's window is used) */
  maxTokens: number;
  /** USD cost of a call's usage */
  computeCost: (model: ModelInfo, usage: Usage) => number;
  /**
   * The project the session works in: its context files (AGENTS.md, OpenCode.md, … as in the
   * coder's prompt) go into the summarizer's prompt so the summary keeps what they require. Read at
   * each compaction. Without it the summarizer sees the conversation alone.
   */
  promptEnvironment?: () => PromptEnvironment;
}

export interface CompactResult {
  summaryMessageId: string;
  /** tokens of the summarizer call */
  usage: Usage;
  /** USD of the summarizer call */
  costUsd: number;
}

/** The instruction after the transcript. */
export const SUMMARIZE_INSTRUCTION = `Summarise the conversation above. Your summary replaces it: the work continues from the summary alone, so keep every fact the work depends on (file paths, commands, decisions, errors and their causes) and drop the rest.
Cover: what the user asked for, what has been done, what is being worked on now, which files were read or changed and why, and what the next steps are.
Reply with the summary only.`;

/** Longest tool result kept in the transcript, characters (head and tail are kept). */
export const MAX_TOOL_RESULT_CHARS = 2_000;
/** Longest tool-call input kept in the transcript, characters (a `write` carries a whole file). */
export const MAX_TOOL_INPUT_CHARS = 1_000;
/**
 * Characters per token assumed when fitting the transcript. Code and JSON run at about 3 characters
 * a token, English prose at about 4; the low figure keeps the request inside the window.
 */
export const CHARS_PER_TOKEN = 3;
/** Share of the summarizer's window the request may fill (room for the estimate's error). */
const WINDOW_SHARE = 0.9;
/** Window assumed when the summarizer model's is unknown (0), tokens (the unknown-model default). */
const FALLBACK_WINDOW_TOKENS = 32_768;
/** The transcript always gets at least this many characters, whatever the arithmetic says. */
const MIN_TRANSCRIPT_CHARS = 4_000;

/** Compactions in progress, by session id: a second one for the same session is refused. */
const compacting = new Set<string>();

/**
 * Summarises `sessionId` with `deps.provider` and makes the summary the start of the history sent from
 * now on. Publishes `session.compacting`, then `message.created` (the summary) and `session.compacted`,
 * or `session.compact_failed` when it fails.
 *
 * It does not know about runs: the caller must keep runs of the session out meanwhile (the app wraps it
 * in `Agent.runExclusive`; the agent's auto-compact calls it while holding the session).
 *
 * @throws Error when the session does not exist, has no messages (or nothing since the last summary), is
 *   already being compacted, or the summarizer fails or returns nothing; an `AbortError` when `signal`
 *   aborts. Nothing is stored in those cases (an empty summary's tokens and cost are still added).
 */
export async function compactSession(
  deps: CompactDeps,
  sessionId: string,
  signal?: AbortSignal,
): Promise<CompactResult> {
  const { store, bus, provider } = deps;
  const session = store.sessions.get(sessionId);
  if (!session) throw new Error(`Session ${sessionId} does not exist`);
  if (compacting.has(sessionId)) throw new Error(`Session ${sessionId} is already being compacted`);
  const history = historyForProvider(store.messages.list(sessionId), session.summaryMessageId);
  if (history.length === 0) throw new Error('The session has no messages to compact');
  if (history.length === 1 && history[0]!.id === session.summaryMessageId) {
    throw new Error('The session has nothing new to compact since its last summary');
  }

  compacting.add(sessionId);
  bus.emit('session.compacting', { sessionId });
  try {
    const system = systemPrompt('summarizer', deps.promptEnvironment?.());
    // a summary needs far less than a model's full output cap; half the window leaves room for the transcript
    const window = provider.model.contextWindowTokens > 0 ? provider.model.contextWindowTokens : FALLBACK_WINDOW_TOKENS;
    const maxTokens = Math.max(1, Math.min(deps.maxTokens, Math.floor(window / 2)));
    const budget = transcriptBudgetChars(provider.model, maxTokens, system);
    const transcript = summarizerTranscript(history, budget, session.summaryMessageId);
    const now = Date.now();
    const request: Message = {
      id: `${sessionId}-summarize`,
      sessionId,
      role: 'user',
      seq: 0,
      createdAt: now,
      updatedAt: now,
      parts: [{ type: 'text', text: `<conversation>\n${transcript}\n</conversation>\n\n${SUMMARIZE_INSTRUCTION}` }],
    };
    const { text, usage } = await summarize(provider, system, request, maxTokens, signal);
    const costUsd = deps.computeCost(provider.model, usage);
    if (!text.trim()) {
      // the call was paid for even though it gave nothing: count it, leave the context size alone
      store.sessions.addUsage(sessionId, usage, costUsd);
      throw new Error('The summarizer returned an empty summary');
    }
    const summary = store.messages.create({
      sessionId,
      role: 'assistant',
      parts: [{ type: 'text', text: text.trim() }],
      model: provider.model.id,
    });
    summary.parts.push({ type: 'finish', reason: 'end_turn', time: Date.now() });
    store.messages.finish(summary);
    bus.emit('message.created', { message: summary });
    store.sessions.setSummaryMessage(sessionId, summary.id);
    // totals add up; the context from now on is the summary alone
    store.sessions.addUsage(sessionId, usage, costUsd, usage.output);
    bus.emit('session.updated', { sessionId });
    bus.emit('session.compacted', { sessionId, summaryMessageId: summary.id });
    return { summaryMessageId: summary.id, usage, costUsd };
  } catch (err) {
    const aborted = signal?.aborted === true;
    bus.emit('session.compact_failed', { sessionId, error: aborted ? 'canceled' : (err as Error).message });
    if (aborted) {
      throw abortError('Compaction was canceled');
    }
    throw err;
  } finally {
    compacting.delete(sessionId);
  }
}

/** Streams the summarizer call to its end. @throws the provider's error */
async function summarize(
  provider: Provider,
  system: string,
  request: Message,
  maxTokens: number,
  signal?: AbortSignal,
): Promise<{ text: string; usage: Usage }> {
  const events = provider.stream({ systemPrompt: system, messages: [request], tools: [], maxTokens, signal });
  for await (const event of events) {
    if (event.type === 'error') throw event.error;
    if (event.type === 'complete') return { text: event.response.content, usage: event.response.usage };
  }
  throw new Error('The summarizer stream ended without a final event');
}

/**
 * Characters the transcript may take: the summarizer's window (90 % of it), less the output cap, the
 * system prompt and the instruction, at {@link CHARS_PER_TOKEN}.
 */
export function transcriptBudgetChars(
  model: Pick<ModelInfo, 'contextWindowTokens'>,
  maxTokens: number,
  system: string,
): number {
  const window = model.contextWindowTokens > 0 ? model.contextWindowTokens : FALLBACK_WINDOW_TOKENS;
  const inputTokens = Math.floor(window * WINDOW_SHARE) - maxTokens;
  const chars = inputTokens * CHARS_PER_TOKEN - system.length - SUMMARIZE_INSTRUCTION.length - 100;
  return Math.max(MIN_TRANSCRIPT_CHARS, chars);
}

/**
 * The history as plain text for the summarizer, at most `budgetChars` characters: tool results and
 * inputs cut to {@link MAX_TOOL_RESULT_CHARS} / {@link MAX_TOOL_INPUT_CHARS}, reasoning left out, and the
 * oldest messages dropped first (a note says how many). When even the newest message alone is too long,
 * its end is kept. The message `summaryMessageId` (the previous summary) is labelled as such. Pure.
 */
export function summarizerTranscript(
  history: readonly Message[],
  budgetChars: number,
  summaryMessageId?: string | null,
): string {
  const blocks = history.map((m) => renderMessage(m, m.id === summaryMessageId)).filter((b) => b !== '');
  const kept: string[] = [];
  let used = 0;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    // room for the "left out" note, in case an older message does not fit
    const room = budgetChars - used - (i > 0 ? 100 : 0);
    if (block.length + 2 <= room) {
      kept.unshift(block);
      used += block.length + 2;
      continue;
    }
    if (kept.length === 0) {
      kept.unshift(`[…the start of this message was cut]\n${block.slice(block.length - Math.max(0, room - 50))}`);
      i--;
    }
    const dropped = i + 1;
    if (dropped > 0)
      kept.unshift(
        `[${dropped} earlier message${dropped === 1 ? '' : 's'} left out to fit the summarizer's context window]`,
      );
    break;
  }
  return kept.join('\n\n');
}

function renderMessage(message: Message, isSummary: boolean): string {
  const lines: string[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        if (part.text.trim()) lines.push(part.text);
        break;
      case 'image':
        lines.push(`[image${part.name ? `: ${part.name}` : ''}]`);
        break;
      case 'tool_call':
        lines.push(`[tool call ${part.name}] ${cut(part.input, MAX_TOOL_INPUT_CHARS)}`);
        break;
      case 'tool_result':
        lines.push(
          `[${part.isError ? 'tool error' : 'tool result'} ${part.name}]\n${cut(part.content, MAX_TOOL_RESULT_CHARS)}`,
        );
        break;
      case 'reasoning':
      case 'finish':
        break;
    }
  }
  if (lines.length === 0) return '';
  // historyForProvider gives the earlier summary the user role; name it for what it is
  const label = isSummary ? 'summary of the earlier conversation' : message.role;
  return `[${label}]\n${lines.join('\n')}`;
}

/** `text` within `max` characters: its head and tail with a note of what was cut between them. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 4);
  const head = max - tail;
  return `${text.slice(0, head)}\n[…${text.length - head - tail} characters cut…]\n${text.slice(text.length - tail)}`;
}
