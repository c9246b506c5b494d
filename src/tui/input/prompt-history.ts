/**
 * Recalling earlier prompts with ↑/↓, as a shell does: ↑ from the draft shows the newest prompt,
 * further ↑ older ones; ↓ comes back towards the newest and then to the draft as it was left.
 * Pure: the history is given (newest last) and the position is a value the editor keeps.
 */

/** Where the editor is in the history. */
export interface HistoryPosition {
  /** index into the history being shown; undefined while editing the draft */
  index: number | undefined;
  /** the text that was being written when ↑ first left it */
  draft: string;
}

/** Editing the draft, nothing recalled. */
export const AT_DRAFT: HistoryPosition = { index: undefined, draft: '' };

/** A step through the history: the new position and the text to show. */
export interface HistoryStep {
  position: HistoryPosition;
  text: string;
}

/**
 * One prompt older than `position` (↑). `current` is the editor's text, kept as the draft when
 * leaving it. Undefined when there is nothing older.
 */
export function historyOlder(
  history: readonly string[],
  position: HistoryPosition,
  current: string,
): HistoryStep | undefined {
  if (history.length === 0) return undefined;
  if (position.index === undefined) {
    const index = history.length - 1;
    return { position: { index, draft: current }, text: history[index]! };
  }
  if (position.index <= 0) return undefined;
  const index = Math.min(position.index, history.length) - 1;
  return { position: { index, draft: position.draft }, text: history[index]! };
}

/**
 * One prompt newer than `position` (↓); past the newest, the draft comes back. Undefined while
 * already at the draft.
 */
export function historyNewer(history: readonly string[], position: HistoryPosition): HistoryStep | undefined {
  if (position.index === undefined) return undefined;
  const index = position.index + 1;
  if (index >= history.length) return { position: AT_DRAFT, text: position.draft };
  return { position: { index, draft: position.draft }, text: history[index]! };
}
