/**
 * Compacting a session (the original's, with its weaknesses fixed): the summarizer gets a trimmed transcript
 * and no tools, the summary is stored in the same session and becomes the start of later requests,
 * token counts add up, and a busy or empty session is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SessionBusyError } from '../../src/agent/agent.js';
import {
  compactSession,
  SUMMARIZE_INSTRUCTION,
  summarizerTranscript,
  transcriptBudgetChars,
  type CompactDeps,
} from '../../src/agent/compact.js';
import type { AgentEvents } from '../../src/agent/events.js';
import { systemPrompt } from '../../src/agent/prompts.js';
import { messageText } from '../../src/message.js';
import { catalogModel, computeCost, createProvider } from '../../src/provider/index.js';
import { defineTool } from '../../src/tools/tool.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HAIKU = catalogModel('anthropic/claude-haiku-4-5')!;

/** compactSession's dependencies, with a summarizer of `contextWindowTokens` talking to the harness's fake. */
function compactDeps(harness: Harness, contextWindowTokens = HAIKU.contextWindowTokens, maxTokens = 1000): CompactDeps {
  const model = { ...HAIKU, contextWindowTokens };
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: harness.fake.anthropicBaseURL };
  const provider = createProvider(model, { providers: {}, env }, { baseDelayMs: 1, maxRetries: 0 });
  return { provider, store: harness.db, bus: harness.bus, maxTokens, computeCost };
}

/** Text blocks of an Anthropic request message. */
const texts = (message: { content: { type: string; text?: string }[] }) =>
  message.content.filter((b) => b.type === 'text').map((b) => b.text);

const bigOutput = defineTool({
  name: 'big_output',
  description: 'Prints a lot.',
  parameters: z.object({}),
  readOnly: true,
  async run() {
    return `START${'x'.repeat(10_000)}END`;
  },
});

describe('compactSession', () => {
  it('sends a trimmed transcript without tools, stores the summary, and the next run starts from it', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'big_output', input: {} }], usage: { input: 100, output: 10 } },
        { text: 'Fixed the parser.', usage: { input: 200, output: 20 } },
        { text: 'The parser bug in src/parser.ts is fixed; next: add tests.', usage: { input: 300, output: 40 } },
        { text: 'Adding tests.', usage: { input: 50, output: 5 } },
      ],
      { tools: [bigOutput] },
    );
    await h.agent.run(h.sessionId, 'fix the bug in the parser');
    const events: string[] = [];
    h.bus.on('session.compacting', (e) => events.push(`compacting ${e.sessionId === h!.sessionId}`));
    h.bus.on('message.created', (e) => events.push(`created ${e.message.role} ${messageText(e.message)}`));
    let compacted: AgentEvents['session.compacted'] | undefined;
    h.bus.on('session.compacted', (e) => {
      compacted = e;
      events.push('compacted');
    });

    const result = await compactSession(compactDeps(h), h.sessionId);

    const request = h.fake.answered[2];
    expect(request.tools).toBeUndefined();
    expect(request.max_tokens).toBe(1000);
    expect(request.system[0].text).toBe(systemPrompt('summarizer'));
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0].role).toBe('user');
    const [body] = texts(request.messages[0]) as [string];
    expect(
      body.startsWith(
        '<conversation>\n[user]\nfix the bug in the parser\n\n[assistant]\n[tool call big_output] {}\n\n[tool]\n[tool result big_output]\nSTART',
      ),
    ).toBe(true);
    // the 10,000-character result is cut to its head and tail
    expect(body).toContain('[…8008 characters cut…]');
    expect(body).toContain('xxxEND\n\n[assistant]\nFixed the parser.\n</conversation>');
    expect(body.length).toBeLessThan(3000);
    expect(body.endsWith(`</conversation>\n\n${SUMMARIZE_INSTRUCTION}`)).toBe(true);

    const messages = h.db.messages.list(h.sessionId);
    const summary = messages.at(-1)!;
    expect(summary.id).toBe(result.summaryMessageId);
    expect(summary.role).toBe('assistant');
    expect(messageText(summary)).toBe('The parser bug in src/parser.ts is fixed; next: add tests.');
    expect(summary.parts.at(-1)).toMatchObject({ type: 'finish', reason: 'end_turn' });
    expect(compacted).toEqual({ sessionId: h.sessionId, summaryMessageId: summary.id });
    expect(events).toEqual([
      'compacting true',
      'created assistant The parser bug in src/parser.ts is fixed; next: add tests.',
      'compacted',
    ]);

    const session = h.db.sessions.get(h.sessionId)!;
    expect(session.summaryMessageId).toBe(summary.id);
    // totals add up over every call; the context is now the summary's size
    expect([session.promptTokens, session.completionTokens, session.contextTokens]).toEqual([600, 70, 40]);
    expect(result.usage).toEqual({ input: 300, output: 40, cacheWrite: 0, cacheRead: 0 });
    expect(result.costUsd).toBeCloseTo((300 * 1 + 40 * 5) / 1e6, 12);
    expect(session.costUsd).toBeCloseTo(((100 + 200 + 300) * 1 + (10 + 20 + 40) * 5) / 1e6, 12);

    await h.agent.run(h.sessionId, 'now add tests');
    const next = h.fake.answered[3];
    // the summary, sent as the user's, merged with the new message into one user turn
    expect(next.messages).toHaveLength(1);
    expect(next.messages[0].role).toBe('user');
    expect(texts(next.messages[0])).toEqual([
      'The parser bug in src/parser.ts is fixed; next: add tests.',
      'now add tests',
    ]);
    expect(h.db.sessions.get(h.sessionId)!.promptTokens).toBe(650);
  });

  it('drops the oldest messages first to fit the summarizer window', async () => {
    h = await agentHarness([{ text: 'Summary of everything.' }]);
    const add = (role: 'user' | 'assistant', text: string) => {
      const m = h!.db.messages.create({ sessionId: h!.sessionId, role, parts: [{ type: 'text', text }] });
      m.parts.push({ type: 'finish', reason: 'end_turn', time: Date.now() });
      h!.db.messages.finish(m);
      return m;
    };
    add('user', 'ancient request');
    const earlier = add('assistant', 'EARLIER SUMMARY');
    h.db.sessions.setSummaryMessage(h.sessionId, earlier.id);
    for (let i = 0; i < 6; i++) add(i % 2 === 0 ? 'user' : 'assistant', `message ${i} ${'y'.repeat(1500)}`);

    // window 3000, output 500: (2700 - 500) tokens × 3 characters, less the prompts: about 5,700 characters
    const budget = transcriptBudgetChars({ contextWindowTokens: 3000 }, 500, systemPrompt('summarizer'));
    expect(budget).toBeGreaterThan(5000);
    expect(budget).toBeLessThan(6600);
    await compactSession(compactDeps(h, 3000, 500), h.sessionId);

    const [body] = texts(h.fake.answered[0].messages[0]) as [string];
    const transcript = body.slice(0, body.indexOf('</conversation>'));
    expect(transcript).not.toContain('ancient request');
    expect(transcript).not.toContain('EARLIER SUMMARY');
    expect(transcript).toContain("[4 earlier messages left out to fit the summarizer's context window]");
    expect(transcript).not.toContain('message 2 ');
    expect(transcript).toContain('message 3 ');
    expect(transcript).toContain('message 5 ');
    expect(transcript.length).toBeLessThanOrEqual(budget + '<conversation>\n'.length);
  });

  it('keeps the end of a newest message that alone exceeds the budget', () => {
    const now = Date.now();
    const huge = {
      id: 'm2',
      sessionId: 's',
      role: 'user' as const,
      seq: 2,
      createdAt: now,
      updatedAt: now,
      parts: [{ type: 'text' as const, text: `HEAD${'z'.repeat(9000)}TAIL` }],
    };
    const old = { ...huge, id: 'm1', seq: 1, parts: [{ type: 'text' as const, text: 'old' }] };
    const transcript = summarizerTranscript([old, huge], 4000);
    expect(transcript.length).toBeLessThanOrEqual(4000);
    expect(
      transcript.startsWith(
        "[1 earlier message left out to fit the summarizer's context window]\n\n[…the start of this message was cut]\n",
      ),
    ).toBe(true);
    expect(transcript.endsWith('zzzTAIL')).toBe(true);
    expect(transcript).not.toContain('HEAD');
  });

  it('labels the previous summary when it fits', async () => {
    h = await agentHarness([{ text: 'New summary.' }]);
    const first = h.db.messages.create({
      sessionId: h.sessionId,
      role: 'assistant',
      parts: [{ type: 'text', text: 'Old summary.' }],
    });
    h.db.sessions.setSummaryMessage(h.sessionId, first.id);
    h.db.messages.create({ sessionId: h.sessionId, role: 'user', parts: [{ type: 'text', text: 'then this' }] });
    await compactSession(compactDeps(h), h.sessionId);
    const [body] = texts(h.fake.answered[0].messages[0]) as [string];
    expect(
      body.startsWith(
        '<conversation>\n[summary of the earlier conversation]\nOld summary.\n\n[user]\nthen this\n</conversation>',
      ),
    ).toBe(true);
  });

  it('refuses an empty session, and a session with nothing new since its summary', async () => {
    h = await agentHarness([{ text: 'summary' }]);
    await expect(compactSession(compactDeps(h), h.sessionId)).rejects.toThrow('The session has no messages to compact');
    await expect(compactSession(compactDeps(h), 'no-such-session')).rejects.toThrow(
      'Session no-such-session does not exist',
    );
    const m = h.db.messages.create({ sessionId: h.sessionId, role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    await compactSession(compactDeps(h), h.sessionId);
    expect(m.id).not.toBe(h.db.sessions.get(h.sessionId)!.summaryMessageId);
    await expect(compactSession(compactDeps(h), h.sessionId)).rejects.toThrow(
      'The session has nothing new to compact since its last summary',
    );
  });

  it('refuses while a run holds the session, and holds the session against runs while compacting', async () => {
    h = await agentHarness([
      { text: 'slow answer', delayMs: 300 },
      { text: 'slow summary', delayMs: 300 },
    ]);
    const deps = compactDeps(h);
    const compact = (signal?: AbortSignal) =>
      h!.agent.runExclusive(h!.sessionId, (s) => compactSession(deps, h!.sessionId, s), signal);

    const running = h.agent.run(h.sessionId, 'question');
    await expect(compact()).rejects.toBeInstanceOf(SessionBusyError);
    await running;

    const compacting = compact();
    expect(h.agent.isBusy(h.sessionId)).toBe(true);
    await expect(h.agent.run(h.sessionId, 'too soon')).rejects.toBeInstanceOf(SessionBusyError);
    // a second compaction outside the agent is refused too
    await expect(compactSession(deps, h.sessionId)).rejects.toThrow(
      `Session ${h.sessionId} is already being compacted`,
    );
    await compacting;
    expect(h.agent.isBusy(h.sessionId)).toBe(false);
    expect(messageText(h.db.messages.list(h.sessionId).at(-1)!)).toBe('slow summary');
  });

  it('stores nothing and reports the failure when the summarizer fails or is canceled', async () => {
    h = await agentHarness([
      { text: 'answer', usage: { input: 100, output: 10 } },
      { httpStatus: 400, message: 'prompt is too long' },
      { text: 'never', stallAfterChunks: 1 },
    ]);
    await h.agent.run(h.sessionId, 'question');
    const failures: AgentEvents['session.compact_failed'][] = [];
    h.bus.on('session.compact_failed', (e) => failures.push(e));

    await expect(compactSession(compactDeps(h), h.sessionId)).rejects.toThrow('prompt is too long');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(compactSession(compactDeps(h), h.sessionId, controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });

    expect(failures).toHaveLength(2);
    expect(failures[0]!.error).toContain('prompt is too long');
    expect(failures[1]).toEqual({ sessionId: h.sessionId, error: 'canceled' });
    const session = h.db.sessions.get(h.sessionId)!;
    expect(session.summaryMessageId).toBeUndefined();
    expect(h.db.messages.list(h.sessionId).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect([session.promptTokens, session.contextTokens]).toEqual([100, 110]);
  });
});
