/**
 * `opencode -p … -f stream-json` writes one JSON object per line as
 * the run goes (a CI job follows one tool call from start to finish), and `-d` writes what a person
 * debugging a slow run needs to stderr: the model and base URL, each request with its duration,
 * status, retries and tokens, each retry's reason, each tool call with its duration. Real
 * bin/opencode, a real shell, the loopback fake provider; durations are matched as numbers, never timed.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { roundUsd } from '../../src/session-io/conversation.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-stream-json-'));
const envFor = (f: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });
const CODER = DEFAULT_MODELS.anthropic.coder;

/** A line with the fields that change from run to run (times, ids, durations) replaced by their kind. */
function stable(line: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(line)) {
    if (key === 'time' || key === 'durationMs') out[key] = typeof value;
    else if ((key === 'sessionId' || key === 'messageId') && typeof value === 'string') out[key] = 'id';
    else out[key] = value;
  }
  return out;
}

describe('opencode -p -f stream-json', () => {
  it('writes one JSON object per line, following a tool call from its start to its result, and ends with the result', async () => {
    fake = await startFakeProvider([
      {
        text: 'Creating it.',
        toolCalls: [{ id: 'toolu_touch', name: 'bash', input: { command: 'touch made.txt' } }],
        usage: { input: 120, output: 30 },
      },
      { text: 'Done: made.txt exists.', usage: { input: 200, output: 8, cacheRead: 100 } },
    ]);
    const dir = project();
    const run = await runCli(['-p', 'make made.txt', '-f', 'stream-json'], { cwd: dir, env: envFor(fake) });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    expect(run.stdout.endsWith('\n')).toBe(true);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const sessionId = lines[0]!.sessionId;
    expect(lines.every((l) => l.sessionId === sessionId && typeof l.time === 'number')).toBe(true);
    const price = catalogModel(CODER)!.price;
    const cost = (u: { input: number; output: number; cacheRead: number }) =>
      (u.input * price.input + u.output * price.output + u.cacheRead * price.cacheRead) / 1e6;
    expect(lines.map(stable)).toEqual([
      {
        type: 'session',
        time: 'number',
        sessionId: 'id',
        title: 'Non-interactive: make made.txt',
        model: CODER,
        continued: false,
      },
      { type: 'message', time: 'number', sessionId: 'id', role: 'user', messageId: 'id', text: 'make made.txt' },
      {
        type: 'usage',
        time: 'number',
        sessionId: 'id',
        messageId: 'id',
        model: CODER,
        outcome: 'ok',
        durationMs: 'number',
        retries: 0,
        finishReason: 'tool_use',
        input: 120,
        output: 30,
        cacheRead: 0,
        cacheWrite: 0,
        costUsd: roundUsd(cost({ input: 120, output: 30, cacheRead: 0 })),
      },
      { type: 'text', time: 'number', sessionId: 'id', messageId: 'id', text: 'Creating it.' },
      {
        type: 'tool_call',
        time: 'number',
        sessionId: 'id',
        messageId: 'id',
        toolCallId: 'toolu_touch',
        name: 'bash',
        input: { command: 'touch made.txt' },
        summary: 'bash: touch made.txt',
      },
      {
        type: 'permission',
        time: 'number',
        sessionId: 'id',
        toolName: 'bash',
        decision: 'allow',
        by: 'unattended',
        description: 'Execute command: touch made.txt',
      },
      {
        type: 'tool_result',
        time: 'number',
        sessionId: 'id',
        toolCallId: 'toolu_touch',
        name: 'bash',
        isError: false,
        durationMs: 'number',
        summary: 'no output',
        outputChars: 9,
      },
      {
        type: 'usage',
        time: 'number',
        sessionId: 'id',
        messageId: 'id',
        model: CODER,
        outcome: 'ok',
        durationMs: 'number',
        retries: 0,
        finishReason: 'end_turn',
        input: 200,
        output: 8,
        cacheRead: 100,
        cacheWrite: 0,
        costUsd: roundUsd(cost({ input: 200, output: 8, cacheRead: 100 })),
      },
      { type: 'text', time: 'number', sessionId: 'id', messageId: 'id', text: 'Done: made.txt exists.' },
      {
        type: 'result',
        time: 'number',
        sessionId: 'id',
        reason: 'end_turn',
        text: 'Done: made.txt exists.',
        usage: { input: 320, output: 38, cacheWrite: 0, cacheRead: 100 },
        costUsd: roundUsd(
          cost({ input: 120, output: 30, cacheRead: 0 }) + cost({ input: 200, output: 8, cacheRead: 100 }),
        ),
      },
    ]);
    // the tool call's start and result name the same call, and the call's message is the step before it
    const call = lines.find((l) => l.type === 'tool_call')!;
    expect(call.messageId).toBe(lines[2]!.messageId);
    expect(lines[3]!.messageId).toBe(call.messageId);
  });

  it('ends with a result line naming the error when the provider fails (exit 1, the cause on stderr too)', async () => {
    fake = await startFakeProvider([{ httpStatus: 400, message: 'prompt is too long' }]);
    const run = await runCli(['-p', 'hi', '-f', 'stream-json'], { cwd: project(), env: envFor(fake) });
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type)).toEqual(['session', 'message', 'usage', 'result']);
    expect(lines[2]).toMatchObject({ outcome: 'error', status: 400, retries: 0 });
    expect(lines[3]).toMatchObject({ reason: 'error', text: '' });
    expect(lines[3]!.error).toContain('prompt is too long');
    expect(run.stderr).toBe(`opencode: ${lines[3]!.error as string}\n`);
  });
});

describe('opencode -p -d', () => {
  it('prints the model and base URL, each request with status, retries and tokens, each retry and tool call', async () => {
    fake = await startFakeProvider([
      { httpStatus: 529 },
      { text: 'Listing.', toolCalls: [{ id: 'toolu_ls', name: 'ls', input: {} }], usage: { input: 50, output: 7 } },
      { text: 'Empty.', usage: { input: 60, output: 2, cacheWrite: 40 } },
    ]);
    const dir = project();
    // the first retry waits about 2 s (the provider's backoff)
    const run = await runCli(['-p', 'what is here?', '-d'], { cwd: dir, env: envFor(fake), timeoutMs: 90_000 });
    expect(run).toMatchObject({ code: 0, stdout: 'Empty.\n' });
    const debug = run.stderr.split('\n').filter((l) => l.startsWith('[debug] '));
    const model = catalogModel(CODER)!;
    expect(debug[0]).toBe(`[debug] model ${CODER} (API model ${model.apiModel}) at ${fake.anthropicBaseURL}`);
    expect(debug.slice(1)).toEqual([
      expect.stringMatching(/^\[debug\] retry 1\/8 in \d+(\.\d)? s: .*(overloaded|529)/i),
      expect.stringMatching(
        /^\[debug\] request 1: ok in \d+ ms, after 1 retry \(finish tool_use; tokens 50 in, 7 out, 0 cache read, 0 cache write; \$\d+\.\d{4}\)$/,
      ),
      '[debug] tool ls toolu_ls started',
      expect.stringMatching(/^\[debug\] tool ls toolu_ls finished in \d+ ms$/),
      expect.stringMatching(
        /^\[debug\] request 2: ok in \d+ ms \(finish end_turn; tokens 60 in, 2 out, 0 cache read, 40 cache write; \$\d+\.\d{4}\)$/,
      ),
    ]);
  }, 120_000);

  it('names a failed request with its HTTP status', async () => {
    fake = await startFakeProvider([{ httpStatus: 401, message: 'invalid x-api-key' }]);
    const run = await runCli(['-p', 'hi', '-d'], { cwd: project(), env: envFor(fake) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^\[debug\] request 1: failed in \d+ ms, HTTP 401: .*invalid x-api-key.*$/m);
  });
});
