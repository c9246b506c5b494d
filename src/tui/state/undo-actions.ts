/**
 * The TUI's undo and redo (`/undo`, `/redo`, and their keys): refused while a reply runs,
 * carried out by the core (`ChatServices.undo`), the outcome said in the status line. The note joins
 * the conversation through the core's `message.created` event; the difference of a file left alone
 * (changed since the turn) is in the logs page entry.
 */
import { formatUndoResult, undoStatusLine } from '../../undo/report.js';
import type { TurnUndoResult } from '../../undo/result.js';
import { keyPhrase } from '../key-hints.js';
import type { Keymap } from '../keymap.js';
import type { ChatState, StatusLevel } from './chat-state.js';
import type { ChatServices } from './services.js';

/** What an undo needs of the chat store (chat-store.ts): whether it may run now, the status line, the keys to name. */
export interface UndoStatusTarget {
  getSnapshot(): Pick<ChatState, 'session' | 'busy' | 'compacting'>;
  setStatus(text: string, level?: StatusLevel, details?: string): void;
  readonly keymap: Keymap;
}

/** Undoes or redoes the open session's last turn; resolves with the outcome, or undefined when refused or failed (said in the status line). */
export async function undoOrRedo(
  store: UndoStatusTarget,
  services: ChatServices,
  kind: 'undo' | 'redo',
): Promise<TurnUndoResult | undefined> {
  const { session, busy, compacting } = store.getSnapshot();
  if (!session) {
    store.setStatus(`Nothing to ${kind}: this session has no messages yet`, 'warn');
    return undefined;
  }
  if (busy || compacting) {
    store.setStatus(
      `The agent is busy: ${kind} after the ${compacting ? 'compaction' : 'reply'} finishes${keyPhrase(store.keymap, 'session.interrupt', (k) => `, or press ${k} to cancel it`)}`,
      'warn',
    );
    return undefined;
  }
  try {
    const result = await services[kind](session.id);
    const line = undoStatusLine(result);
    // one entry on the logs page: the status line with the whole report under it
    const report = formatUndoResult(result, services.cwd);
    if (result.conflicts.length)
      store.setStatus(
        `${line}; the logs page${keyPhrase(store.keymap, 'app.logs', (k) => ` (${k})`)} shows the difference`,
        'warn',
        report,
      );
    else store.setStatus(line, 'info', report);
    return result;
  } catch (err) {
    store.setStatus((err as Error).message, 'warn');
    return undefined;
  }
}
