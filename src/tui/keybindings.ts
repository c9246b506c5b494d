/**
 * Every key binding of the TUI, by action name, as one table (policy as data). The
 * help dialog, the status hints, `opencode keybindings` and docs/keybindings.md are drawn from it, and
 * components ask the keymap in effect (`useKeymap().matches(key, 'session.new')`, keymap.ts) instead
 * of spelling key strings themselves, so `keybindings` in `.opencode.json` can rebind any row.
 *
 * The default keys are the original's (read from its code, not its README), plus the
 * port's own: ctrl+y (thinking), alt/shift+enter (newline), the permission dialog's `p` and esc.
 *
 * Key strings are those of `matchesBinding` (input/keys.ts): `ctrl+s`, `esc`, `enter`, `shift+tab`,
 * `pgup`, `?`. To add a binding: one row here (action `area.verb`, default keys, one line for the
 * help, the scope it is listed under), then `keymap.matches(key, 'area.verb')` where it is handled;
 * a scope not in {@link KEY_CONTEXTS} needs a context row too, so conflicts in it are found.
 */

/**
 * Where a binding is listed (the help dialog's groups, {@link BINDING_SCOPES}); also the unit the
 * conflict check works in ({@link KEY_CONTEXTS}).
 */
export type BindingScope =
  | 'global'
  | 'chat'
  | 'editor'
  | 'completion'
  | 'messages'
  | 'list'
  | 'models'
  | 'buttons'
  | 'permission'
  | 'init'
  | 'arguments'
  | 'file_picker'
  | 'logs'
  | 'pager';

/** One row of the table. */
export interface Binding {
  /** the name `keybindings` in the config and the code use, `area.verb`: `session.new` */
  action: string;
  /** the default keys; the first is the one hints show */
  keys: readonly string[];
  /** one line for the help dialog and `opencode keybindings` */
  description: string;
  scope: BindingScope;
}

/** The table. Scopes in help order; within a scope, the order the help dialog lists. */
export const BINDINGS = [
  // Global: on the chat page, whatever has the focus (a dialog takes every key while it is open).
  { action: 'app.quit', keys: ['ctrl+c'], description: 'Quit (asks first; in a dialog too)', scope: 'global' },
  // terminals send ctrl+/ as ctrl+_ (0x1f; the keymap takes either spelling); ctrl+h is the original's
  // other key. Not ctrl+?: xterm and tmux send it as backspace.
  { action: 'app.help', keys: ['ctrl+/', 'ctrl+h'], description: 'Show or hide this help', scope: 'global' },
  { action: 'app.help_busy', keys: ['?'], description: 'Show help while the agent is working', scope: 'global' },
  { action: 'app.logs', keys: ['ctrl+l'], description: 'Show the logs page', scope: 'global' },
  { action: 'session.list', keys: ['ctrl+s'], description: 'Switch session', scope: 'global' },
  { action: 'command.list', keys: ['ctrl+k'], description: 'Commands', scope: 'global' },
  { action: 'model.list', keys: ['ctrl+o'], description: 'Select model', scope: 'global' },
  { action: 'theme.list', keys: ['ctrl+t'], description: 'Select theme', scope: 'global' },
  // switch the provider profile for the next request
  { action: 'profile.list', keys: ['alt+p'], description: 'Select provider profile', scope: 'global' },
  { action: 'attachment.add', keys: ['ctrl+f'], description: 'Attach an image (file picker)', scope: 'global' },

  // Chat page
  { action: 'session.new', keys: ['ctrl+n'], description: 'New session', scope: 'chat' },
  // the first esc cancels the run and holds the queued messages, a second clears them
  {
    action: 'session.interrupt',
    keys: ['esc'],
    description: 'Cancel the running reply; again: clear the queued messages',
    scope: 'chat',
  },
  // only on an empty editor with messages queued; otherwise ↑ is the editor's (rows, history)
  {
    action: 'queue.recall',
    keys: ['up'],
    description: 'Empty editor: take the last queued message back to edit',
    scope: 'chat',
  },
  { action: 'messages.toggle_thinking', keys: ['ctrl+y'], description: 'Show or hide thinking', scope: 'chat' },
  // the file changes of edit/write/patch, turn by turn. Not ctrl+z: people press it to
  // suspend (sst/opencode's terminal_suspend), and a surprise undo of their files is the wrong answer
  {
    action: 'session.undo',
    keys: ['alt+u'],
    description: "Undo the last turn's file changes (again: the turn before)",
    scope: 'chat',
  },
  {
    action: 'session.redo',
    keys: ['alt+r'],
    description: 'Redo the file changes the last undo took back',
    scope: 'chat',
  },

  // Editor. `@` after a space opens the file completion (typed text, not a key binding).
  { action: 'editor.submit', keys: ['enter'], description: 'Send the message', scope: 'editor' },
  // a trailing `\` before enter also inserts a newline (the original's only way)
  {
    action: 'editor.newline',
    keys: ['shift+enter', 'alt+enter'],
    description: 'New line (or end the line with \\)',
    scope: 'editor',
  },
  { action: 'editor.open', keys: ['ctrl+e'], description: 'Write the message in $EDITOR', scope: 'editor' },
  // a two-key chord: the action's key, then 1-9 removes that attachment, `r` removes all
  {
    action: 'attachment.remove',
    keys: ['ctrl+r'],
    description: 'Then a digit: remove that attachment; r: all',
    scope: 'editor',
  },

  // File completion (the `@` list)
  { action: 'completion.up', keys: ['up'], description: 'Completion: previous file', scope: 'completion' },
  { action: 'completion.down', keys: ['down'], description: 'Completion: next file', scope: 'completion' },
  {
    action: 'completion.select',
    keys: ['tab', 'enter'],
    description: 'Completion: take the file',
    scope: 'completion',
  },
  // backspace edits the query (the original closed the list on it); the list closes when the `@` goes
  { action: 'completion.close', keys: ['esc', 'space'], description: 'Completion: close', scope: 'completion' },

  // Message list
  { action: 'messages.page_up', keys: ['pgup'], description: 'Scroll up a page', scope: 'messages' },
  { action: 'messages.page_down', keys: ['pgdown'], description: 'Scroll down a page', scope: 'messages' },
  // not ctrl+u: the input box clears its line with it, as shells do (sst/opencode's key for this)
  { action: 'messages.half_page_up', keys: ['ctrl+alt+u'], description: 'Scroll up half a page', scope: 'messages' },
  { action: 'messages.half_page_down', keys: ['ctrl+d'], description: 'Scroll down half a page', scope: 'messages' },
  // both act on the newest cut (or expanded) tool result on screen
  {
    action: 'messages.expand',
    keys: ['ctrl+x'],
    description: 'Expand or collapse the newest cut tool result on screen',
    scope: 'messages',
  },
  {
    action: 'messages.pager',
    keys: ['ctrl+p'],
    description: 'Open the newest cut tool result on screen whole, in the pager',
    scope: 'messages',
  },

  // Lists and scrolling dialogs: sessions, commands, models, themes, help, logs, file picker
  { action: 'dialog.up', keys: ['up', 'k'], description: 'Previous item', scope: 'list' },
  { action: 'dialog.down', keys: ['down', 'j'], description: 'Next item', scope: 'list' },
  { action: 'dialog.page_up', keys: ['pgup'], description: 'Up a page', scope: 'list' },
  { action: 'dialog.page_down', keys: ['pgdown'], description: 'Down a page', scope: 'list' },
  { action: 'dialog.first', keys: ['home'], description: 'First item', scope: 'list' },
  { action: 'dialog.last', keys: ['end'], description: 'Last item', scope: 'list' },
  { action: 'dialog.select', keys: ['enter'], description: 'Choose', scope: 'list' },
  { action: 'dialog.close', keys: ['esc'], description: 'Close the dialog', scope: 'list' },
  // the sessions list (ctrl+s) renames and deletes; deleting asks first
  { action: 'session.rename', keys: ['r'], description: 'Sessions: rename the selected session', scope: 'list' },
  {
    action: 'session.delete',
    keys: ['d'],
    description: 'Sessions: delete the selected session (asks first)',
    scope: 'list',
  },
  { action: 'model.provider_previous', keys: ['left', 'h'], description: 'Models: previous provider', scope: 'models' },
  { action: 'model.provider_next', keys: ['right', 'l'], description: 'Models: next provider', scope: 'models' },
  // enter saves the choice to the project's .opencode.json; this key to the global one
  {
    action: 'model.select_global',
    keys: ['g'],
    description: 'Models: choose and save to the global config (enter: this project)',
    scope: 'models',
  },

  // Dialogs with buttons: quit, init, permission
  { action: 'button.next', keys: ['right', 'tab'], description: 'Next button', scope: 'buttons' },
  { action: 'button.previous', keys: ['left', 'shift+tab'], description: 'Previous button', scope: 'buttons' },
  { action: 'button.press', keys: ['enter', 'space'], description: 'Press the selected button', scope: 'buttons' },
  { action: 'confirm.yes', keys: ['y'], description: 'Quit / init: yes', scope: 'buttons' },
  { action: 'confirm.no', keys: ['n'], description: 'Quit / init: no', scope: 'buttons' },

  // Permission dialog. esc denies: a pending call must be answered, and esc is how
  // people say no; ctrl+c opens the quit question over it.
  { action: 'permission.allow', keys: ['a'], description: 'Permission: allow this call', scope: 'permission' },
  {
    action: 'permission.allow_session',
    keys: ['s'],
    description: 'Permission: allow for this session',
    scope: 'permission',
  },
  {
    action: 'permission.allow_always',
    keys: ['p'],
    description: 'Permission: always allow in this project',
    scope: 'permission',
  },
  {
    action: 'permission.allow_outside_sandbox',
    keys: ['o'],
    description: 'Permission: run this call outside the sandbox (when offered)',
    scope: 'permission',
  },
  { action: 'permission.deny', keys: ['d', 'esc'], description: 'Permission: deny', scope: 'permission' },
  {
    action: 'permission.scroll_up',
    keys: ['up', 'k'],
    description: 'Permission: scroll the content up',
    scope: 'permission',
  },
  {
    action: 'permission.scroll_down',
    keys: ['down', 'j'],
    description: 'Permission: scroll the content down',
    scope: 'permission',
  },

  // Init dialog (first start in a project)
  { action: 'init.toggle', keys: ['h', 'l'], description: 'Init: toggle yes / no', scope: 'init' },
  { action: 'init.cancel', keys: ['esc', 'q'], description: 'Init: not now', scope: 'init' },

  // Arguments of a custom command
  { action: 'field.next', keys: ['tab', 'down'], description: 'Arguments: next field', scope: 'arguments' },
  { action: 'field.previous', keys: ['shift+tab', 'up'], description: 'Arguments: previous field', scope: 'arguments' },

  // File picker (ctrl+f); j/k/↑/↓ and esc as in lists
  {
    action: 'file_picker.open',
    keys: ['l', 'right', 'enter'],
    description: 'File picker: open the folder / pick',
    scope: 'file_picker',
  },
  {
    action: 'file_picker.parent',
    keys: ['h', 'left', 'backspace'],
    description: 'File picker: parent folder',
    scope: 'file_picker',
  },
  { action: 'file_picker.type', keys: ['i'], description: 'File picker: type a path', scope: 'file_picker' },

  // Logs page (ctrl+l); ↑/↓/j/k/pgup/pgdown as in lists
  { action: 'logs.back', keys: ['esc', 'q', 'backspace'], description: 'Logs page: back to the chat', scope: 'logs' },

  // Pager (messages.pager); ↑/↓/j/k/pgup/pgdown/home/end as in lists
  { action: 'pager.back', keys: ['esc', 'q'], description: 'Pager: back to the chat', scope: 'pager' },
] as const satisfies readonly Binding[];

/** The name of an action of {@link BINDINGS}; a typo is a compile error. */
export type ActionName = (typeof BINDINGS)[number]['action'];

/** The scopes in the order the help dialog shows them, with their headings. */
export const BINDING_SCOPES: readonly { scope: BindingScope; title: string }[] = [
  { scope: 'global', title: 'Global' },
  { scope: 'chat', title: 'Chat' },
  { scope: 'editor', title: 'Editor' },
  { scope: 'completion', title: 'File completion (@)' },
  { scope: 'messages', title: 'Messages' },
  { scope: 'list', title: 'Lists and dialogs' },
  { scope: 'models', title: 'Models dialog' },
  { scope: 'buttons', title: 'Buttons (quit, init, permission)' },
  { scope: 'permission', title: 'Permission dialog' },
  { scope: 'init', title: 'Init dialog' },
  { scope: 'arguments', title: 'Command arguments' },
  { scope: 'file_picker', title: 'File picker' },
  { scope: 'logs', title: 'Logs page' },
  { scope: 'pager', title: 'Pager (a whole tool result)' },
];

/**
 * The sets of actions that read keys at the same time: two actions on one key is a conflict only
 * inside one of these (a dialog's enter and the editor's enter never meet). Each is its scopes'
 * actions plus the shared ones its component also reads. A component that handles a layer above
 * another (the `@` list over the editor) is its own context: its keys win there on purpose.
 */
export const KEY_CONTEXTS: readonly {
  name: string;
  scopes: readonly BindingScope[];
  actions?: readonly ActionName[];
}[] = [
  // App's global handler, the message list and the editor all listen on the chat page
  { name: 'chat page', scopes: ['global', 'chat', 'editor', 'messages'] },
  { name: 'file completion', scopes: ['completion'] },
  { name: 'list dialogs', scopes: ['list'], actions: ['app.quit'] },
  { name: 'models dialog', scopes: ['list', 'models'], actions: ['app.quit'] },
  {
    name: 'help dialog',
    scopes: [],
    actions: [
      'app.quit',
      'app.help',
      'app.help_busy',
      'dialog.close',
      'dialog.up',
      'dialog.down',
      'dialog.page_up',
      'dialog.page_down',
      'dialog.first',
      'dialog.last',
    ],
  },
  { name: 'quit dialog', scopes: ['buttons'], actions: ['app.quit', 'dialog.close'] },
  {
    name: 'permission dialog',
    scopes: ['permission'],
    actions: [
      'app.quit',
      'button.next',
      'button.previous',
      'button.press',
      'dialog.page_up',
      'dialog.page_down',
      'dialog.first',
      'dialog.last',
    ],
  },
  { name: 'init dialog', scopes: ['init', 'buttons'], actions: ['app.quit'] },
  { name: 'arguments dialog', scopes: ['arguments'], actions: ['app.quit', 'dialog.close', 'dialog.select'] },
  { name: 'file picker', scopes: ['file_picker'], actions: ['app.quit', 'dialog.up', 'dialog.down', 'dialog.close'] },
  {
    name: 'logs page',
    scopes: ['logs'],
    actions: [
      'app.quit',
      'dialog.up',
      'dialog.down',
      'dialog.page_up',
      'dialog.page_down',
      'dialog.first',
      'dialog.last',
    ],
  },
  {
    name: 'pager',
    scopes: ['pager'],
    actions: [
      'app.quit',
      'dialog.up',
      'dialog.down',
      'dialog.page_up',
      'dialog.page_down',
      'dialog.first',
      'dialog.last',
    ],
  },
];

/** How a list of keys reads in help and hints: `ctrl+/, ctrl+h` (a comma: `/` is a key); `none` when unbound. */
export function formatKeys(keys: readonly string[]): string {
  return keys.length === 0 ? 'none' : keys.join(', ');
}
