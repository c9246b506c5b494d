/**
 * What an undo or redo did, as `undo.ts` returns it and `report.ts` puts it in words: the files put
 * back, the files left alone because they changed since, and why some changes stay on disk.
 */
import type { Message } from '../message.js';
import type { Mismatch } from './disk.js';

/** What happened to one file: `restored` (content put back), `removed`, `created` (re-created). */
export interface FileRestored {
  /** absolute */
  path: string;
  action: 'restored' | 'removed' | 'created';
}

/** A file left alone because it is not as the turn (or the undo) left it. */
export interface FileConflict extends Mismatch {
  /** absolute */
  path: string;
}

/** The outcome of an undo or redo. */
export interface TurnUndoResult {
  kind: 'undo' | 'redo';
  /** the person's message that started the turn */
  turnId: string;
  /** the first line of that message, cut to `PROMPT_PREVIEW_CHARS` (undo.ts) */
  prompt: string;
  /** the files put back, by path */
  files: FileRestored[];
  /** the files left alone, by path (overwritten anyway with `force`, and then in `files` too) */
  conflicts: FileConflict[];
  /**
   * why changes of this turn or a later one stay on disk: calls whose changes were not recorded, e.g.
   * `files changed by bash are not tracked: git not found` (each reason once; empty for a redo)
   */
  untracked: string[];
  /** the note added to the conversation; absent when nothing was changed */
  note?: Message;
}
