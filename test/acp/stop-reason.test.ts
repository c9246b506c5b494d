/** How each way a run ends answers session/prompt: one example per row. */
import { describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../src/acp/stop-reason.js';

describe('STOP_REASONS', () => {
  it('maps every finish reason', () => {
    expect(STOP_REASONS).toEqual({
      end_turn: 'end_turn',
      tool_use: 'end_turn',
      max_tokens: 'max_tokens',
      canceled: 'cancelled',
      permission_denied: 'end_turn',
      step_limit: 'max_turn_requests',
      error: 'error',
      refusal: 'refusal',
      pause_turn: 'end_turn',
      unknown: 'end_turn',
    });
  });
});
