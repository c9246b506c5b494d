/**
 * What the agent makes of how a provider call ended, besides the normal end and tool use: a refusal, a
 * stop reason we do not know, a reply without token counts, and tool-call ids a server reuses. Pure.
 */
import type { Message, MessagePart, Usage } from '../message.js';
import { messageText } from '../message.js';
import type { RunFinished } from './events.js';
import type { ProviderResponse } from '../provider/types.js';

/**
 * The one line shown and stored for a refused reply: `The model declined to answer: <explanation>` with the
 * provider's explanation (Anthropic `stop_details.explanation`) when it gave one.
 */
export function refusalNote(refusal: ProviderResponse['refusal']): string {
  const why = refusal?.explanation?.trim();
  return why ? `The model declined to answer: ${why}` : 'The model declined to answer';
}

/** What follows a refusal in the TUI and on stderr: what happens to the prompt and what to do. */
export const REFUSAL_HINT = 'this prompt is left out of later requests; rephrase it to go on';

/** The one line stored and shown for a reply that ended with a stop reason we do not know. */
export function unknownStopNote(stopReason: string | undefined): string {
  return stopReason
    ? `the provider ended the reply with stop reason "${stopReason}", which opencode does not know; the answer may be incomplete`
    : 'the provider ended the reply without a stop reason; the answer may be incomplete';
}

/** Characters per token of the estimate made when a provider reports no usage (a common rule of thumb for English and code). */
export const CHARS_PER_TOKEN = 4;

/** The warning given once per session when a provider's replies carry no token counts. */
export function usageMissingWarning(modelId: string): string {
  return `${modelId} reports no token usage; this session's token counts and cost are estimates (about ${CHARS_PER_TOKEN} characters a token)`;
}

/**
 * Token counts estimated from text lengths, for a reply whose stream carried none: input from the system
 * prompt and the history sent, output from what the reply holds. Never zero for a reply with content.
 */
export function estimateUsage(systemPrompt: string, history: readonly Message[], reply: ProviderResponse): Usage {
  let inputChars = systemPrompt.length;
  for (const message of history) for (const part of message.parts) inputChars += partChars(part);
  let outputChars = reply.content.length;
  for (const r of reply.reasoning) outputChars += r.thinking.length;
  for (const call of reply.toolCalls) outputChars += call.name.length + call.input.length;
  return {
    input: Math.ceil(inputChars / CHARS_PER_TOKEN),
    output: Math.ceil(outputChars / CHARS_PER_TOKEN),
    cacheRead: 0,
    cacheWrite: 0,
  };
}

function partChars(part: MessagePart): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'reasoning':
      return part.thinking.length;
    case 'tool_call':
      return part.name.length + part.input.length;
    case 'tool_result':
      return part.content.length;
    default:
      return 0;
  }
}

/**
 * Tool-call ids unique in a session. Some local servers number the calls of each reply from `call_0`; kept
 * as sent, a later call would share an id with an earlier one, and its result would pair with the wrong
 * call in the UI, in `sessions show` and in the history sent back. An id already taken in the session is
 * rewritten on arrival (`call_0` → `call_0_2`), and the rewritten id is the one stored and sent.
 */
export class SessionCallIds {
  private readonly taken: Set<string>;
  /** the provider's id → ours, for the call being streamed */
  private readonly renamed = new Map<string, string>();
  private readonly added: string[] = [];

  /** `history`: the session's messages so far */
  constructor(history: readonly Message[]) {
    this.taken = new Set(history.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []))));
  }

  /** Our id for a call the provider just started with `id`. */
  start(id: string): string {
    let ours = id;
    for (let n = 2; this.taken.has(ours); n++) ours = `${id}_${n}`;
    this.taken.add(ours);
    this.added.push(ours);
    this.renamed.set(id, ours);
    return ours;
  }

  /** Our id for the provider's `id` of the call being streamed (the id itself when not renamed). */
  of(id: string): string {
    return this.renamed.get(id) ?? id;
  }

  /** A provider call is over: its ids stay taken. */
  endCall(): void {
    this.renamed.clear();
    this.added.length = 0;
  }

  /** What the provider streamed is void (a retry): the ids it took are free again. */
  voidCall(): void {
    for (const id of this.added) this.taken.delete(id);
    this.endCall();
  }
}

/** A reply's parts at its end: reasoning, then text and server tool blocks in order, then tool calls (ids as `ids` gives them). */
export function replyParts(reply: ProviderResponse, ids: SessionCallIds): MessagePart[] {
  const content: MessagePart[] = reply.contentBlocks
    ? reply.contentBlocks.map((b): MessagePart =>
        b.type === 'text' ? { type: 'text', text: b.text } : { type: 'server_tool', block: b.block },
      )
    : reply.content
      ? [{ type: 'text', text: reply.content }]
      : [];
  return [
    ...reply.reasoning.map((b): MessagePart => ({ type: 'reasoning', ...b })),
    ...content,
    ...reply.toolCalls.map((c): MessagePart => ({ type: 'tool_call', ...c, id: ids.of(c.id), finished: true })),
  ];
}

/** The answer of a run, for `-p` output and a sub-agent's result: its last reply's text, after the text of the replies it continued. */
export function finalText(result: RunFinished): string {
  const text = result.message ? messageText(result.message) : '';
  // a paused reply's text comes before its continuation's: the answer is both
  return result.earlierText
    ? text.trim()
      ? `${result.earlierText}\n\n${text.trimStart()}`
      : result.earlierText
    : text;
}
