/**
 * Wires the `agent` tool to a `task` agent: each call runs in a new child session of the caller's
 * session. Its id is a fresh UUID, not the tool-call id (the original used the call id, which
 * collides when a provider reuses ids). Cost and tokens roll up into the parent through the
 * session chain (see Agent.trackUsage); cancellation reaches the child through the signal.
 */
import { abortError } from '../abort.js';
import type { EventBus } from '../events/bus.js';
import type { SubAgentRunner } from '../tools/agent.js';
import { finalText, type Agent } from './agent.js';
import type { AgentEvents } from './events.js';

/** What the runner needs of storage. */
export interface SubAgentStore {
  sessions: { create(input: { title: string; parentSessionId?: string }): { id: string } };
}

/** Longest prompt prefix used in a child session's title, characters. */
const TITLE_PROMPT_CHARS = 60;

/**
 * Builds the runner the `agent` tool calls. With `bus`, it publishes `subagent.started` (parent session,
 * tool-call id, child session) as soon as the child session exists, before the child's first event.
 */
export function createSubAgentRunner(
  taskAgent: Agent,
  store: SubAgentStore,
  bus?: EventBus<AgentEvents>,
): SubAgentRunner {
  return async ({ parentSessionId, toolCallId, prompt, signal }) => {
    const child = store.sessions.create({
      title: `Task: ${prompt.replace(/\s+/g, ' ').slice(0, TITLE_PROMPT_CHARS)}`,
      parentSessionId,
    });
    bus?.emit('subagent.started', { parentSessionId, toolCallId, sessionId: child.id });
    const result = await taskAgent.run(child.id, prompt, { signal });
    if (result.reason === 'canceled') {
      throw abortError('The sub-agent was canceled');
    }
    if (result.reason === 'error' || result.reason === 'step_limit') {
      return { sessionId: child.id, text: '', error: result.error ?? result.reason };
    }
    return { sessionId: child.id, text: finalText(result) };
  };
}
