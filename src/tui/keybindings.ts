/**
 * Every key binding of the TUI, as one table (policy as data): the help dialog renders from it, and
 * components ask {@link matches} instead of spelling key strings themselves. The bindings are the
 * original's (reference §9.3, read from its code, not its README), plus the port's own: ctrl+y
 * (thinking), alt/shift+enter (newline), the permission dialog's "always allow".
 *
 * Key strings are those of {@link matchesBinding}: `ctrl+s`, `esc`, `enter`, `shift+tab`, `pgup`, `?`.
 */
import { matchesBinding, type Key } from './input/keys.js';

/** Where a binding applies (the help dialog's groups, in this order). */
export type BindingScope = 'global' | 'chat' | 'editor' | 'messages' | 'dialog';

/** One row of the table. */
export interface Binding {
  /** stable name components refer to, e.g. `sessions` */
  id: string;
  /** every key that triggers it; the first is the one hints show */
  keys: readonly string[];
  /** one line for the help dialog */
  description: string;
  scope: BindingScope;
}

/** The table. Scopes in help order; within a scope, the order the help dialog lists. */
export const BINDINGS = [
  // Global: work on any page, unless a dialog is open (the dialog takes every key).
  { id: 'quit', keys: ['ctrl+c'], description: 'Quit (asks first)', scope: 'global' },
  // ctrl+_ is what most terminals send for ctrl+/ and ctrl+?; ctrl+h is the original's other key
  { id: 'help', keys: ['ctrl+_', 'ctrl+h'], description: 'Show or hide this help', scope: 'global' },
  { id: 'help_busy', keys: ['?'], description: 'Show help while the agent is working', scope: 'global' },
  { id: 'logs', keys: ['ctrl+l'], description: 'Show the logs page', scope: 'global' },
  { id: 'sessions', keys: ['ctrl+s'], description: 'Switch session', scope: 'global' },
  { id: 'commands', keys: ['ctrl+k'], description: 'Commands', scope: 'global' },
  { id: 'models', keys: ['ctrl+o'], description: 'Select model', scope: 'global' },
  { id: 'themes', keys: ['ctrl+t'], description: 'Select theme', scope: 'global' },
  { id: 'attach', keys: ['ctrl+f'], description: 'Attach an image (file picker)', scope: 'global' },

  // Chat page
  { id: 'new_session', keys: ['ctrl+n'], description: 'New session', scope: 'chat' },
  { id: 'cancel', keys: ['esc'], description: 'Cancel the running reply', scope: 'chat' },
  { id: 'toggle_thinking', keys: ['ctrl+y'], description: 'Show or hide thinking', scope: 'chat' },
  { id: 'completion', keys: ['@'], description: 'Complete a file or folder name', scope: 'chat' },
  { id: 'completion_select', keys: ['tab', 'enter'], description: 'Completion: take the item', scope: 'chat' },
  // backspace edits the query (the original closed the list on it); the list closes when the `@` goes
  { id: 'completion_close', keys: ['esc', 'space'], description: 'Completion: close', scope: 'chat' },

  // Editor
  { id: 'send', keys: ['enter'], description: 'Send the message', scope: 'editor' },
  // a trailing `\` before enter also inserts a newline (the original's only way)
  { id: 'newline', keys: ['shift+enter', 'alt+enter'], description: 'New line (or end the line with \\)', scope: 'editor' },
  { id: 'external_editor', keys: ['ctrl+e'], description: 'Write the message in $EDITOR', scope: 'editor' },
  // a two-key chord: ctrl+r, then 1-9 removes that attachment, `r` removes all
  { id: 'remove_attachment', keys: ['ctrl+r'], description: 'Then a digit: remove that attachment; r: all', scope: 'editor' },

  // Message list
  { id: 'page_up', keys: ['pgup'], description: 'Scroll up a page', scope: 'messages' },
  { id: 'page_down', keys: ['pgdown'], description: 'Scroll down a page', scope: 'messages' },
  { id: 'half_page_up', keys: ['ctrl+u'], description: 'Scroll up half a page', scope: 'messages' },
  { id: 'half_page_down', keys: ['ctrl+d'], description: 'Scroll down half a page', scope: 'messages' },

  // Dialogs and lists
  { id: 'dialog_up', keys: ['up', 'k'], description: 'Previous item', scope: 'dialog' },
  { id: 'dialog_down', keys: ['down', 'j'], description: 'Next item', scope: 'dialog' },
  { id: 'dialog_page_up', keys: ['pgup'], description: 'Scroll up a page', scope: 'dialog' },
  { id: 'dialog_page_down', keys: ['pgdown'], description: 'Scroll down a page', scope: 'dialog' },
  { id: 'dialog_select', keys: ['enter'], description: 'Choose', scope: 'dialog' },
  { id: 'dialog_close', keys: ['esc'], description: 'Close the dialog', scope: 'dialog' },
  { id: 'dialog_left', keys: ['left', 'h'], description: 'Models: previous provider', scope: 'dialog' },
  { id: 'dialog_right', keys: ['right', 'l'], description: 'Models: next provider', scope: 'dialog' },
  { id: 'button_next', keys: ['right', 'tab'], description: 'Next button', scope: 'dialog' },
  { id: 'button_previous', keys: ['left', 'shift+tab'], description: 'Previous button', scope: 'dialog' },
  { id: 'button_press', keys: ['enter', 'space'], description: 'Press the selected button', scope: 'dialog' },
  { id: 'field_next', keys: ['tab', 'down'], description: 'Arguments: next field', scope: 'dialog' },
  { id: 'field_previous', keys: ['shift+tab', 'up'], description: 'Arguments: previous field', scope: 'dialog' },
  { id: 'confirm_yes', keys: ['y'], description: 'Quit / init: yes', scope: 'dialog' },
  { id: 'confirm_no', keys: ['n'], description: 'Quit / init: no', scope: 'dialog' },
  { id: 'init_toggle', keys: ['tab', 'left', 'right', 'h', 'l'], description: 'Init: toggle yes / no', scope: 'dialog' },
  { id: 'init_cancel', keys: ['esc', 'q'], description: 'Init: not now', scope: 'dialog' },
  { id: 'permission_allow', keys: ['a'], description: 'Permission: allow this call', scope: 'dialog' },
  { id: 'permission_session', keys: ['s'], description: 'Permission: allow for this session', scope: 'dialog' },
  { id: 'permission_deny', keys: ['d'], description: 'Permission: deny', scope: 'dialog' },
  { id: 'permission_scroll_up', keys: ['up', 'k'], description: 'Permission: scroll the content', scope: 'dialog' },
  { id: 'permission_scroll_down', keys: ['down', 'j'], description: 'Permission: scroll the content', scope: 'dialog' },
  { id: 'file_picker_into', keys: ['l', 'enter'], description: 'File picker: open the folder / pick', scope: 'dialog' },
  { id: 'file_picker_up', keys: ['h', 'backspace'], description: 'File picker: parent folder', scope: 'dialog' },
  { id: 'file_picker_type', keys: ['i'], description: 'File picker: type a path', scope: 'dialog' },
  { id: 'logs_back', keys: ['esc', 'q', 'backspace'], description: 'Logs page: back to the chat', scope: 'dialog' },
] as const satisfies readonly Binding[];

/** The id of a row of {@link BINDINGS}; a typo is a compile error. */
export type BindingId = (typeof BINDINGS)[number]['id'];

/** The scopes in the order the help dialog shows them, with their headings. */
export const BINDING_SCOPES: readonly { scope: BindingScope; title: string }[] = [
  { scope: 'global', title: 'Global' },
  { scope: 'chat', title: 'Chat' },
  { scope: 'editor', title: 'Editor' },
  { scope: 'messages', title: 'Messages' },
  { scope: 'dialog', title: 'Dialogs' },
];

const BY_ID = new Map<string, Binding>(BINDINGS.map((b) => [b.id, b]));

/** The keys of binding `id`, e.g. `bindingFor('help')` → `['ctrl+_', 'ctrl+h']`. */
export function bindingFor(id: BindingId): string[] {
  return [...BY_ID.get(id)!.keys];
}

/** True when `key` is one of the keys of binding `id`. */
export function matches(key: Key, id: BindingId): boolean {
  return BY_ID.get(id)!.keys.some((binding) => matchesBinding(key, binding));
}

/** How a binding's keys read in help and hints: `ctrl+_ / ctrl+h`. */
export function formatKeys(keys: readonly string[]): string {
  return keys.join(' / ');
}
