/**
 * Witnessing what the model is sent (the request-encoder tests, test/agent/*-encoder-break.test.ts): an
 * agent world wired from real parts as agent-harness.ts wires it (the real SDKs talking to the loopback
 * fake, a real SQLite file, the built-in tools, a real permission service, a task agent sharing the
 * coder's provider), whose fake checks every completion request as it arrives against
 *  - the JSON of the request built afresh (`toAnthropicParams` / `toOpenAIParams`) from each request in
 *    flight with the same system prompt (the providers are wrapped to know which are: the wrapper changes
 *    nothing), and
 *  - for the agent loop's requests, the JSON of the same request with the history stored in SQLite at
 *    that moment (historyForProvider of every message of the session streaming a reply, that reply left out).
 * {@link expectSentAsBuilt} then asserts the bytes received equal one of each.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Agent, type AgentOptions } from '../../src/agent/agent.js';
import type { AgentEvents } from '../../src/agent/events.js';
import { historyForProvider } from '../../src/agent/history.js';
import { systemPrompt } from '../../src/agent/prompts.js';
import { createSubAgentRunner } from '../../src/agent/sub-agent.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { EventBus } from '../../src/events/bus.js';
import { finishPart } from '../../src/message.js';
import { PermissionService } from '../../src/permission/service.js';
import { toAnthropicParams } from '../../src/provider/anthropic-request.js';
import { catalogModel, computeCost, createProvider } from '../../src/provider/index.js';
import { toOpenAIParams } from '../../src/provider/openai-request.js';
import type { ModelInfo, Provider, ProviderEvent, ProviderRequest } from '../../src/provider/types.js';
import { FileTimes } from '../../src/tools/file-times.js';
import { builtinTools, TASK_TOOL_NAMES } from '../../src/tools/index.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner, Tool } from '../../src/tools/tool.js';
import { startFakeProvider, type FakeProvider, type FakeTurn } from './fake-provider.js';

export type Api = 'anthropic' | 'openai';

/** the coder's model and the one a switch goes to, per wire format */
export const MODELS: Record<Api, [string, string]> = {
  anthropic: ['anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4'],
  // o3-mini: a reasoning model (other limits) that takes no images
  openai: ['openai/gpt-4.1', 'openai/o3-mini'],
};

export const TITLE_PROMPT = systemPrompt('title');
export const SUMMARIZER_PROMPT = systemPrompt('summarizer');

/** A 1×1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What the fake received, and what it should have been. */
export interface Witnessed {
  api: Api;
  /** the body as received */
  text: string;
  systemPrompt: string;
  /** JSON of the request built afresh from each request in flight with this system prompt */
  live: string[];
  /** JSON of the request built from the stored history of each session streaming a reply (loop requests only) */
  stored: string[];
  /** a request of an agent loop (not a title or a summary) */
  loop: boolean;
}

/** The provider as the agent gets it, noting which requests are in flight (it changes nothing). */
export class WatchedProvider implements Provider {
  readonly inflight = new Set<ProviderRequest>();
  constructor(
    readonly api: Api,
    private readonly inner: Provider,
  ) {}

  get model(): ModelInfo {
    return this.inner.model;
  }

  stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const { inner, inflight } = this;
    return (async function* () {
      inflight.add(request);
      try {
        yield* inner.stream(request);
      } finally {
        inflight.delete(request);
      }
    })();
  }
}

export function bodyOf(api: Api, model: ModelInfo, request: ProviderRequest): string {
  return JSON.stringify(api === 'anthropic' ? toAnthropicParams(model, request) : toOpenAIParams(model, request));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function systemOf(api: Api, body: any): string {
  if (api === 'anthropic') return body?.system?.[0]?.text ?? '';
  const first = body?.messages?.[0];
  return first?.role === 'system' ? first.content : '';
}

export interface World {
  api: Api;
  fake: FakeProvider;
  dir: string;
  db: Database;
  bus: EventBus<AgentEvents>;
  tools: ToolRegistry;
  permission: PermissionService;
  sessionId: string;
  witnessed: Witnessed[];
  /** the coder on the first model */
  agent: Agent;
  provider: WatchedProvider;
  /** a provider for `modelId` (watched), e.g. for a model switch or a summarizer */
  providerFor(modelId: string): WatchedProvider;
  /** a coder on `provider` sharing everything else (a model switch builds one, as the app does) */
  coder(provider: WatchedProvider, extra?: Partial<AgentOptions>): Agent;
  /** the project tree the prompt shows (changing it changes the system prompt) */
  tree: { text: string };
  close(): Promise<void>;
}

export interface WorldOptions {
  tools?: Tool[];
  /** permission answer per tool name; default allow */
  deny?: (toolName: string) => boolean;
  agent?: (world: World) => Partial<AgentOptions>;
  maxRetries?: number;
}

export async function startWorld(api: Api, turns: FakeTurn[], options: WorldOptions = {}): Promise<World> {
  const witnessed: Witnessed[] = [];
  const providers: WatchedProvider[] = [];
  let w: World;
  const fake = await startFakeProvider(turns, {
    sideTurn: (body) => {
      witness(body);
      return systemOf(api, body) === TITLE_PROMPT ? { text: 'A title' } : undefined;
    },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function witness(body: any): void {
    const record = fake.requests.at(-1)!;
    const system = systemOf(api, body);
    const live: string[] = [];
    const stored: string[] = [];
    const loop = system !== TITLE_PROMPT && !system.startsWith(SUMMARIZER_PROMPT);
    for (const provider of providers) {
      for (const request of provider.inflight) {
        if ((request.systemPrompt.trim() ? request.systemPrompt : '') !== system) continue;
        live.push(bodyOf(api, provider.model, request));
        if (!loop) continue;
        // the session streaming a reply: its last message is an unfinished assistant message
        for (const session of w.db.sessions.listAll()) {
          const messages = w.db.messages.list(session.id);
          const last = messages.at(-1);
          if (last?.role !== 'assistant' || finishPart(last)) continue;
          const history = historyForProvider(messages.slice(0, -1), session.summaryMessageId);
          stored.push(bodyOf(api, provider.model, { ...request, messages: history }));
        }
      }
    }
    witnessed.push({ api, text: record.text, systemPrompt: system, live, stored, loop });
  }

  const dir = mkdtempSync(join(tmpdir(), 'opencode-encoder-break-'));
  const db = openDatabase(join(dir, '.opencode'));
  const env =
    api === 'anthropic'
      ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }
      : { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.openaiBaseURL };
  const providerFor = (modelId: string) => {
    const provider = new WatchedProvider(
      api,
      createProvider(
        catalogModel(modelId)!,
        { providers: {}, env },
        { baseDelayMs: 1, maxRetries: options.maxRetries ?? 3 },
      ),
    );
    providers.push(provider);
    return provider;
  };
  const tools = builtinTools();
  for (const tool of options.tools ?? []) tools.register(tool, 'project');
  const bus = new EventBus<AgentEvents>();
  const permission = new PermissionService(dir);
  permission.onRequest((r) => permission.respond(r.id, options.deny?.(r.toolName) ? 'deny' : 'allow'));
  const shells = new Map<string, ShellRunner>();
  const toolServices = {
    fileTimes: new FileTimes(),
    fileHistory: db.files,
    shellFor: (id: string) => shells.get(id) ?? shells.set(id, createShell({ cwd: dir })).get(id)!,
  };
  const tree = { text: `- ${dir}/` };
  const provider = providerFor(MODELS[api][0]);
  const agents: Agent[] = [];
  const coder = (p: WatchedProvider, extra: Partial<AgentOptions> = {}) => {
    const common = {
      provider: p,
      store: db,
      permission,
      bus,
      promptEnvironment: () => ({ cwd: dir, projectTree: tree.text, contextPaths: [] }),
      maxTokens: 1000,
      computeCost,
    };
    // the task agent shares the coder's provider (and so its encoder)
    const task = new Agent({ ...common, kind: 'task', tools: tools.subset(TASK_TOOL_NAMES), toolServices });
    const agent = new Agent({
      ...common,
      kind: 'coder',
      tools,
      toolServices: { ...toolServices, runSubAgent: createSubAgentRunner(task, db) },
      ...extra,
    });
    agents.push(agent);
    return agent;
  };
  w = {
    api,
    fake,
    dir,
    db,
    bus,
    tools,
    permission,
    sessionId: db.sessions.create({ title: 'test' }).id,
    witnessed,
    provider,
    providerFor,
    coder,
    tree,
    agent: undefined as unknown as Agent,
    async close() {
      for (const agent of agents) await agent.idle();
      for (const s of shells.values()) s.close();
      db.close();
      await fake.close();
    },
  };
  w.agent = coder(provider, options.agent?.(w));
  return w;
}

/** Where two texts first differ, with some context of each. */
export function firstDifference(got: string, want: string): string {
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  return `at ${i} of ${got.length}/${want.length}: sent …${JSON.stringify(got.slice(Math.max(0, i - 60), i + 60))}… expected …${JSON.stringify(want.slice(Math.max(0, i - 60), i + 60))}…`;
}

/**
 * Every completion request the fake received was witnessed, none was rejected, and each body is exactly
 * the request built afresh, and (loop requests) the request built from the stored history. Returns the
 * witnessed requests.
 */
export function expectSentAsBuilt(w: World, loopRequests: number): Witnessed[] {
  const completions = w.fake.requests.filter((r) => r.api !== 'models');
  expect(completions.filter((r) => r.rejected).map((r) => r.rejected)).toEqual([]);
  expect(w.witnessed).toHaveLength(completions.length);
  const problems: string[] = [];
  w.witnessed.forEach((seen, i) => {
    if (seen.live.length === 0) problems.push(`#${i}: no request in flight with its system prompt`);
    else if (!seen.live.includes(seen.text))
      problems.push(`#${i} vs the request: ${firstDifference(seen.text, seen.live[0]!)}`);
    if (!seen.loop) return;
    if (seen.stored.length === 0) problems.push(`#${i}: no session streaming a reply`);
    else if (!seen.stored.includes(seen.text))
      problems.push(`#${i} vs the stored history: ${firstDifference(seen.text, seen.stored[0]!)}`);
  });
  expect(problems).toEqual([]);
  expect(w.witnessed.filter((s) => s.loop)).toHaveLength(loopRequests);
  return w.witnessed;
}

/** The history messages of a received body (Anthropic turns or Chat Completions messages, system excluded). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function messagesOf(seen: Witnessed): any[] {
  const body = JSON.parse(seen.text);
  return seen.api === 'anthropic' ? body.messages : body.messages.filter((m: { role: string }) => m.role !== 'system');
}
