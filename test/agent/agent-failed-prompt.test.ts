/**
 * A prompt whose request failed before the model wrote anything (HTTP 400 "prompt is too long") is
 * not sent again with the next prompt: it used to stay in the history, merged into every later
 * user message, so the session kept failing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a failed prompt', () => {
  it('is left out of the next request; the prompts before it stay', async () => {
    h = await agentHarness([
      { text: 'First answer.' },
      { httpStatus: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum' },
      { text: 'Third answer.' },
    ]);
    expect((await h.agent.run(h.sessionId, 'first')).reason).toBe('end_turn');
    const failed = await h.agent.run(h.sessionId, 'x'.repeat(50));
    expect(failed.reason).toBe('error');
    expect((await h.agent.run(h.sessionId, 'third')).reason).toBe('end_turn');

    const completions = h.fake.requests.filter((r) => r.api === 'anthropic');
    const last = completions.at(-1)!.body.messages as { role: string; content: unknown }[];
    expect(last.map((m) => [m.role, JSON.stringify(m.content)])).toEqual([
      ['user', expect.stringContaining('first')],
      ['assistant', expect.stringContaining('First answer.')],
      ['user', expect.stringContaining('third')],
    ]);
    expect(JSON.stringify(last)).not.toContain('xxxxx');
    // nothing is lost: the failed prompt is still in the session
    expect(h.db.messages.list(h.sessionId).some((m) => JSON.stringify(m.parts).includes('x'.repeat(50)))).toBe(true);
  });
});
