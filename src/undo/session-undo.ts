/**
 * Undo and redo inside a running app (the TUI's `/undo`, `/redo` and keys): the session is
 * held as a run holds it, so no reply starts while files are put back and an undo is refused while a
 * reply runs; the note joins the conversation through the usual `message.created` event, and the
 * sidebar's changed files are refreshed by `session.updated`.
 */
import type { Agent } from '../agent/agent.js';
import type { AgentEvents } from '../agent/events.js';
import type { EventBus } from '../events/bus.js';
import type { TurnUndoResult } from './result.js';
import { redoTurn, undoTurn, type UndoStores } from './undo.js';

/** What of the app an undo needs (the `App` has all of it). */
export interface UndoHost {
  /** the project directory */
  cwd: string;
  db: UndoStores;
  bus: EventBus<AgentEvents>;
  coder: Pick<Agent, 'runExclusive'>;
}

/**
 * Undoes (`kind` `undo`) or redoes the file changes of the last turn of `sessionId`; see
 * `undo.ts`. Resolves with the outcome.
 * @throws `SessionBusyError` while a reply or a compaction runs in the session; `NothingToUndoError`;
 *   `UndoFailedError` when a write failed (nothing was changed)
 */
export async function undoInSession(host: UndoHost, sessionId: string, kind: 'undo' | 'redo'): Promise<TurnUndoResult> {
  const result = await host.coder.runExclusive(sessionId, async () =>
    (kind === 'undo' ? undoTurn : redoTurn)(host.db, sessionId, { cwd: host.cwd }),
  );
  if (result.note) host.bus.emit('message.created', { message: result.note });
  host.bus.emit('session.updated', { sessionId });
  return result;
}
