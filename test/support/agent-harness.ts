/**
 * An agent wired from real parts for loop tests: the real provider SDK talking to the fake provider,
 * a real SQLite file in a temp dir, the built-in tools plus any test tools registered the way custom
 * tools will be, and a real permission service.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentOptions } from '../../src/agent/agent.js';
import type { AgentEvents } from '../../src/agent/events.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { EventBus } from '../../src/events/bus.js';
import { PermissionService } from '../../src/permission/service.js';
import { catalogModel, computeCost, createProvider } from '../../src/provider/index.js';
import { FileTimes } from '../../src/tools/file-times.js';
import { builtinTools, TASK_TOOL_NAMES } from '../../src/tools/index.js';
import { createSubAgentRunner } from '../../src/agent/sub-agent.js';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner, Tool } from '../../src/tools/tool.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider, type FakeTurn } from './fake-provider.js';

export interface Harness {
  fake: FakeProvider;
  dir: string;
  db: Database;
  agent: Agent;
  bus: EventBus<AgentEvents>;
  permission: PermissionService;
  sessionId: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  api?: 'anthropic' | 'openai';
  tools?: Tool[];
  /** answer to every permission request; default allow */
  answer?: 'allow' | 'deny' | 'none';
  agent?: Partial<AgentOptions>;
  /** reuse a project dir (and its database) */
  dir?: string;
  maxRetries?: number;
  /** called with the coder's registry after the built-in and test tools are in (e.g. to start MCP servers on it) */
  onToolRegistry?: (tools: ToolRegistry) => void;
}

export async function agentHarness(turns: FakeTurn[], options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startFakeProvider(turns);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'opencode-agent-'));
  const db = openDatabase(join(dir, '.opencode'));
  const api = options.api ?? 'anthropic';
  const model = catalogModel(api === 'anthropic' ? 'anthropic/claude-haiku-4-5' : 'openai/gpt-4.1')!;
  const env =
    api === 'anthropic'
      ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }
      : { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.openaiBaseURL };
  const provider = createProvider(
    model,
    { providers: {}, env },
    { baseDelayMs: 1, maxRetries: options.maxRetries ?? 3 },
  );
  const tools = builtinTools();
  for (const tool of options.tools ?? []) tools.register(tool, 'project');
  options.onToolRegistry?.(tools);
  const bus = new EventBus<AgentEvents>();
  const permission = new PermissionService(dir);
  if (options.answer !== 'none') {
    permission.onRequest((r) => permission.respond(r.id, options.answer === 'deny' ? 'deny' : 'allow'));
  }
  const shells = new Map<string, ShellRunner>();
  const toolServices = {
    fileTimes: new FileTimes(),
    fileHistory: db.files,
    shellFor: (id: string) => shells.get(id) ?? shells.set(id, createShell({ cwd: dir })).get(id)!,
  };
  const common = {
    provider,
    store: db,
    permission,
    bus,
    promptEnvironment: () => ({ cwd: dir, projectTree: `- ${dir}/`, contextPaths: [] }),
    maxTokens: 1000,
    computeCost,
  };
  // the task agent shares the provider (one scripted conversation stream), as the app shares the model
  const taskAgent = new Agent({ ...common, kind: 'task', tools: tools.subset(TASK_TOOL_NAMES), toolServices });
  const agent = new Agent({
    ...common,
    kind: 'coder',
    tools,
    toolServices: { ...toolServices, runSubAgent: createSubAgentRunner(taskAgent, db) },
    ...options.agent,
  });
  const sessionId = db.sessions.create({ title: 'test' }).id;
  return {
    fake,
    dir,
    db,
    agent,
    bus,
    permission,
    sessionId,
    async close() {
      await agent.idle();
      for (const s of shells.values()) s.close();
      db.close();
      await fake.close();
    },
  };
}

/** The tool_result parts the provider received in the last request, as [name or id, content, isError]. */
export function toolResultsOf(db: Database, sessionId: string) {
  return db.messages
    .list(sessionId)
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.parts)
    .filter((p) => p.type === 'tool_result')
    .map((p) => (p.type === 'tool_result' ? { name: p.name, content: p.content, isError: p.isError } : undefined));
}
