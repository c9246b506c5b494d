/**
 * One provider call streamed into the assistant message: deltas become parts (written as they
 * arrive, batched by the store), tool call ids are made unique in the session, a retry starts the
 * message afresh, and the call is reported (`provider.call`) with its outcome, duration, usage and cost.
 */
import { performance } from 'node:perf_hooks';
import type { EventBus } from '../events/bus.js';
import type { Message, MessagePart, ToolCallPart, Usage } from '../message.js';
import type { Provider, ProviderResponse } from '../provider/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentEvents } from './events.js';
import { estimateUsage, replyParts, type SessionCallIds, usageMissingWarning } from './reply-end.js';
import type { AgentStore } from './store.js';

/** What a streamed call needs of the agent: its provider, tools and storage, and the run's totals. */
export interface StreamServices {
  provider: Provider;
  tools: ToolRegistry;
  store: AgentStore;
  bus: EventBus<AgentEvents>;
  /** output cap per call, tokens */
  maxTokens: number;
  reasoningEffort?: 'low' | 'medium' | 'high';
  /** sessions already warned that their provider reports no token usage; a session warned here is added */
  usageWarned: Set<string>;
  /** adds a call's usage to the run's totals; returns its cost, USD */
  addUsage: (usage: Usage) => number;
}

/** One call of a run: the message it streams into and what is sent. */
export interface StreamRequest {
  assistant: Message;
  system: string;
  history: Message[];
  thinking: boolean;
  signal: AbortSignal;
  callIds: SessionCallIds;
}

/** How a streamed call ended: the provider's final response and its cost (USD), or the error's message. */
export type StreamOutcome =
  { kind: 'ok'; value: ProviderResponse; costUsd: number } | { kind: 'error'; message: string };

/** Streams one provider call into `request.assistant`. Provider failures end as `error`, not as a rejection. */
export async function streamReply(services: StreamServices, request: StreamRequest): Promise<StreamOutcome> {
  const { provider, store, bus, tools } = services;
  const { assistant, system, history, thinking, signal, callIds } = request;
  const events = provider.stream({
    systemPrompt: system,
    messages: history,
    tools: tools.forSession(assistant.sessionId).schemas(),
    maxTokens: services.maxTokens,
    reasoningEffort: services.reasoningEffort,
    thinking,
    signal,
  });
  const changed = () => {
    store.messages.updateStreaming(assistant);
    bus.emit('message.updated', { message: assistant });
  };
  // what -d and stream-json report of each call
  const startedAt = performance.now();
  let retries = 0;
  const called = (
    call: Pick<
      AgentEvents['provider.call'],
      'outcome' | 'status' | 'usage' | 'usageEstimated' | 'costUsd' | 'finishReason' | 'error'
    >,
  ) =>
    bus.emit('provider.call', {
      sessionId: assistant.sessionId,
      messageId: assistant.id,
      model: provider.model.id,
      durationMs: Math.round(performance.now() - startedAt),
      retries,
      ...call,
    });
  for await (const event of events) {
    const parts = assistant.parts;
    switch (event.type) {
      case 'thinking_delta': {
        const last = parts.at(-1);
        if (last?.type === 'reasoning') last.thinking += event.text;
        else parts.push({ type: 'reasoning', thinking: event.text });
        break;
      }
      case 'content_delta': {
        const last = parts.at(-1);
        if (last?.type === 'text') last.text += event.text;
        else parts.push({ type: 'text', text: event.text });
        break;
      }
      case 'server_tool':
        // keeps the text streamed after the block apart from the text before it
        parts.push({ type: 'server_tool', block: event.block });
        break;
      case 'tool_use_start':
        parts.push({ type: 'tool_call', id: callIds.start(event.id), name: event.name, input: '', finished: false });
        break;
      case 'tool_use_delta': {
        const call = streamingCall(parts, callIds.of(event.id));
        if (call) call.input += event.inputDelta;
        break;
      }
      case 'tool_use_stop': {
        const call = streamingCall(parts, callIds.of(event.id));
        if (call) call.finished = true;
        break;
      }
      case 'retry':
        // what was streamed is void: the provider starts the message afresh
        retries++;
        assistant.parts = [];
        callIds.voidCall();
        bus.emit('provider.retry', { sessionId: assistant.sessionId, ...event });
        break;
      case 'complete': {
        let r = event.response;
        assistant.parts = replyParts(r, callIds);
        callIds.endCall();
        if (r.usageMissing) {
          // counted as an estimate rather than as nothing; the person is told once per session
          r = { ...r, usage: estimateUsage(system, history, r) };
          if (!services.usageWarned.has(assistant.sessionId)) {
            services.usageWarned.add(assistant.sessionId);
            bus.emit('warning', { sessionId: assistant.sessionId, message: usageMissingWarning(provider.model.id) });
          }
        }
        const costUsd = services.addUsage(r.usage);
        // no streaming write: the loop finishes the message (with the usage) right after this
        bus.emit('message.updated', { message: assistant });
        called({
          outcome: 'ok',
          usage: r.usage,
          ...(r.usageMissing ? { usageEstimated: true } : {}),
          costUsd,
          finishReason: r.finishReason,
        });
        return { kind: 'ok', value: r, costUsd };
      }
      case 'error':
        callIds.endCall();
        changed();
        called({
          outcome: signal.aborted ? 'canceled' : 'error',
          status: event.error.status,
          error: event.error.message,
        });
        return { kind: 'error', message: event.error.message };
    }
    changed();
  }
  called({ outcome: 'error', error: 'The provider stream ended without a final event' });
  return { kind: 'error', message: 'The provider stream ended without a final event' };
}

/**
 * The call `id` among `parts`: the last part when it is that call (the deltas of a call stream while
 * it is the newest part: no array is built per delta), else a search.
 */
function streamingCall(parts: MessagePart[], id: string): ToolCallPart | undefined {
  const last = parts.at(-1);
  if (last?.type === 'tool_call' && last.id === id) return last;
  return parts.find((p): p is ToolCallPart => p.type === 'tool_call' && p.id === id);
}
