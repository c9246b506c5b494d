/**
 * An agent store that keeps messages in memory and writes nothing (`bench/agent-loop.ts`, its "store in
 * memory" row): the same loop with no SQLite and no tool-call log, to show how much of the loop's
 * figure is storage and what is left without it. Never used by the app: a run on it keeps
 * nothing.
 */
import { randomUUID } from 'node:crypto';
import type { AgentStore } from '../src/agent/store.js';
import type { Message } from '../src/message.js';

/** A store of one run's messages in an array: `create` appends, the writes do nothing, `batch` just runs. */
export function memoryStore(): AgentStore {
  const messages: Message[] = [];
  return {
    sessions: {
      get: (id) => ({ id }),
      addUsage: (id) => ({ id }),
      updateTitle: () => {},
    },
    messages: {
      create(input) {
        const now = Date.now();
        const message: Message = {
          id: randomUUID(),
          seq: messages.length + 1,
          createdAt: now,
          updatedAt: now,
          ...input,
        };
        messages.push(message);
        return message;
      },
      list: (sessionId) => messages.filter((m) => m.sessionId === sessionId),
      update: () => {},
      updateStreaming: () => {},
      finish: () => {},
      batch: (fn) => fn(),
    },
  };
}
