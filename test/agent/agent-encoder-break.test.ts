/**
 * What the model is sent is the conversation (the incremental request bodies of src/provider/
 * anthropic-body.ts and openai-body.ts): through the real agent, the real providers (their SDKs) and the
 * loopback fake, every request body the fake receives is, byte for byte, the request built afresh from what
 * the provider was handed and the request built from the history stored in SQLite at that moment
 * (test/support/request-witness.ts), in the situations where parts are replaced, reset, capped, re-read or
 * shared: retries, a stream that died, cancels, a denial, capped results and replies, images, thinking, a
 * model switch, prompts and tool lists that change, a resumed session, sub-agents, titles and compaction,
 * for both wire formats. (process-encoder-break.test.ts: sessions resumed by new processes after a kill.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { compactSession } from '../../src/agent/compact.js';
import type { AgentEvents } from '../../src/agent/events.js';
import { generateTitle } from '../../src/agent/title.js';
import { openDatabase } from '../../src/db/index.js';
import { MAX_STORED_PART_CHARS } from '../../src/db/part-cap.js';
import { EventBus } from '../../src/events/bus.js';
import { messageText, type ImagePart } from '../../src/message.js';
import { checkPluginTool, createPluginTool } from '../../src/plugin/tool.js';
import { catalogModel, computeCost } from '../../src/provider/index.js';
import { FileTimes } from '../../src/tools/file-times.js';
import { createShell } from '../../src/tools/shell.js';
import type { Tool } from '../../src/tools/tool.js';
import type { FakeTurn } from '../support/fake-provider.js';
import {
  expectSentAsBuilt,
  messagesOf,
  MODELS,
  PNG,
  startWorld,
  TITLE_PROMPT,
  type Witnessed,
  type World,
} from '../support/request-witness.js';

let world: World | undefined;
const extraClosers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await world?.close();
  world = undefined;
  for (const close of extraClosers.splice(0)) await close();
});

describe.each(['anthropic', 'openai'] as const)('%s: the bytes sent are the conversation', (api) => {
  it('over several prompts with tool batches (the cache breakpoints move at every call), parts read as the TUI reads them', async () => {
    world = await startWorld(api, []);
    // the TUI reads every message it is told of (a stored message's parts are parsed on that first read)
    let read = 0;
    const readParts = ({ message }: { message: { parts: unknown[] } }) => void (read += message.parts.length);
    world.bus.on('message.created', readParts);
    world.bus.on('message.updated', readParts);
    const file = join(world.dir, 'a.txt');
    writeFileSync(file, 'alpha\nbéta\n');
    world.fake.push(
      { text: 'Looking → first', toolCalls: [{ name: 'ls', input: { path: '.' } }] },
      { text: 'Done: café ✓ 😀' },
      {
        toolCalls: [
          { name: 'view', input: { file_path: file } },
          { name: 'glob', input: { pattern: '*.txt' } },
        ],
      },
      { text: 'Both read.' },
      { text: 'Bye "quoted" \\ \u0001' },
    );
    const r1 = await world.agent.run(world.sessionId, 'list the files 😀');
    expect(messageText(r1.message!)).toBe('Done: café ✓ 😀');
    const r2 = await world.agent.run(world.sessionId, `read ${file}`);
    expect(messageText(r2.message!)).toBe('Both read.');
    await world.agent.run(world.sessionId, 'thanks');
    const seen = expectSentAsBuilt(world, 5);
    expect(messagesOf(seen[4]!).length).toBeGreaterThanOrEqual(7);
    expect(read).toBeGreaterThan(0);
  });

  it('a call retried before any event sends the same bytes again', async () => {
    world = await startWorld(api, [
      { dropAfterChunks: 0 },
      { httpStatus: 529, message: 'Overloaded' },
      { text: 'whole reply', toolCalls: [{ name: 'ls', input: { path: '.' } }] },
      { text: 'listed' },
      { text: 'second prompt answered' },
    ]);
    await world.agent.run(world.sessionId, 'list');
    await world.agent.run(world.sessionId, 'and again');
    const seen = expectSentAsBuilt(world, 5);
    expect(seen[1]!.text).toBe(seen[0]!.text);
    expect(seen[2]!.text).toBe(seen[0]!.text);
    expect(seen[3]!.text).toContain('whole reply');
  });

  it('a stream that died half-way: the next prompt sends the part-reply as stored, its cut call answered', async () => {
    world = await startWorld(api, [
      { text: 'half of a reply that dies', toolCalls: [{ name: 'ls', input: { path: '.' } }], dropAfterChunks: 9 },
      { text: 'second prompt answered' },
      { text: 'third' },
    ]);
    expect((await world.agent.run(world.sessionId, 'list')).reason).toBe('error');
    await world.agent.run(world.sessionId, 'and again');
    await world.agent.run(world.sessionId, 'once more');
    const seen = expectSentAsBuilt(world, 3);
    expect(seen.map((s) => s.text.includes('half of a'))).toEqual([false, true, true]);
  });

  it('cancelled mid-stream and mid-tool: the next prompts send the cancelled turns as stored', async () => {
    world = await startWorld(api, [
      {
        text: 'Let me look',
        toolCalls: [{ name: 'view', input: { file_path: '/etc/hostname' } }],
        stallAfterChunks: 8,
      },
      {
        toolCalls: [
          { name: 'bash', input: { command: 'sleep 30' } },
          { name: 'ls', input: { path: '.' } },
        ],
      },
      { text: 'Fine, stopped.' },
    ]);
    const w = world;
    const stopStreaming = w.bus.on('message.updated', ({ message }) => {
      if (message.parts.some((p) => p.type === 'tool_call')) w.agent.cancel(w.sessionId);
    });
    expect((await w.agent.run(w.sessionId, 'look')).reason).toBe('canceled');
    stopStreaming();
    const stopTool = w.bus.on('tool.started', () => setTimeout(() => w.agent.cancel(w.sessionId), 100));
    expect((await w.agent.run(w.sessionId, 'sleep')).reason).toBe('canceled');
    stopTool();
    expect(messageText((await w.agent.run(w.sessionId, 'continue')).message!)).toBe('Fine, stopped.');
    const seen = expectSentAsBuilt(w, 3);
    expect(seen[2]!.text).toContain('Tool execution canceled by user');
  });

  it('a batch with a denied call: the calls that never ran are sent with their results, then and after', async () => {
    world = await startWorld(api, [], { deny: (name) => name === 'write' });
    world.fake.push(
      {
        toolCalls: [
          { name: 'ls', input: { path: '.' } },
          { name: 'write', input: { file_path: join(world.dir, 'x.txt'), content: 'x' } },
          { name: 'ls', input: { path: '..' } },
        ],
      },
      { text: 'ok then' },
      { text: 'still fine' },
    );
    expect((await world.agent.run(world.sessionId, 'do it')).reason).toBe('permission_denied');
    await world.agent.run(world.sessionId, 'go on');
    await world.agent.run(world.sessionId, 'and on');
    const seen = expectSentAsBuilt(world, 3);
    const results = messagesOf(seen[2]!).flatMap((m) =>
      api === 'anthropic'
        ? Array.isArray(m.content)
          ? m.content.filter((b: { type: string }) => b.type === 'tool_result')
          : []
        : m.role === 'tool'
          ? [m]
          : [],
    );
    expect(results).toHaveLength(3);
  });

  it('a tool result and a reply past the storage cap are sent cut, as stored, in the run and after', async () => {
    const huge = `${'é'.repeat(10)}${'x'.repeat(MAX_STORED_PART_CHARS)}${'z'.repeat(2000)} end`;
    const tool: Tool = {
      name: 'huge',
      description: 'Returns a huge text',
      inputSchema: { type: 'object', properties: {} },
      readOnly: true,
      run: async () => ({ output: huge, isError: false }),
    };
    // a reply past the cap too, in two chunks
    const half = MAX_STORED_PART_CHARS / 2 + 5000;
    const reply = [`${'r'.repeat(half)}`, `${'s'.repeat(half)} → end`];
    world = await startWorld(
      api,
      [{ toolCalls: [{ name: 'huge', input: {} }] }, { text: 'got it' }, { text: reply }, { text: 'again' }],
      { tools: [tool] },
    );
    await world.agent.run(world.sessionId, 'make it big');
    await world.agent.run(world.sessionId, 'say a lot');
    await world.agent.run(world.sessionId, 'once more');
    const seen = expectSentAsBuilt(world, 4);
    const cuts = (s: Witnessed) => s.text.split('cut here when this was stored').length - 1;
    expect(seen.map(cuts)).toEqual([0, 1, 1, 2]);
    expect(seen[3]!.text.length).toBeLessThan(2 * MAX_STORED_PART_CHARS + 100_000);
  }, 60_000);

  it('images in the user message and in a tool result (one of a type the API does not take)', async () => {
    const snap: Tool = {
      name: 'snap',
      description: 'Takes a picture',
      inputSchema: { type: 'object', properties: {} },
      readOnly: true,
      run: async () => ({
        output: 'two pictures',
        isError: false,
        images: [
          { mimeType: 'image/png', data: PNG },
          { mimeType: 'image/bmp', data: 'Qk0=' },
        ],
      }),
    };
    world = await startWorld(
      api,
      [{ toolCalls: [{ name: 'snap', input: {} }] }, { text: 'nice' }, { text: 'second' }],
      { tools: [snap] },
    );
    const attachments: ImagePart[] = [{ type: 'image', mimeType: 'image/png', data: PNG, name: 'a.png' }];
    await world.agent.run(world.sessionId, 'look at this', { attachments });
    await world.agent.run(world.sessionId, 'and now?');
    const seen = expectSentAsBuilt(world, 3);
    expect(seen[2]!.text.split(PNG).length - 1).toBe(2);
  });

  it('a model switch and back: each request is built for the model it goes to (thinking, images)', async () => {
    const turns: FakeTurn[] = [
      {
        thinking: { text: 'let me think', signature: 'sig-1' },
        ...(api === 'anthropic' ? { redactedThinking: 'opaque==' } : {}),
        text: 'Listing',
        toolCalls: [{ name: 'ls', input: { path: '.' } }],
      },
      { text: 'Listed.' },
      { text: 'Other model here.' },
      { text: 'First model again.' },
    ];
    world = await startWorld(api, turns);
    const attachments: ImagePart[] = [{ type: 'image', mimeType: 'image/png', data: PNG, name: 'a.png' }];
    await world.agent.run(world.sessionId, 'think, then list', { attachments });
    const other = world.coder(world.providerFor(MODELS[api][1]));
    await other.run(world.sessionId, 'what do you see?');
    await world.agent.run(world.sessionId, 'back to you');
    const seen = expectSentAsBuilt(world, 4);
    if (api === 'anthropic') {
      // the thinking of the first model goes back to it, not to the other one
      expect(seen[1]!.text).toContain('"signature":"sig-1"');
      expect(seen[1]!.text).toContain('"redacted_thinking"');
      expect(seen[2]!.text).not.toContain('sig-1');
      expect(seen[2]!.text).not.toContain('redacted_thinking');
      expect(seen[3]!.text).toContain('"signature":"sig-1"');
    }
    // reasoning is never sent back to Chat Completions; o3-mini takes no images
    if (api === 'openai')
      expect(seen.map((s) => [s.text.includes('let me think'), s.text.includes(PNG)])).toEqual([
        [false, true],
        [false, true],
        [false, false],
        [false, true],
      ]);
    expect(JSON.parse(seen[2]!.text).model).toBe(catalogModel(MODELS[api][1])!.apiModel);
  });

  it('a reply of thinking alone, and a stream cancelled while it thinks', async () => {
    world = await startWorld(api, [
      { thinking: { text: 'only thinking', signature: 'sig-only' } },
      { thinking: { text: 'a long thought cut short', signature: 'sig-cut' }, text: 'never seen', stallAfterChunks: 6 },
      { text: 'after the cancel' },
    ]);
    const w = world;
    await w.agent.run(w.sessionId, 'think about it');
    const stop = w.bus.on('message.updated', ({ message }) => {
      if (message.role === 'assistant' && message.parts.some((p) => p.type === 'reasoning'))
        w.agent.cancel(w.sessionId);
    });
    expect((await w.agent.run(w.sessionId, 'think more')).reason).toBe('canceled');
    stop();
    await w.agent.run(w.sessionId, 'and?');
    const seen = expectSentAsBuilt(w, 3);
    // signed thinking goes back to Anthropic, the unsigned part of a cut one never does
    expect(seen.map((s) => [s.text.includes('sig-only'), s.text.includes('a long thought')])).toEqual([
      [false, false],
      [api === 'anthropic', false],
      [api === 'anthropic', false],
    ]);
  });

  it('the system prompt and the tool list change between calls (tools appear, change and go)', async () => {
    world = await startWorld(api, [
      { text: 'one' },
      { text: 'two' },
      { text: 'three' },
      { text: 'four' },
      { text: 'five' },
    ]);
    const tool = (description: string, properties: Record<string, unknown>): Tool => ({
      name: 'weather',
      description,
      inputSchema: { type: 'object', properties, required: Object.keys(properties) },
      readOnly: true,
      run: async () => ({ output: 'sunny', isError: false }),
    });
    await world.agent.run(world.sessionId, 'one');
    world.tree.text += `\n  - new-file.ts`;
    world.tools.register(tool('Weather', { city: { type: 'string' } }), 'mcp');
    await world.agent.run(world.sessionId, 'two');
    world.tools.register(tool('Weather', { city: { type: 'string' }, days: { type: 'number' } }), 'mcp');
    await world.agent.run(world.sessionId, 'three');
    world.tools.register(tool('Weather, better', { city: { type: 'string' }, days: { type: 'number' } }), 'mcp');
    await world.agent.run(world.sessionId, 'four');
    world.tools.unregister('weather', 'mcp');
    await world.agent.run(world.sessionId, 'five');
    const seen = expectSentAsBuilt(world, 5);
    expect(seen.map((s) => s.text.includes('"weather"'))).toEqual([false, true, true, true, false]);
    expect(seen.map((s) => s.text.includes('"days"'))).toEqual([false, false, true, true, false]);
    expect(seen[1]!.systemPrompt).toContain('new-file.ts');
  });

  it("a plugin tool's JSON Schema changed in place after it was loaded", async () => {
    const args = {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city' } },
      required: ['city'],
    };
    const plugin = createPluginTool('forecast', { description: 'Forecast', args, execute: async () => 'rain' });
    world = await startWorld(api, [{ text: 'one' }, { text: 'two' }], { tools: [plugin] });
    await world.agent.run(world.sessionId, 'one');
    // the plugin keeps its schema object and edits it (a list of choices it learned, say)
    (args.properties.city as Record<string, unknown>).enum = ['Paris', 'Oslo'];
    args.properties.city.description = 'The city, one of those known';
    await world.agent.run(world.sessionId, 'two');
    const seen = expectSentAsBuilt(world, 2);
    // the schema as it was loaded: what the plugin does to its object afterwards is not sent
    expect(seen.map((s) => s.text.includes('Oslo'))).toEqual([false, false]);
    expect(seen.map((s) => s.text.includes('"The city"'))).toEqual([true, true]);
  });

  it('a session resumed from the database after a kill (parts parsed anew, the cut-off call repaired)', async () => {
    world = await startWorld(api, [{ text: 'first' }, { text: 'after the crash' }, { text: 'and later' }]);
    const w = world;
    await w.agent.run(w.sessionId, 'hello');
    // what a killed process leaves: a reply with a call, unfinished, no result
    w.db.messages.create({
      sessionId: w.sessionId,
      role: 'user',
      parts: [
        { type: 'text', text: 'run it' },
        { type: 'finish', reason: 'end_turn', time: 1 },
      ],
    });
    w.db.messages.create({
      sessionId: w.sessionId,
      role: 'assistant',
      model: w.provider.model.id,
      parts: [
        { type: 'text', text: 'Running' },
        { type: 'tool_call', id: 'cut1', name: 'bash', input: '{"command":"sleep 100"}', finished: true },
      ],
    });
    // another connection, another coder, the same provider (its encoder holds the first run's parts)
    const db2 = openDatabase(join(w.dir, '.opencode'));
    extraClosers.push(() => db2.close());
    const bus = new EventBus<AgentEvents>();
    const resumed = new Agent({
      kind: 'coder',
      provider: w.provider,
      store: db2,
      permission: w.permission,
      bus,
      tools: w.tools,
      toolServices: { fileTimes: new FileTimes(), fileHistory: db2.files, shellFor: () => createShell({ cwd: w.dir }) },
      promptEnvironment: () => ({ cwd: w.dir, projectTree: w.tree.text, contextPaths: [] }),
      maxTokens: 1000,
      computeCost,
    });
    await resumed.run(w.sessionId, 'continue');
    await resumed.run(w.sessionId, 'more');
    const seen = expectSentAsBuilt(w, 3);
    expect(seen[1]!.text).toContain('opencode stopped before this call finished');
  });

  it('a sub-agent on the same provider, twice', async () => {
    world = await startWorld(api, [
      { toolCalls: [{ name: 'agent', input: { prompt: 'find the files' } }] },
      { toolCalls: [{ name: 'ls', input: { path: '.' } }] },
      { text: 'found nothing much' },
      { text: 'The sub-agent found nothing much.' },
      { toolCalls: [{ name: 'agent', input: { prompt: 'look again' } }] },
      { text: 'still nothing' },
      { text: 'Still nothing.' },
    ]);
    await world.agent.run(world.sessionId, 'delegate');
    const r = await world.agent.run(world.sessionId, 'delegate again');
    expect(messageText(r.message!)).toBe('Still nothing.');
    expectSentAsBuilt(world, 7);
  });

  it('two sub-agents at once on the same provider (one batch of two agent calls)', async () => {
    world = await startWorld(api, [
      {
        toolCalls: [
          { name: 'agent', input: { prompt: 'look left' } },
          { name: 'agent', input: { prompt: 'look right' } },
        ],
      },
      { toolCalls: [{ name: 'ls', input: { path: '.' } }] },
      { toolCalls: [{ name: 'ls', input: { path: '..' } }] },
      { text: 'one side done' },
      { text: 'other side done' },
      { text: 'Both sides seen.' },
    ]);
    const r = await world.agent.run(world.sessionId, 'look both ways');
    expect(messageText(r.message!)).toBe('Both sides seen.');
    const seen = expectSentAsBuilt(world, 6);
    // the sub-agents' requests were in flight together
    expect(seen.filter((s) => s.live.length === 2)).not.toHaveLength(0);
  });

  it('a title made on the same provider while the first request streams', async () => {
    let title = '';
    world = await startWorld(api, [{ text: 'first', chunkDelayMs: 20 }, { text: 'second' }], {
      agent: (w) => ({
        generateTitle: async (sessionId, text) => {
          title = await generateTitle(w.provider, text);
          w.db.sessions.updateTitle(sessionId, title);
        },
      }),
    });
    await world.agent.run(world.sessionId, 'name this session');
    await world.agent.idle();
    await world.agent.run(world.sessionId, 'go on');
    const seen = expectSentAsBuilt(world, 2);
    expect(title).toBe('A title');
    expect(seen.filter((s) => s.systemPrompt === TITLE_PROMPT)).toHaveLength(1);
  });

  it('compaction on the same provider, by hand and automatic: the summary replaces the history', async () => {
    world = await startWorld(
      api,
      [
        { text: 'First answer.', usage: { input: 100, output: 10 } },
        { toolCalls: [{ name: 'ls', input: { path: '.' } }], usage: { input: 100, output: 10 } },
        { text: 'Listed.', usage: { input: 100, output: 10 } },
        { text: 'Summary one.', usage: { input: 50, output: 5 } },
        { text: 'After the summary.', usage: { input: 990, output: 5 } },
        { text: 'Summary two.', usage: { input: 50, output: 5 } },
        { text: 'After the automatic summary.', usage: { input: 10, output: 5 } },
      ],
      {
        agent: (w) => ({
          autoCompact: {
            contextWindowTokens: 1000,
            compact: (sessionId, signal) =>
              compactSession(
                { provider: w.provider, store: w.db, bus: w.bus, maxTokens: 500, computeCost },
                sessionId,
                signal,
              ),
          },
        }),
      },
    );
    const w = world;
    await w.agent.run(w.sessionId, 'first');
    await w.agent.run(w.sessionId, 'list');
    await compactSession({ provider: w.provider, store: w.db, bus: w.bus, maxTokens: 500, computeCost }, w.sessionId);
    await w.agent.run(w.sessionId, 'after');
    const r = await w.agent.run(w.sessionId, 'after auto');
    expect(messageText(r.message!)).toBe('After the automatic summary.');
    const seen = expectSentAsBuilt(w, 5);
    const last = seen.at(-1)!;
    expect(last.text).toContain('Summary two.');
    expect(last.text).not.toContain('Summary one.');
    // the summary as the person's message, then the new one (Anthropic merges the two into one turn)
    expect(messagesOf(last)).toHaveLength(api === 'anthropic' ? 1 : 2);
  });
});

describe('a plugin tool whose JSON Schema cannot be copied as JSON', () => {
  it('is refused when checked, with what to change', () => {
    const args: Record<string, unknown> = { type: 'object', properties: {} };
    args.self = args;
    expect(checkPluginTool('loop', { description: 'Loops', args, execute: async () => '' })).toEqual([
      'tools.loop.args: a JSON Schema must be plain JSON (Converting circular structure to JSON); remove the cycle or the BigInt',
    ]);
  });
});
