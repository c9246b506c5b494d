/**
 * Replies as real providers stream them, through the real SDKs and bin/opencode against the loopback fake:
 * an Anthropic refusal (with `stop_details`), a paused turn (`pause_turn`) and its continuation, text around
 * server tool blocks, a stop reason we do not know, DeepSeek's reasoning sent back with tool calls, xAI's
 * reasoning tokens outside `completion_tokens`, Groq's `x_groq.usage`, a stream without usage, a server
 * that numbers tool calls per reply, and a local server that lists no models.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { roundUsd } from '../../src/session-io/conversation.js';
import {
  startFakeProvider,
  type FakeProvider,
  type FakeProviderOptions,
  type FakeTurn,
} from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = (config?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-shapes-'));
  if (config) writeFileSync(join(dir, '.opencode.json'), JSON.stringify(config));
  return dir;
};
const anthropicEnv = (f: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });
const lines = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
const start = async (turns: FakeTurn[], options?: FakeProviderOptions) =>
  (fake = await startFakeProvider(turns, options));
/** Each message of a request as `[role, its blocks' types and texts]`. */
const shape = (body: { messages: { role: string; content: string | { type: string; text?: string }[] }[] }) =>
  body.messages.map((m) => [
    m.role,
    typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : b.type)),
  ]);

const EXPLANATION = 'This request was declined because it could enable cyber harm.';
const REFUSED: FakeTurn = {
  text: 'I can',
  stopReason: 'refusal',
  stopDetails: { type: 'refusal', category: 'cyber', explanation: EXPLANATION },
};
const SEARCH_USE = {
  type: 'server_tool_use',
  id: 'srvtoolu_01',
  name: 'web_search',
  input: { query: 'node 20 release date' },
};
const SEARCH_RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01',
  content: [
    {
      type: 'web_search_result',
      url: 'https://nodejs.org/en/blog',
      title: 'Node.js 20',
      encrypted_content: 'EqQBCgIYAhIM',
      page_age: null,
    },
  ],
};

describe('an Anthropic refusal', () => {
  it('exits 1 with the explanation on stderr, prints no answer, and the next prompt is sent without the refused one', async () => {
    await start([REFUSED, { text: 'Here is a sorting function.' }]);
    const dir = project();
    const env = anthropicEnv(fake!);
    const refused = await runCli(['-p', 'write malware', '-f', 'stream-json'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `opencode: The model declined to answer: ${EXPLANATION} (this prompt is left out of later requests; rephrase it to go on)\n`,
    );
    const result = lines(refused.stdout).at(-1)!;
    expect([result.type, result.reason, result.error]).toEqual([
      'result',
      'refusal',
      `The model declined to answer: ${EXPLANATION}`,
    ]);

    const next = await runCli(['-p', 'write a sort function', '--continue'], { cwd: dir, env });
    expect([next.code, next.stdout, next.stderr]).toEqual([0, 'Here is a sorting function.\n', '']);
    expect(shape(fake!.answered[1])).toEqual([['user', ['write a sort function']]]);
  });

  it('prints nothing on stdout with -f json (not "No content available") and exits 1', async () => {
    await start([REFUSED]);
    const run = await runCli(['-p', 'write malware', '-f', 'json'], { cwd: project(), env: anthropicEnv(fake!) });
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toContain(`The model declined to answer: ${EXPLANATION}`);
  });
});

describe('an OpenAI-compatible content filter', () => {
  it('is a refusal too: exit 1, the line on stderr, nothing on stdout', async () => {
    await start([{ text: 'Par', finishReason: 'content_filter' }]);
    const run = await runCli(['-p', 'go', '-m', 'local/fake-model'], {
      cwd: project(),
      env: cleanEnv({ LOCAL_ENDPOINT: fake!.url }),
    });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      '',
      'opencode: The model declined to answer (this prompt is left out of later requests; rephrase it to go on)\n',
    ]);
  });
});

describe('an Anthropic paused turn', () => {
  it('is sent back as it is and continued; the answer is the text from before and after the pause', async () => {
    await start([
      {
        blocks: [{ text: 'Searching.' }, { server: SEARCH_USE }],
        stopReason: 'pause_turn',
        usage: { input: 30, output: 12 },
      },
      {
        blocks: [{ server: SEARCH_RESULT }, { text: 'Node 20 came out in April 2023.' }],
        usage: { input: 60, output: 9 },
      },
    ]);
    const run = await runCli(['-p', 'when did node 20 come out?', '-f', 'stream-json'], {
      cwd: project(),
      env: anthropicEnv(fake!),
    });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const continued = fake!.answered[1];
    expect(shape(continued)).toEqual([
      ['user', ['when did node 20 come out?']],
      ['assistant', ['Searching.', 'server_tool_use']],
    ]);
    expect(continued.messages[1].content[1]).toEqual(SEARCH_USE);
    const out = lines(run.stdout);
    expect(out.filter((l) => l.type === 'usage').map((l) => [l.finishReason, l.input, l.output])).toEqual([
      ['pause_turn', 30, 12],
      ['end_turn', 60, 9],
    ]);
    expect(out.at(-1)).toMatchObject({
      type: 'result',
      reason: 'end_turn',
      text: 'Searching.\n\nNode 20 came out in April 2023.',
      usage: { input: 90, output: 21 },
    });
  });
});

describe('text around server tool blocks', () => {
  it('keeps the sentences apart on stdout and sends the blocks back in their order', async () => {
    await start([
      {
        blocks: [
          { text: 'I will look it up.' },
          { server: SEARCH_USE },
          { server: SEARCH_RESULT },
          { text: 'It came out in April 2023.' },
        ],
      },
      { text: 'Yes.' },
    ]);
    const dir = project();
    const run = await runCli(['-p', 'when?'], { cwd: dir, env: anthropicEnv(fake!) });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'I will look it up.\n\nIt came out in April 2023.\n', '']);
    await runCli(['-p', 'sure?', '--continue'], { cwd: dir, env: anthropicEnv(fake!) });
    const sent = fake!.answered[1];
    expect(shape(sent)[1]).toEqual([
      'assistant',
      ['I will look it up.', 'server_tool_use', 'web_search_tool_result', 'It came out in April 2023.'],
    ]);
    expect(sent.messages[1].content.slice(1, 3)).toEqual([SEARCH_USE, SEARCH_RESULT]);
  });
});

describe('a stop reason opencode does not know', () => {
  it('prints the answer, names the reason on stderr, and exits 1', async () => {
    await start([{ text: 'Partial answer', stopReason: 'model_overheated' }]);
    const run = await runCli(['-p', 'go'], { cwd: project(), env: anthropicEnv(fake!) });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      'Partial answer\n',
      'opencode: warning: the provider ended the reply with stop reason "model_overheated", which opencode does not know; the answer may be incomplete\n',
    ]);
  });
});

describe('DeepSeek thinking mode with tool calls', () => {
  const deepseek = (f: FakeProvider, id: string) => ({
    providers: {
      [id]: {
        baseURL: f.openaiBaseURL,
        apiKeyEnv: 'DEEPSEEK_API_KEY',
        models: { 'deepseek-reasoner': { contextWindow: 131072, maxTokens: 8192 } },
      },
    },
  });
  const turns = (): FakeTurn[] => [
    {
      thinking: { text: 'I should list the folder.', signature: '' },
      toolCalls: [{ id: 'call_ds_1', name: 'ls', input: { path: '.' } }],
    },
    { thinking: { text: 'It is empty.', signature: '' }, text: 'The folder is empty.' },
  ];

  it('sends reasoning_content back on the assistant message with tool calls', async () => {
    await start(turns(), { requireReasoningContent: true });
    const run = await runCli(['-p', 'list files', '-m', 'deepseek/deepseek-reasoner'], {
      cwd: project(deepseek(fake!, 'deepseek')),
      env: cleanEnv({ DEEPSEEK_API_KEY: 'sk-ds-test' }),
    });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'The folder is empty.\n', '']);
    const assistant = fake!.answered[1].messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'I should list the folder.',
      tool_calls: [{ id: 'call_ds_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }],
    });
  });

  it('is answered 400 by the API when the field is left out (a provider no rule names)', async () => {
    await start(turns(), { requireReasoningContent: true });
    const config = {
      providers: { acme: { baseURL: fake!.openaiBaseURL, apiKeyEnv: 'ACME_KEY', models: { 'r1-coder': {} } } },
    };
    const run = await runCli(['-p', 'list files', '-m', 'acme/r1-coder'], {
      cwd: project(config),
      env: cleanEnv({ ACME_KEY: 'sk-test' }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Missing `reasoning_content` field in the assistant message at message index 2.');
  });
});

describe('usage in every shape', () => {
  it('xAI: reasoning tokens outside completion_tokens are output, priced as output; stream-json and sessions list agree', async () => {
    await start([{ text: 'Four.', usage: { input: 100, output: 20, reasoningOutside: 300 } }]);
    const model = DEFAULT_MODELS.xai.coder;
    const dir = project({ providers: { xai: { baseURL: fake!.openaiBaseURL } } });
    const env = cleanEnv({ XAI_API_KEY: 'xai-test' });
    const run = await runCli(['-p', '2+2?', '-m', model, '-f', 'stream-json'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const price = catalogModel(model)!.price;
    const cost = roundUsd((100 * price.input + 320 * price.output) / 1e6);
    const usage = lines(run.stdout).find((l) => l.type === 'usage')!;
    expect([usage.input, usage.output, usage.costUsd]).toEqual([100, 320, cost]);
    const listed = JSON.parse((await runCli(['sessions', 'list', '--json'], { cwd: dir, env })).stdout)[0];
    expect([listed.tokens.input, listed.tokens.output, listed.costUsd]).toEqual([100, 320, cost]);
  });

  it('Groq: counts only in x_groq.usage are read', async () => {
    await start([{ text: 'Hi.', usage: { input: 50, output: 7 }, usageShape: 'x_groq' }]);
    const model = DEFAULT_MODELS.groq.coder;
    const dir = project({ providers: { groq: { baseURL: fake!.openaiBaseURL } } });
    const run = await runCli(['-p', 'hi', '-m', model, '-f', 'stream-json'], {
      cwd: dir,
      env: cleanEnv({ GROQ_API_KEY: 'gsk-test' }),
    });
    expect(run.code).toBe(0);
    const usage = lines(run.stdout).find((l) => l.type === 'usage')!;
    expect([usage.input, usage.output, usage.usageEstimated]).toEqual([50, 7, undefined]);
  });

  it('no usage at all: one warning for the session, estimates marked as such, the same totals in the result', async () => {
    const answer = 'Forty characters of answer, give or take';
    await start([
      { toolCalls: [{ id: 'call_1', name: 'ls', input: { path: '.' } }], usageShape: 'none' },
      { text: answer, usageShape: 'none' },
    ]);
    const env = cleanEnv({ LOCAL_ENDPOINT: fake!.url });
    const run = await runCli(['-p', 'list', '-m', 'local/fake-model', '-f', 'stream-json'], { cwd: project(), env });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const out = lines(run.stdout);
    expect(out.filter((l) => l.type === 'warning').map((l) => l.message)).toEqual([
      "local/fake-model reports no token usage; this session's token counts and cost are estimates (about 4 characters a token)",
    ]);
    const usage = out.filter((l) => l.type === 'usage');
    expect(usage.map((l) => l.usageEstimated)).toEqual([true, true]);
    expect(usage[1]!.output).toBe(Math.ceil(answer.length / 4));
    expect(usage.every((l) => l.input > 0)).toBe(true);
    const result = out.at(-1)!;
    expect(result.usage.input).toBe(usage[0]!.input + usage[1]!.input);
    expect(result.usage.output).toBe(usage[0]!.output + usage[1]!.output);
  });
});

describe('tool call ids a server numbers per reply', () => {
  it('are made unique in the session: each result pairs with its own call in what is stored and sent', async () => {
    await start([
      { toolCalls: [{ id: 'call_0', name: 'bash', input: { command: 'echo one' } }] },
      { toolCalls: [{ id: 'call_0', name: 'bash', input: { command: 'echo two' } }] },
      { text: 'Both ran.' },
    ]);
    const dir = project();
    const env = cleanEnv({ LOCAL_ENDPOINT: fake!.url });
    const run = await runCli(['-p', 'run both', '-m', 'local/fake-model', '-f', 'stream-json'], { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(
      lines(run.stdout)
        .filter((l) => l.type === 'tool_call')
        .map((l) => [l.toolCallId, l.summary]),
    ).toEqual([
      ['call_0', 'bash: echo one'],
      ['call_0_2', 'bash: echo two'],
    ]);
    const sent = fake!.answered[2].messages.filter((m: { role: string }) => m.role !== 'system' && m.role !== 'user');
    expect(
      sent.map((m: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; content: string }) =>
        m.role === 'assistant'
          ? ['assistant', m.tool_calls!.map((c) => c.id)]
          : ['tool', m.tool_call_id, m.content.trim()],
      ),
    ).toEqual([
      ['assistant', ['call_0']],
      ['tool', 'call_0', 'one'],
      ['assistant', ['call_0_2']],
      ['tool', 'call_0_2', 'two'],
    ]);
  });
});

describe('a local server that lists no models', () => {
  it('with the model named, a 404 from GET /models is a warning naming the URL and the status, and the run goes on', async () => {
    await start([{ text: 'Hello.' }], { modelsStatus: 404 });
    const env = cleanEnv({ LOCAL_ENDPOINT: fake!.url });
    const run = await runCli(['-p', 'hi', '-m', 'local/qwen3-coder'], { cwd: project(), env });
    expect([run.code, run.stdout]).toEqual([0, 'Hello.\n']);
    expect(run.stderr).toBe(
      `opencode: warning: Could not list models at ${fake!.openaiBaseURL}/models: HTTP 404: the server answers but does not list models there (it is not down); ` +
        'using local/qwen3-coder as named, with default limits (32768-token context, 4096 output tokens; to change them, set providers.local.models["qwen3-coder"] (contextWindow, maxTokens) in .opencode.json)\n',
    );
    expect(fake!.answered[0].model).toBe('qwen3-coder');
  });
});
