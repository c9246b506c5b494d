/**
 * The agent's store with a failed write said in plain words: a full, read-only or unwritable disk
 * names the data folder and what to do (db/storage-errors.ts), where SQLite's own message is only
 * "database or disk is full" or "disk I/O error". Other errors pass unchanged.
 */
import type { AgentStore } from '../agent/store.js';
import { asStorageError } from '../db/storage-errors.js';

/**
 * `store` with each call's storage failure thrown as a `StorageError` about `dataDir` (the folder
 * holding the database). The functions are wrapped once, here: the agent calls them per streamed chunk.
 */
export function storeWithPlainErrors(store: AgentStore, dataDir: string): AgentStore {
  const plain =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } catch (err) {
        throw asStorageError(err, dataDir, 'data');
      }
    };
  const { sessions, messages } = store;
  return {
    sessions: {
      get: plain(sessions.get.bind(sessions)),
      addUsage: plain(sessions.addUsage.bind(sessions)),
      updateTitle: plain(sessions.updateTitle.bind(sessions)),
    },
    messages: {
      create: plain(messages.create.bind(messages)),
      list: plain(messages.list.bind(messages)),
      update: plain(messages.update.bind(messages)),
      updateStreaming: plain(messages.updateStreaming.bind(messages)),
      finish: plain(messages.finish.bind(messages)),
      ...(messages.batch && {
        batch: plain(messages.batch.bind(messages)) as NonNullable<AgentStore['messages']['batch']>,
      }),
    },
  };
}
