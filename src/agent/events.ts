/**
 * Events the agent publishes. The TUI and `-p` mode are two subscribers of the same events.
 */
import type { FinishReason, Message, Usage } from '../message.js';

export interface RunFinished {
  sessionId: string;
  reason: FinishReason;
  /** the last assistant message of the run */
  message?: Message;
  /** text of the replies the provider paused (`pause_turn`) before `message` continued them, in order */
  earlierText?: string;
  /** tokens of this run, summed over its provider calls */
  usage: Usage;
  /** USD of this run */
  costUsd: number;
  /** one line naming the cause, for `error`, `step_limit`, `refusal` (the provider's explanation) and `unknown` */
  error?: string;
}

/** Event name → payload. */
export interface AgentEvents {
  'run.started': { sessionId: string };
  'run.finished': RunFinished;
  'message.created': { message: Message };
  /** a message's parts changed (streaming delta, tool result, finish) */
  'message.updated': { message: Message };
  'tool.started': { sessionId: string; messageId: string; toolCallId: string; name: string };
  /** live progress of a running tool (e.g. bash output so far) */
  'tool.progress': { sessionId: string; toolCallId: string; text: string };
  'tool.finished': { sessionId: string; toolCallId: string; name: string; isError: boolean };
  /**
   * one provider call of a run ended (for `-d` and `-f stream-json`): `durationMs` from the
   * request to its last event, retries included; `status` is the HTTP status of a failed call when
   * there was one; `usage` is the call's own tokens (on success)
   */
  'provider.call': {
    sessionId: string;
    messageId: string;
    /** `provider/model` */
    model: string;
    durationMs: number;
    outcome: 'ok' | 'error' | 'canceled';
    status?: number;
    retries: number;
    usage?: Usage;
    /** the provider reported no token counts: `usage` is estimated from text lengths (agent/reply-end.ts) */
    usageEstimated?: true;
    costUsd?: number;
    finishReason?: FinishReason;
    error?: string;
  };
  /** the provider is retrying; what was streamed of the current message is discarded */
  'provider.retry': { sessionId: string; attempt: number; maxRetries: number; delayMs: number; reason: string };
  'session.updated': { sessionId: string };
  /** compaction of the session started (manual or auto): the summarizer is writing */
  'session.compacting': { sessionId: string };
  /** compaction finished: requests start from `summaryMessageId` from now on */
  'session.compacted': { sessionId: string; summaryMessageId: string };
  /** compaction failed or was canceled (`error` is then `canceled`); nothing was stored */
  'session.compact_failed': { sessionId: string; error: string };
  /**
   * the `agent` tool call `toolCallId` of `parentSessionId` started a sub-agent in the child session
   * `sessionId` (published before the child's first message, so the UI can nest its events)
   */
  'subagent.started': { parentSessionId: string; toolCallId: string; sessionId: string };
  /** a background problem worth showing (title generation failed, …) */
  warning: { sessionId?: string; message: string };
}
