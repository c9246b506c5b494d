/**
 * Key names inside the TUI's sentences — status messages (`The agent is busy: … or press esc to cancel
 * it`) and the hint rows under dialogs — drawn from the keymap in effect, so a rebound key is named
 * as the person bound it and an unbound one is not named at all ("the help dialog and
 * the status hints show the keys in effect"). The help dialog and the status bar read the keymap
 * directly; these helpers are for keys named in the middle of a sentence.
 */
import type { ActionName } from './keybindings.js';
import type { Keymap } from './keymap.js';

/**
 * `phrase` filled with the key hints show for `action` (its first key), or `''` when the action has
 * no key: `keyPhrase(keymap, 'session.interrupt', (k) => `, or press ${k} to cancel it`)` →
 * `', or press esc to cancel it'` with the default keys, `''` with `"session.interrupt": "none"`.
 */
export function keyPhrase(keymap: Keymap, action: ActionName, phrase: (key: string) => string): string {
  const key = keymap.hint(action);
  return key === undefined ? '' : phrase(key);
}

/**
 * A hint row under a dialog: the parts whose action has a key, as `<key> <label>`, joined by ` · `;
 * a part of plain text (no action) is kept as it is. `hintRow(keymap, [['dialog.select', 'save'],
 * ['dialog.close', 'cancel']])` → `'enter save · esc cancel'`.
 */
export function hintRow(keymap: Keymap, parts: ReadonlyArray<readonly [ActionName, string] | string>): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : keyPhrase(keymap, part[0], (key) => `${key} ${part[1]}`)))
    .filter((text) => text !== '')
    .join(' · ');
}

/**
 * The Yes / No buttons of the quit, init and delete questions, each naming its key in effect
 * (`confirm.yes`, `confirm.no`): `Yes (y)`, `No (n)` by default; a button whose action has no key
 * is its label alone.
 */
export function confirmButtons(keymap: Keymap): { label: string }[] {
  return [
    { label: `Yes${keyPhrase(keymap, 'confirm.yes', (key) => ` (${key})`)}` },
    { label: `No${keyPhrase(keymap, 'confirm.no', (key) => ` (${key})`)}` },
  ];
}
