/**
 * Keeping a session's history valid for the provider APIs, which reject a tool call without a result.
 */
import type { Message, ToolResultPart } from '../message.js';
import { finishPart, toolCalls, toolResults } from '../message.js';
import type { AgentStore } from './store.js';

/**
 * The result stored, shown and sent for a tool call that a crash (kill -9, power loss) cut off: not
 * "canceled by user", which would tell the model the person stopped it.
 */
export const INTERRUPTED_RESULT = 'Tool execution interrupted: opencode stopped before this call finished';

/** The note on a reply that a crash cut off (its finish part's message). */
export const INTERRUPTED_REPLY = 'opencode stopped before this reply finished';

/**
 * Repairs what a killed process left behind: unfinished messages are finished as `canceled` with the
 * note {@link INTERRUPTED_REPLY}, and every tool call without a result gets {@link INTERRUPTED_RESULT}
 * (in the tool message that follows its assistant message, created if missing). Returns the number of
 * messages changed. Run it only when no other process is writing the session (the app does so at the
 * start of a run, and at start-up when no other opencode process uses the project).
 */
export function repairInterruptedTurns(
  store: AgentStore,
  sessionId: string,
  onChanged: (message: Message) => void = () => {},
): number {
  const messages = store.messages.list(sessionId);
  let changed = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (!finishPart(message)) {
      message.parts.push({ type: 'finish', reason: 'canceled', time: Date.now(), message: INTERRUPTED_REPLY });
      store.messages.finish(message);
      onChanged(message);
      changed++;
    }
    if (message.role !== 'assistant') continue;
    const calls = toolCalls(message);
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    const holder = next?.role === 'tool' ? next : undefined;
    const answered = new Set(holder ? toolResults(holder).map((r) => r.toolCallId) : []);
    const missing: ToolResultPart[] = calls
      .filter((c) => !answered.has(c.id))
      .map((c) => ({
        type: 'tool_result',
        toolCallId: c.id,
        name: c.name,
        content: INTERRUPTED_RESULT,
        isError: true,
      }));
    if (missing.length === 0) continue;
    if (holder) {
      // results in call order, whatever order they were stored in
      const byCall = new Map(toolResults(holder).map((r) => [r.toolCallId, r]));
      for (const r of missing) byCall.set(r.toolCallId, r);
      const finish = holder.parts.filter((p) => p.type === 'finish');
      holder.parts = [...calls.map((c) => byCall.get(c.id)!), ...finish];
      store.messages.update(holder);
      onChanged(holder);
    } else if (i === messages.length - 1) {
      const created = store.messages.create({ sessionId, role: 'tool', parts: [...missing] });
      created.parts.push({ type: 'finish', reason: 'end_turn', time: Date.now() });
      store.messages.finish(created);
      onChanged(created);
    } else {
      // a call in the middle of history with no tool message after it: historyForProvider answers it
      continue;
    }
    changed++;
  }
  return changed;
}

/**
 * The messages to send: from the summary message on (its role rewritten to `user`, as the original),
 * without `system` messages, without prompts whose request failed before the model wrote anything
 * (and their empty replies), without refused turns (the prompt the model declined and everything of its
 * reply: Anthropic's "Handle streaming refusals" says a refused turn must be removed or rephrased before
 * the conversation goes on, else the refusal repeats), and with {@link INTERRUPTED_RESULT} for any call
 * still unanswered.
 */
export function historyForProvider(messages: Message[], summaryMessageId?: string | null): Message[] {
  let start = 0;
  if (summaryMessageId) {
    const at = messages.findIndex((m) => m.id === summaryMessageId);
    if (at >= 0) start = at;
  }
  const all = messages.slice(start).filter((m) => m.role !== 'system');
  // a prompt whose request failed before the model wrote anything (e.g. HTTP 400 "prompt is too
  // long") is not sent again: kept, it would be merged into every later prompt and fail them too
  const failed = new Set<string>();
  all.forEach((m, i) => {
    const reply = all[i + 1];
    if (m.role === 'user' && reply && failedWithoutOutput(reply)) failed.add(m.id).add(reply.id);
  });
  for (const id of refusedTurns(all)) failed.add(id);
  const kept = all.filter((m) => !failed.has(m.id));
  const out: Message[] = [];
  kept.forEach((m, i) => {
    out.push(i === 0 && m.id === summaryMessageId ? { ...m, role: 'user' } : m);
    const calls = m.role === 'assistant' ? toolCalls(m) : [];
    const next = kept[i + 1];
    if (calls.length === 0 || next?.role === 'tool') return;
    out.push({
      ...m,
      id: `${m.id}-results`,
      role: 'tool',
      parts: calls.map((c) => ({
        type: 'tool_result',
        toolCallId: c.id,
        name: c.name,
        content: INTERRUPTED_RESULT,
        isError: true,
      })),
    });
  });
  return out;
}

/** An assistant message that ended in a provider error with nothing in it. */
function failedWithoutOutput(m: Message): boolean {
  if (m.role !== 'assistant') return false;
  const finish = m.parts.find((p) => p.type === 'finish');
  return finish?.reason === 'error' && m.parts.every((p) => p.type === 'finish');
}

/**
 * Ids of the messages of refused turns: each reply that ended in `refusal`, back to the person's prompt
 * that started it (its tool steps included).
 */
export function refusedTurns(messages: readonly Message[]): Set<string> {
  const out = new Set<string>();
  let turnStart = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') turnStart = i;
    if (m.role !== 'assistant' || finishPart(m)?.reason !== 'refusal') return;
    let end = i;
    // the results given to calls of the declined reply go with it
    while (messages[end + 1]?.role === 'tool') end++;
    for (let j = Math.max(0, turnStart); j <= end; j++) out.add(messages[j]!.id);
  });
  return out;
}
