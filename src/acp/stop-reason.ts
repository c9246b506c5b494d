/**
 * How a run's end ({@link FinishReason}) answers `session/prompt` (ACP `StopReason`). A provider
 * error has no stop reason: the prompt fails with a JSON-RPC error that carries the message.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { FinishReason } from '../message.js';

/** One row per way a run ends, with why. */
export const STOP_REASONS: Readonly<Record<FinishReason, StopReason | 'error'>> = {
  end_turn: 'end_turn', // the model finished its answer
  tool_use: 'end_turn', // not an end of a run; listed for completeness
  max_tokens: 'max_tokens', // the answer was cut at agents.coder.maxTokens
  canceled: 'cancelled', // session/cancel (ACP requires `cancelled`, not an error)
  permission_denied: 'end_turn', // the person denied a call: the turn ended as they asked
  step_limit: 'max_turn_requests', // agents.coder.maxSteps model calls in one turn
  error: 'error', // the provider failed: a JSON-RPC error with its message
  refusal: 'refusal', // the model declined; the refused prompt is left out of later requests
  pause_turn: 'end_turn', // not an end of a run: a paused turn is continued by the agent
  unknown: 'end_turn', // a stop reason we do not know; a warning names it
};
