/**
 * The editing keys as a table from binding to edit, and the one function that applies a key to an
 * {@link EditorState}. Pure. Keys with a meaning beyond the text (enter, ↑/↓ at the first or last
 * row, ctrl+e, ctrl+r, `@`) are the Editor's.
 */
import { sanitizePaste } from './InputProvider.js';
import {
  backspace,
  deleteForward,
  deleteToLineStart,
  deleteWordBefore,
  insertText,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveWordLeft,
  moveWordRight,
  type EditorState,
} from './editor-state.js';
import { matchesBinding, type Key } from './keys.js';

type Edit = (s: EditorState) => EditorState;

/** Binding → edit. Several bindings for one edit cover what different terminals send. */
export const EDIT_BINDINGS: ReadonlyArray<readonly [binding: string, edit: Edit]> = [
  ['backspace', backspace],
  ['shift+backspace', backspace],
  ['delete', deleteForward],
  ['left', moveLeft],
  ['right', moveRight],
  ['home', moveLineStart],
  ['ctrl+a', moveLineStart], // readline; ctrl+e is the external editor, so end is only `end`
  ['end', moveLineEnd],
  ['alt+left', moveWordLeft],
  ['ctrl+left', moveWordLeft],
  ['alt+b', moveWordLeft], // what macOS terminals send for option+← by default
  ['alt+right', moveWordRight],
  ['ctrl+right', moveWordRight],
  ['alt+f', moveWordRight],
  ['ctrl+w', deleteWordBefore],
  ['alt+backspace', deleteWordBefore],
  ['ctrl+u', deleteToLineStart], // as in shells: the line up to the cursor
];

/**
 * `s` after `key`, or undefined when the key is not an editing key (↑/↓ are the Editor's: they
 * move between rows, or recall history at the first/last row). Printable keys insert their text; a `text` event (several characters
 * at once: a paste without bracketed paste) inserts its text with newlines and tabs, other control
 * characters removed.
 */
export function applyEditKey(s: EditorState, key: Key): EditorState | undefined {
  if (key.name === 'text') return insertText(s, sanitizePaste(key.text));
  if (key.text !== '' && !key.ctrl && !key.meta) return insertText(s, key.text);
  for (const [binding, edit] of EDIT_BINDINGS) {
    if (matchesBinding(key, binding)) return edit(s);
  }
  return undefined;
}
