/**
 * The first part of an App, opened on its own: the event bus, the project's database and the
 * leftover journal. The TUI opens this before the rest of the app loads, so its first frame can
 * show the sessions while the tools, agents, MCP and LSP load after it; `createApp`
 * opens it itself when it is not given one.
 */
import type { AgentEvents } from '../agent/events.js';
import { resolveDataDir } from '../config/light.js';
import type { Config } from '../config/schema.js';
import { openDatabase, type Database } from '../db/index.js';
import { EventBus } from '../events/bus.js';
import { startLeftoverJournal, stopLeftoverJournal, type LeftoverJournal } from './leftovers.js';

/** The bus, database and journal of one project (close them with the app: `App.close`). */
export interface AppStorage {
  bus: EventBus<AgentEvents>;
  db: Database;
  journal: LeftoverJournal;
}

/**
 * Opens (and migrates) `<cwd>/<data.directory>/opencode.db`, cleans what a killed opencode left and
 * repairs its sessions, and starts this process's journal.
 * @throws the storage error when the database cannot be opened
 */
export function openAppStorage(cwd: string, config: Config): AppStorage {
  const bus = new EventBus<AgentEvents>((err) => {
    if (config.debug) process.stderr.write(`event handler failed: ${String(err)}\n`);
  });
  // a failed history write must not fail the edit; it is reported, not printed over the UI
  const db = openDatabase(resolveDataDir(config, cwd), {
    onFileHistoryError: (err) => bus.emit('warning', { message: `File history not saved: ${(err as Error).message}` }),
  });
  // a killed opencode's temp files, shell state and processes go, its sessions are repaired; ours are journaled
  const journal = startLeftoverJournal(resolveDataDir(config, cwd), db);
  return { bus, db, journal };
}

/** Closes storage that no app took over (the app's `close` does this otherwise). */
export function closeAppStorage(storage: AppStorage): void {
  stopLeftoverJournal(storage.journal);
  storage.db.close();
}
