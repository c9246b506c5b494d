/**
 * `subagent.started` ties a child session to the parent's `agent` tool call, so the UI can nest the
 * sub-agent's tool calls under it: published once the child session exists, before the child's run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import type { AgentEvents } from '../../src/agent/events.js';
import { createSubAgentRunner } from '../../src/agent/sub-agent.js';
import { catalogModel, computeCost, createProvider } from '../../src/provider/index.js';
import { FileTimes } from '../../src/tools/file-times.js';
import { builtinTools, TASK_TOOL_NAMES } from '../../src/tools/index.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A coder whose `agent` tool runs a task agent through a runner that publishes on the harness's bus. */
function coderWithSubAgents(harness: Harness): Agent {
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: harness.fake.anthropicBaseURL };
  const provider = createProvider(
    catalogModel('anthropic/claude-haiku-4-5')!,
    { providers: {}, env },
    { maxRetries: 0 },
  );
  const tools = builtinTools();
  const toolServices = {
    fileTimes: new FileTimes(),
    fileHistory: harness.db.files,
    shellFor: (): never => {
      throw new Error('no shell in this test');
    },
  };
  const common = {
    provider,
    store: harness.db,
    permission: harness.permission,
    bus: harness.bus,
    promptEnvironment: () => ({ cwd: harness.dir, projectTree: `- ${harness.dir}/`, contextPaths: [] }),
    maxTokens: 1000,
    computeCost,
  };
  const taskAgent = new Agent({ ...common, kind: 'task', tools: tools.subset(TASK_TOOL_NAMES), toolServices });
  const runner = createSubAgentRunner(taskAgent, harness.db, harness.bus);
  return new Agent({ ...common, kind: 'coder', tools, toolServices: { ...toolServices, runSubAgent: runner } });
}

describe('subagent.started', () => {
  it('names the parent session, the agent tool call and the child session, before the child runs', async () => {
    h = await agentHarness([
      { toolCalls: [{ id: 'toolu_sub_1', name: 'agent', input: { prompt: 'find the router' } }] },
      { text: 'In src/router.ts' },
      { text: 'Done.' },
    ]);
    const coder = coderWithSubAgents(h);
    const started: AgentEvents['subagent.started'][] = [];
    const order: string[] = [];
    h.bus.on('subagent.started', (e) => {
      started.push(e);
      order.push('subagent.started');
    });
    h.bus.on('run.started', (e) => order.push(`run.started ${e.sessionId === h!.sessionId ? 'parent' : 'child'}`));
    h.bus.on('tool.started', (e) => order.push(`tool.started ${e.toolCallId}`));

    await coder.run(h.sessionId, 'where is the router?');

    const [child] = h.db.sessions.listChildren(h.sessionId);
    expect(started).toEqual([{ parentSessionId: h.sessionId, toolCallId: 'toolu_sub_1', sessionId: child!.id }]);
    expect(order).toEqual(['run.started parent', 'tool.started toolu_sub_1', 'subagent.started', 'run.started child']);
  });

  it('publishes nothing without a bus (the runner works as before)', async () => {
    h = await agentHarness([
      { toolCalls: [{ name: 'agent', input: { prompt: 'find it' } }] },
      { text: 'found' },
      { text: 'ok' },
    ]);
    const started: unknown[] = [];
    h.bus.on('subagent.started', (e) => started.push(e));
    await h.agent.run(h.sessionId, 'go');
    expect(started).toEqual([]);
    expect(h.db.sessions.listChildren(h.sessionId)).toHaveLength(1);
  });
});
