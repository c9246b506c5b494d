/**
 * `opencode -p … -f stream-json`: one JSON object per line on stdout as the run goes, so a
 * CI job can follow and parse it. Every line has `type`, `time` (unix ms) and `sessionId`. Types, in
 * the order a run writes them:
 *
 * | type | when | other fields |
 * |---|---|---|
 * | `session` | first line | `title`, `model`, `continued` (an earlier session is continued) |
 * | `message` | the prompt is stored | `role: "user"`, `messageId`, `text` |
 * | `reasoning`, `text` | a model reply (one step) finished: one line per part | `messageId`, `text` |
 * | `tool_call` | a tool call starts | `messageId`, `toolCallId`, `name`, `input` (object, or the raw text when not JSON), `summary` (`bash: npm test`) |
 * | `permission` | a permission request was decided | `toolName`, `decision` (`allow`, `allow_session`, `allow_always`, `allow_outside_sandbox`, `deny`), `by` (`rule`, `session`, `unattended`, `person`), `description`, `message` (why refused) |
 * | `tool_result` | the tool call finished | `toolCallId`, `name`, `isError`, `durationMs`, `summary` (`error, 12 lines: FAIL …`), `outputChars` |
 * | `usage` | a provider call ended | `messageId`, `model`, `outcome` (`ok`, `error`, `canceled`), `durationMs`, `retries`, `status` (HTTP, failures), `finishReason`, `input`, `output`, `cacheRead`, `cacheWrite` (tokens), `usageEstimated` (true: the provider reported no counts, these are estimates), `costUsd`, `error` |
 * | `retry` | the provider retries | `attempt`, `maxRetries`, `delayMs`, `reason` |
 * | `subagent` | the `agent` tool started a sub-agent (its lines carry its own `sessionId`) | `parentSessionId`, `toolCallId` |
 * | `compaction` | auto-compaction started, finished or failed | `state` (`started`, `done`, `failed`), `error` |
 * | `warning` | a problem that does not stop the run | `message` |
 * | `result` | last line | `reason` (`end_turn`, `error`, `canceled`, `step_limit`, `refusal`, `unknown`, …), `text` (the final answer), `usage` (run totals), `costUsd`, `error` (the cause; for `refusal` the model's explanation) |
 *
 * Errors before the run starts (bad flags, config, credentials) are one line on stderr and no stdout,
 * as with the other formats; the exit codes are the same.
 */
import type { AgentEvents, RunFinished } from '../agent/events.js';
import type { EventBus } from '../events/bus.js';
import { finishPart, type Message, type ToolCallPart, type ToolResultPart } from '../message.js';
import type { PermissionOutcome } from '../permission/service.js';
import { roundUsd } from '../session-io/conversation.js';
import { parseToolInput, toolCallLine, toolResultLine } from '../session-io/tool-summary.js';

/** What the stream listens to. */
export interface StreamJsonSource {
  bus: EventBus<AgentEvents>;
  permission: { onOutcome(listener: (outcome: PermissionOutcome) => void): () => void };
}

/** A running stream: `result` writes the last line; `stop` unsubscribes. */
export interface StreamJson {
  result(run: RunFinished, text: string): void;
  stop(): void;
}

/**
 * Starts writing lines through `write` (each a JSON object followed by `\n`): first the `session` line,
 * then one per event as described above.
 */
export function startStreamJson(
  source: StreamJsonSource,
  session: { id: string; title: string; model: string; continued: boolean },
  write: (line: string) => void,
  now: () => number = Date.now,
): StreamJson {
  const emit = (type: string, sessionId: string, fields: Record<string, unknown>) =>
    write(`${JSON.stringify({ type, time: now(), sessionId, ...fields })}\n`);
  emit('session', session.id, { title: session.title, model: session.model, continued: session.continued });

  const { bus } = source;
  const calls = new Map<string, ToolCallPart & { messageId: string }>();
  const results = new Map<string, ToolResultPart>();
  const toolStarts = new Map<string, number>();
  const written = new Set<string>();
  const onMessage = (message: Message) => {
    if (message.role === 'assistant') {
      for (const p of message.parts) if (p.type === 'tool_call') calls.set(p.id, { ...p, messageId: message.id });
      // a step's text is written once it is final: a retry may still discard what streamed
      if (!finishPart(message) || written.has(message.id)) return;
      written.add(message.id);
      for (const p of message.parts) {
        if (p.type === 'reasoning' && p.thinking)
          emit('reasoning', message.sessionId, { messageId: message.id, text: p.thinking });
        if (p.type === 'text' && p.text) emit('text', message.sessionId, { messageId: message.id, text: p.text });
      }
    } else if (message.role === 'tool') {
      for (const p of message.parts) if (p.type === 'tool_result') results.set(p.toolCallId, p);
    }
  };
  const offs = [
    bus.on('message.created', ({ message }) => {
      if (message.role === 'user') {
        const text = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
        emit('message', message.sessionId, { role: 'user', messageId: message.id, text });
      } else onMessage(message);
    }),
    bus.on('message.updated', ({ message }) => onMessage(message)),
    bus.on('tool.started', (e) => {
      toolStarts.set(e.toolCallId, performance.now());
      const call = calls.get(e.toolCallId);
      const input = call ? (parseToolInput(call.input) ?? call.input) : undefined;
      emit('tool_call', e.sessionId, {
        messageId: e.messageId,
        toolCallId: e.toolCallId,
        name: e.name,
        input,
        summary: call ? toolCallLine(call) : e.name,
      });
    }),
    bus.on('tool.finished', (e) => {
      const started = toolStarts.get(e.toolCallId);
      toolStarts.delete(e.toolCallId);
      const result = results.get(e.toolCallId);
      emit('tool_result', e.sessionId, {
        toolCallId: e.toolCallId,
        name: e.name,
        isError: e.isError,
        durationMs: started === undefined ? null : Math.round(performance.now() - started),
        summary: result ? toolResultLine(result) : null,
        outputChars: result ? result.content.length : null,
      });
      calls.delete(e.toolCallId);
      results.delete(e.toolCallId);
    }),
    bus.on('provider.call', (c) => {
      const usage = c.usage
        ? { input: c.usage.input, output: c.usage.output, cacheRead: c.usage.cacheRead, cacheWrite: c.usage.cacheWrite }
        : {};
      emit('usage', c.sessionId, {
        messageId: c.messageId,
        model: c.model,
        outcome: c.outcome,
        durationMs: c.durationMs,
        retries: c.retries,
        ...(c.status !== undefined ? { status: c.status } : {}),
        ...(c.finishReason ? { finishReason: c.finishReason } : {}),
        ...usage,
        ...(c.usageEstimated ? { usageEstimated: true } : {}),
        ...(c.costUsd !== undefined ? { costUsd: roundUsd(c.costUsd) } : {}),
        ...(c.error ? { error: c.error } : {}),
      });
    }),
    bus.on('provider.retry', (e) =>
      emit('retry', e.sessionId, {
        attempt: e.attempt,
        maxRetries: e.maxRetries,
        delayMs: e.delayMs,
        reason: e.reason,
      }),
    ),
    bus.on('subagent.started', (e) =>
      emit('subagent', e.sessionId, { parentSessionId: e.parentSessionId, toolCallId: e.toolCallId }),
    ),
    bus.on('session.compacting', (e) => emit('compaction', e.sessionId, { state: 'started' })),
    bus.on('session.compacted', (e) =>
      emit('compaction', e.sessionId, { state: 'done', summaryMessageId: e.summaryMessageId }),
    ),
    bus.on('session.compact_failed', (e) => emit('compaction', e.sessionId, { state: 'failed', error: e.error })),
    bus.on('warning', (e) => emit('warning', e.sessionId ?? session.id, { message: e.message })),
    source.permission.onOutcome((o) =>
      emit('permission', o.sessionId, {
        toolName: o.toolName,
        decision: o.decision,
        by: o.by,
        description: o.description,
        ...(o.message ? { message: o.message } : {}),
      }),
    ),
  ];
  return {
    result(run, text) {
      emit('result', run.sessionId, {
        reason: run.reason,
        text,
        usage: run.usage,
        costUsd: roundUsd(run.costUsd),
        ...(run.error ? { error: run.error } : {}),
      });
    },
    stop() {
      for (const off of offs) off();
    },
  };
}
