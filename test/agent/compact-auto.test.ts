/**
 * Auto-compact (the original's, fixed): when the last call's context reached 95 % of the window, the
 * next run first compacts the session and then sends only the summary and the new message; a window
 * of 0 never triggers it (the original compacted after every reply), nor does a context below 95 %.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compactSession } from '../../src/agent/compact.js';
import { messageText } from '../../src/message.js';
import { catalogModel, computeCost, createProvider } from '../../src/provider/index.js';
import { agentHarness, type Harness, type HarnessOptions } from '../support/agent-harness.js';
import type { FakeTurn } from '../support/fake-provider.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness whose coder auto-compacts against `contextWindowTokens`, summarising through the same fake. */
async function autoCompactHarness(turns: FakeTurn[], contextWindowTokens: number): Promise<Harness> {
  let harness: Harness | undefined;
  const options: HarnessOptions = {
    agent: {
      autoCompact: {
        contextWindowTokens,
        compact: (sessionId, signal) => {
          const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: harness!.fake.anthropicBaseURL };
          const provider = createProvider(
            catalogModel('anthropic/claude-haiku-4-5')!,
            { providers: {}, env },
            { maxRetries: 0 },
          );
          return compactSession(
            { provider, store: harness!.db, bus: harness!.bus, maxTokens: 1000, computeCost },
            sessionId,
            signal,
          );
        },
      },
    },
  };
  harness = await agentHarness(turns, options);
  return harness;
}

const texts = (message: { content: { type: string; text?: string }[] }) =>
  message.content.filter((b) => b.type === 'text').map((b) => b.text);

describe('auto-compact', () => {
  it('compacts before the next message when the context reached 95 % of the window', async () => {
    h = await autoCompactHarness(
      [
        { text: 'First answer.', usage: { input: 900, output: 50 } }, // 950 of 1000
        { text: 'Summary: first question answered.', usage: { input: 400, output: 30 } },
        { text: 'Second answer.', usage: { input: 60, output: 5 } },
      ],
      1000,
    );
    const events: string[] = [];
    h.bus.on('run.started', () => events.push('run.started'));
    h.bus.on('session.compacting', () => events.push('compacting'));
    h.bus.on('session.compacted', () => events.push('compacted'));
    h.bus.on('message.created', (e) => events.push(`created ${e.message.role}`));

    await h.agent.run(h.sessionId, 'first question');
    expect(h.fake.answered).toHaveLength(1);
    events.length = 0;
    const result = await h.agent.run(h.sessionId, 'second question');

    expect(messageText(result.message!)).toBe('Second answer.');
    expect(events).toEqual([
      'run.started',
      'compacting',
      'created assistant',
      'compacted',
      'created user',
      'created assistant',
    ]);
    const summarize = h.fake.answered[1];
    expect(summarize.tools).toBeUndefined();
    expect(texts(summarize.messages[0])[0]).toContain(
      '[user]\nfirst question\n\n[assistant]\nFirst answer.\n</conversation>',
    );
    const next = h.fake.answered[2];
    expect(next.messages).toHaveLength(1);
    expect(texts(next.messages[0])).toEqual(['Summary: first question answered.', 'second question']);
    const session = h.db.sessions.get(h.sessionId)!;
    expect([session.promptTokens, session.completionTokens, session.contextTokens]).toEqual([
      900 + 400 + 60,
      50 + 30 + 5,
      65,
    ]);
    expect(h.db.messages.list(h.sessionId).map((m) => `${m.role} ${messageText(m)}`)).toEqual([
      'user first question',
      'assistant First answer.',
      'assistant Summary: first question answered.',
      'user second question',
      'assistant Second answer.',
    ]);
  });

  it('does not compact below 95 %', async () => {
    h = await autoCompactHarness(
      [
        { text: 'First answer.', usage: { input: 900, output: 49 } }, // 949 of 1000
        { text: 'Second answer.' },
      ],
      1000,
    );
    await h.agent.run(h.sessionId, 'first question');
    await h.agent.run(h.sessionId, 'second question');
    expect(h.fake.answered).toHaveLength(2);
    expect(h.fake.answered[1].messages).toHaveLength(3);
    expect(h.db.sessions.get(h.sessionId)!.summaryMessageId).toBeUndefined();
  });

  it('never compacts with a window of 0', async () => {
    h = await autoCompactHarness(
      [{ text: 'First answer.', usage: { input: 100_000, output: 500 } }, { text: 'Second answer.' }],
      0,
    );
    await h.agent.run(h.sessionId, 'first question');
    await h.agent.run(h.sessionId, 'second question');
    expect(h.fake.answered).toHaveLength(2);
    expect(h.fake.answered[1].messages).toHaveLength(3);
  });

  it('warns and goes on with the full history when the summary fails', async () => {
    h = await autoCompactHarness(
      [
        { text: 'First answer.', usage: { input: 990, output: 10 } },
        { httpStatus: 400, message: 'prompt is too long' },
        { text: 'Second answer.' },
      ],
      1000,
    );
    const warnings: string[] = [];
    h.bus.on('warning', (w) => warnings.push(w.message));
    await h.agent.run(h.sessionId, 'first question');
    const result = await h.agent.run(h.sessionId, 'second question');
    expect(messageText(result.message!)).toBe('Second answer.');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Auto-compact failed, continuing with the full history: .*prompt is too long/);
    expect(h.fake.answered[2].messages).toHaveLength(3);
  });

  it('ends the run as canceled, with nothing stored, when cancelled while compacting', async () => {
    h = await autoCompactHarness(
      [
        { text: 'First answer.', usage: { input: 990, output: 10 } },
        { text: 'never', stallAfterChunks: 1 },
      ],
      1000,
    );
    await h.agent.run(h.sessionId, 'first question');
    h.bus.on('session.compacting', () => setTimeout(() => h!.agent.cancel(h!.sessionId), 100));
    const result = await h.agent.run(h.sessionId, 'second question');
    expect(result.reason).toBe('canceled');
    expect(h.db.messages.list(h.sessionId)).toHaveLength(2);
    expect(h.agent.isBusy(h.sessionId)).toBe(false);
  });
});
