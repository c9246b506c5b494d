/**
 * Undo and redo of the agent's file changes, turn by turn. A turn is the person's message
 * and everything the agent did for it; `edit`, `write` and `patch` record the exact bytes and mode of
 * each file before the turn's first write and after its last (`db/turn-changes.ts`); `bash` and the
 * custom and MCP tools not marked read-only run between two snapshots of the project, whose
 * difference is recorded the same way (`bash-changes.ts`). What such a call changed that could not
 * be recorded (git missing, a file over the size limit, a file outside the project
 * or ignored by `.gitignore`) stays as it is; the undo names the first reasons
 * ({@link TurnUndoResult.untracked}).
 *
 * - {@link undoTurn} takes back the latest turn whose changes are on disk: each file gets its bytes
 *   and mode from before the turn, a created file is removed, a deleted one re-created. Repeated, it
 *   walks back turn by turn.
 * - {@link redoTurn} puts back the turn undone most recently. A turn that changes files after an undo
 *   ends what can be redone.
 * - A file that is no longer as the turn (or the undo) left it — a person or a formatter changed it — is
 *   left alone: the result names it with the difference, and the rest of the turn is undone. When
 *   every file of the turn changed, nothing happens.
 * - What happened is added to the conversation as a note (a `user` message whose text part has
 *   `note`), which the model gets with its next request.
 */
import type { FileStore } from '../db/file-store.js';
import type { MessageStore } from '../db/message-store.js';
import type { FileSnapshot, TurnChange, TurnChanges, TurnChangeState } from '../db/turn-changes.js';
import { messageText } from '../message.js';
import { UNTRACKED_CHANGES } from '../tools/change-tracker.js';
import { decodeDocument } from '../tools/text-document.js';
import { compareWithDisk, putState, redirectedSince, removeEmptyFolder } from './disk.js';
import { blobExists, readState, type FsPath } from './disk-states.js';
import { displayPath } from './report.js';
import type { FileConflict, FileRestored, TurnUndoResult } from './result.js';

/** What undo and redo use of the database. */
export interface UndoStores {
  files: Pick<FileStore, 'turns' | 'recordWrite'>;
  messages: Pick<MessageStore, 'create' | 'get' | 'list'>;
}

/** Options of {@link undoTurn} and {@link redoTurn}. */
export interface UndoOptions {
  /** the project directory: paths in messages and the note are relative to it */
  cwd: string;
  /** also overwrite files that changed since (their difference is still reported) */
  force?: boolean;
}

/** Characters of the turn's prompt shown in messages. */
export const PROMPT_PREVIEW_CHARS = 60;

/** Thrown when there is no turn to undo (or redo). The message says why and what to do. */
export class NothingToUndoError extends Error {
  constructor(
    readonly kind: 'undo' | 'redo',
    /** why some changes were never recorded (see {@link TurnUndoResult.untracked}) */
    readonly untracked: readonly string[] = [],
  ) {
    super(
      kind === 'undo'
        ? `Nothing to undo: no turn of this session has file changes left to undo.${untracked.length ? ` Not tracked: ${untracked.join('; ')}.` : ''}`
        : 'Nothing to redo: no turn was undone since the agent last changed files.',
    );
    this.name = 'NothingToUndoError';
  }
}

/** Thrown when writing a file failed: every file already put back was returned to its state, nothing changed. */
export class UndoFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndoFailedError';
  }
}

/**
 * Undoes the latest turn of `sessionId` whose file changes are on disk. See the module comment.
 * @throws {NothingToUndoError} when there is none
 * @throws {UndoFailedError} when a write failed (nothing was changed)
 */
export function undoTurn(stores: UndoStores, sessionId: string, options: UndoOptions): TurnUndoResult {
  for (;;) {
    const turn = stores.files.turns.lastDone(sessionId);
    if (!turn) throw new NothingToUndoError('undo', untrackedSince(stores, sessionId, 0));
    // a turn whose only files it made and removed again: passed over, on to the turn before
    const result = apply(stores, sessionId, turn, 'undo', options);
    if (result) return result;
  }
}

/**
 * Redoes the turn undone most recently. See the module comment.
 * @throws {NothingToUndoError} when there is none
 * @throws {UndoFailedError} when a write failed (nothing was changed)
 */
export function redoTurn(stores: UndoStores, sessionId: string, options: UndoOptions): TurnUndoResult {
  for (;;) {
    const turn = stores.files.turns.lastUndone(sessionId);
    if (!turn) throw new NothingToUndoError('redo');
    const result = apply(stores, sessionId, turn, 'redo', options);
    if (result) return result;
  }
}

/**
 * Undoes or redoes `turn`. Returns undefined when every change of the turn is a file it created and
 * removed again (nothing to write; the turn is marked as such, so the caller goes on to the next).
 */
function apply(
  stores: UndoStores,
  sessionId: string,
  turn: TurnChanges,
  kind: 'undo' | 'redo',
  options: UndoOptions,
): TurnUndoResult | undefined {
  const turnMessage = stores.messages.get(turn.turnId);
  const prompt = preview(turnMessage ? messageText(turnMessage) : '');
  const files: FileRestored[] = [];
  const conflicts: FileConflict[] = [];
  const states: { id: number; state: TurnChangeState }[] = [];
  const steps: { path: string; back: () => void }[] = [];
  const written: { change: TurnChange; from: FileSnapshot | null; to: FileSnapshot | null }[] = [];

  for (const change of inWriteOrder(turn.changes, kind)) {
    // a file undo left alone is not redone: it still holds the turn's change (or the person's)
    if (kind === 'redo' && change.state === 'skipped') {
      states.push({ id: change.id, state: 'done' });
      continue;
    }
    const from = kind === 'undo' ? change.after : change.before;
    const to = kind === 'undo' ? change.before : change.after;
    // made and removed again in the turn (`write` then `rm`, a scratch file): nothing to put back,
    // and a file there now is someone else's
    if (from === null && to === null) {
      states.push({ id: change.id, state: kind === 'undo' ? 'undone' : 'done' });
      continue;
    }
    // a name that is not UTF-8: its raw bytes name the file
    const fsPath = change.pathBytes ?? change.path;
    // a link put in the file's place could lead anywhere: never written through out of the project,
    // not even with force
    const recordedLink = from?.symlink
      ? from.bytes
      : (from?.linkTarget ?? (change.before?.symlink ? change.before.bytes : change.before?.linkTarget));
    const redirected = redirectedSince(options.cwd, fsPath, recordedLink);
    // a large file's saved copy expired (or the snapshot repository was removed): nothing to write
    const lost =
      to?.blob && !blobExists(to.blob.repo, to.blob.id)
        ? `its saved copy is gone (blob ${to.blob.id} in ${to.blob.repo})`
        : undefined;
    if (redirected || lost) {
      conflicts.push({ path: change.path, reason: (redirected ?? lost)!, diff: '' });
      states.push({ id: change.id, state: kind === 'undo' ? 'skipped' : 'done' });
      continue;
    }
    const mismatch = compareWithDisk(options.cwd, fsPath, from);
    if (mismatch) {
      conflicts.push({ path: change.path, ...mismatch });
      if (!options.force) {
        states.push({ id: change.id, state: kind === 'undo' ? 'skipped' : 'done' });
        continue;
      }
    }
    try {
      if (from === null && !mismatch) removeEmptyFolder(fsPath);
      steps.push({ path: change.path, back: putState(fsPath, to, mismatch ? currentState(fsPath) : from) });
    } catch (err) {
      rollBack(steps, change.path, err);
    }
    files.push({ path: change.path, action: to === null ? 'removed' : from === null ? 'created' : 'restored' });
    written.push({ change, from, to });
    states.push({ id: change.id, state: kind === 'undo' ? 'undone' : 'done' });
  }

  // reported in the turn's order (by path), whatever the order of the writes
  const place = new Map(turn.changes.map((c, i) => [c.path, i]));
  const byPlace = (a: { path: string }, b: { path: string }) => place.get(a.path)! - place.get(b.path)!;
  files.sort(byPlace);
  conflicts.sort(byPlace);
  const untracked = kind === 'undo' ? untrackedSince(stores, sessionId, turn.turnSeq) : [];
  const result: TurnUndoResult = { kind, turnId: turn.turnId, prompt, files, conflicts, untracked };
  if (files.length === 0 && conflicts.length === 0) {
    stores.files.turns.setStates(states);
    return undefined;
  }
  // every file changed since: nothing was done, and the turn stays where it was
  if (files.length === 0) return result;
  try {
    stores.files.turns.setStates(states);
  } catch (err) {
    // unrecorded, the next undo would take the restored files for someone else's change
    rollBack(steps, 'the undo record', err);
  }
  for (const { change, from, to } of written) recordVersion(stores, sessionId, change.path, from, to);
  result.note = stores.messages.create({
    sessionId,
    role: 'user',
    parts: [
      { type: 'text', text: noteText(result, options.cwd), note: kind },
      { type: 'finish', reason: 'end_turn', time: Date.now() },
    ],
  });
  return result;
}

/**
 * The changes in the order they are written: removals first, deepest path first (a folder's files go
 * before a link takes the folder's name), then the rest by path (a link's removal before a folder's
 * files are created under its name, since a removal comes first).
 */
function inWriteOrder(changes: readonly TurnChange[], kind: 'undo' | 'redo'): TurnChange[] {
  const removes = (c: TurnChange) => (kind === 'undo' ? c.before : c.after) === null;
  return [
    ...changes.filter(removes).sort((a, b) => comparePaths(b.path, a.path)),
    ...changes.filter((c) => !removes(c)),
  ];
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Files named in the note (the model reads it with every request); the others are counted. */
export const NOTE_MAX_FILES = 20;

/** `9,980 removed, 3 restored`: how many files each action took, in the order of `words`. */
function countActions(files: readonly FileRestored[], words: Record<FileRestored['action'], string>): string {
  const counts = new Map<FileRestored['action'], number>();
  for (const f of files) counts.set(f.action, (counts.get(f.action) ?? 0) + 1);
  return (Object.keys(words) as FileRestored['action'][])
    .filter((action) => counts.has(action))
    .map((action) => `${counts.get(action)!.toLocaleString('en-US')} ${words[action]}`)
    .join(', ');
}

/** The text of the note: short, for the model and the person alike. */
export function noteText(
  result: Pick<TurnUndoResult, 'kind' | 'files' | 'conflicts'> & { untracked?: string[] },
  cwd: string,
): string {
  const name = (path: string) => displayPath(cwd, path);
  const words: Record<FileRestored['action'], string> =
    result.kind === 'undo'
      ? { restored: 'restored', removed: 'removed', created: 'restored (it had been deleted)' }
      : { restored: 'changed again', removed: 'removed again', created: 'created again' };
  // a turn that made 10,000 files: the note goes to the model with every request, so it names a few
  const shown = result.files.slice(0, NOTE_MAX_FILES).map((f) => `${name(f.path)} ${words[f.action]}`);
  const rest = result.files.slice(NOTE_MAX_FILES);
  if (rest.length) shown.push(`and ${rest.length.toLocaleString('en-US')} more files (${countActions(rest, words)})`);
  const done = shown.join(', ');
  let text =
    result.kind === 'undo'
      ? `The user undid the last turn's file changes: ${done}.`
      : `The user redid the file changes they had undone: ${done}.`;
  const left = result.conflicts.filter((c) => !result.files.some((f) => f.path === c.path));
  if (left.length) {
    const named = left.slice(0, NOTE_MAX_FILES).map((c) => name(c.path));
    if (left.length > NOTE_MAX_FILES) named.push(`and ${(left.length - NOTE_MAX_FILES).toLocaleString('en-US')} more`);
    text += ` Left as they are, because they changed since: ${named.join(', ')}.`;
  }
  if (result.untracked?.length) text += ` Not put back (${result.untracked.join('; ')}).`;
  return `${text} Read a file again before changing it.`;
}

/** Puts back what was written so far, then throws an {@link UndoFailedError} naming the failure. */
function rollBack(steps: { path: string; back: () => void }[], failedPath: string, err: unknown): never {
  const unrestored: string[] = [];
  for (const step of steps.reverse()) {
    try {
      step.back();
    } catch (backErr) {
      unrestored.push(`${step.path} (${(backErr as Error).message})`);
    }
  }
  const outcome = unrestored.length
    ? `These files could not be returned to their state before: ${unrestored.join(', ')}.`
    : 'The files already written were returned to their state before: nothing changed.';
  throw new UndoFailedError(`writing ${failedPath} failed: ${(err as Error).message}. ${outcome}`);
}

/** What is at `path` now (a link as itself), for a rollback over a file that changed (force); null when unreadable. */
function currentState(path: FsPath): FileSnapshot | null {
  try {
    return readState(path);
  } catch {
    return null;
  }
}

/** The sidebar's text history follows the undo: a version with the content put back. */
function recordVersion(
  stores: UndoStores,
  sessionId: string,
  path: string,
  from: FileSnapshot | null,
  to: FileSnapshot | null,
): void {
  recordTextVersion(stores.files, sessionId, path, from, to);
}

/**
 * Adds the change of `path` from `from` to `to` (exact states; `null`: absent) to the session's text
 * history, the `files` table the sidebar's modified files come from (undo, redo and bash's recorded
 * changes). Bytes that are not text are left out of it.
 */
export function recordTextVersion(
  files: Pick<FileStore, 'recordWrite'>,
  sessionId: string,
  path: string,
  from: FileSnapshot | null,
  to: FileSnapshot | null,
): void {
  // a link itself, or a file too large to have been copied: no text to show
  if (from?.symlink || from?.blob || to?.symlink || to?.blob) return;
  try {
    const text = (s: FileSnapshot | null) => (s === null ? null : decodeDocument(path, s.bytes).text);
    files.recordWrite(sessionId, path, text(from), text(to) ?? '');
  } catch {
    // bytes that are not text have no version to show
  }
}

/**
 * The reasons, each once, that tool results from `fromSeq` on give for changes not recorded
 * (`metadata.untrackedChanges`, set by `bash-changes.ts`), oldest first.
 */
function untrackedSince(stores: UndoStores, sessionId: string, fromSeq: number): string[] {
  const reasons = new Set<string>();
  for (const message of stores.messages.list(sessionId)) {
    if (message.role !== 'tool' || message.seq < fromSeq) continue;
    for (const part of message.parts) {
      const listed = part.type === 'tool_result' ? part.metadata?.[UNTRACKED_CHANGES] : undefined;
      if (Array.isArray(listed)) for (const reason of listed) if (typeof reason === 'string') reasons.add(reason);
    }
  }
  return [...reasons];
}

function preview(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > PROMPT_PREVIEW_CHARS ? `${line.slice(0, PROMPT_PREVIEW_CHARS - 1)}…` : line;
}
