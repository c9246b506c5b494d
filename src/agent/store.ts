/**
 * What the agent needs of storage. The SQLite stores in `db/` satisfy it; keeping the agent on this
 * narrow interface keeps the loop testable and the layers apart.
 */
import type { Message, MessagePart, Role, Usage } from '../message.js';

export interface AgentSession {
  id: string;
  parentSessionId?: string | null;
  summaryMessageId?: string | null;
}

export interface AgentStore {
  sessions: {
    get(id: string): AgentSession | undefined;
    /**
     * adds to the session's totals; `contextTokens` (when given) replaces the current context size.
     * May return the updated session (the SQLite store does), which saves reading it again.
     */
    addUsage(id: string, usage: Usage, costUsd: number, contextTokens?: number): AgentSession | void;
    updateTitle(id: string, title: string): void;
  };
  messages: {
    create(input: { sessionId: string; role: Role; parts: MessagePart[]; model?: string }): Message;
    list(sessionId: string): Message[];
    /** immediate write of the message's parts */
    update(message: Message): void;
    /** batched write while streaming (at most every 100 ms per message) */
    updateStreaming(message: Message): void;
    /** writes the finished message now */
    finish(message: Message): void;
    /**
     * runs `fn` so that the writes it makes (of any store) commit together, once; rolled back when it
     * throws (db's `MessageStore.batch`). Inside another call it joins it, and a throw undoes only its
     * own writes (a savepoint): the agent commits a step's held tool result even when the next write
     * fails. Omitted → each write commits on its own.
     */
    batch?<T>(fn: () => T): T;
  };
}
