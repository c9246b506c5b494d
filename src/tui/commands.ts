/**
 * The commands a person can run by name: typed after `/` at the start of the input (the slash
 * list) or chosen in the ctrl+k dialog. The built-in ones are a table (name, title,
 * what it does), followed by the custom commands from `commands/` folders (src/custom/commands.ts).
 * Running one is {@link runCommand}: it needs only the few things the app can do
 * ({@link CommandContext}), so the slash list and the dialog behave the same.
 */
import type { CustomCommand } from '../custom/commands.js';
import type { DialogState } from './dialog-state.js';
import { keyPhrase } from './key-hints.js';
import type { ChatStore } from './state/chat-store.js';
import type { ChatServices } from './state/services.js';

/** One command as the lists show it. */
export interface CommandItem {
  /** what {@link runCommand} takes: a built-in's name, or a custom command's id */
  id: string;
  /** what follows the `/`: `models`, `user:git:commit` */
  name: string;
  /** the ctrl+k dialog's label: `Select Model`, `user:git:commit` */
  title: string;
  /** one line: what it does, or where a custom command comes from */
  description: string;
}

/**
 * The built-in commands, in the order both lists show them (the issue's order, with undo and redo
 * after init). `/new` is `new`, and so on: the id is the name.
 */
export const BUILTIN_COMMANDS: readonly CommandItem[] = [
  { id: 'new', name: 'new', title: 'New Session', description: 'Start a new session' },
  { id: 'sessions', name: 'sessions', title: 'Switch Session', description: 'Open another session of this project' },
  { id: 'models', name: 'models', title: 'Select Model', description: 'Choose the model for the next replies' },
  { id: 'themes', name: 'themes', title: 'Select Theme', description: 'Choose the colours' },
  {
    id: 'profiles',
    name: 'profiles',
    title: 'Select Profile',
    description: 'Switch the provider profile for the next request',
  },
  {
    id: 'compact',
    name: 'compact',
    title: 'Compact Session',
    description: 'Summarise this session; later requests start from the summary',
  },
  {
    id: 'init',
    name: 'init',
    title: 'Initialize Project',
    description: 'Create or update OpenCode.md: build/test commands and code style for the agent',
  },
  {
    id: 'undo',
    name: 'undo',
    title: 'Undo',
    description: 'Restore the files the last turn changed to how they were before it',
  },
  { id: 'redo', name: 'redo', title: 'Redo', description: 'Put back the file changes the last undo took away' },
  { id: 'help', name: 'help', title: 'Help', description: 'Show the keys' },
  { id: 'logs', name: 'logs', title: 'Show Logs', description: 'Show the logs page' },
  { id: 'quit', name: 'quit', title: 'Quit', description: 'Quit opencode' },
];

/** A custom command as the lists show it: its id is its name and title. */
export function customCommandItem(command: CustomCommand): CommandItem {
  return { id: command.id, name: command.id, title: command.title, description: command.description };
}

/** The built-in commands, then `custom`. */
export function commandList(custom: readonly CustomCommand[]): CommandItem[] {
  return [...BUILTIN_COMMANDS, ...custom.map(customCommandItem)];
}

/** What running a command may do in the app. */
export interface CommandContext {
  services: ChatServices;
  store: ChatStore;
  /** the open session's id, if any */
  sessionId: string | undefined;
  /** a reply or compaction is running */
  busy: boolean;
  /** the custom commands as last loaded */
  custom: readonly CustomCommand[];
  openDialog(dialog: DialogState): void;
  showLogs(): void;
  /** a new session: the attachments go too */
  newSession(): void;
  /** quits at once (the person asked by name: no question) */
  quit(): void;
  /** sends a prompt; false when refused */
  send(text: string): boolean;
  /** true (and a status message) when the agent is busy; `what` completes "… after the reply finishes" */
  refuseWhileBusy(what: string): boolean;
}

/**
 * Runs the command `id` (a built-in's or a custom command's). A custom command with placeholders
 * opens the arguments dialog; one without is sent. An unknown id is a status message, not an error.
 */
export function runCommand(id: string, ctx: CommandContext): void {
  const { services, store } = ctx;
  switch (id) {
    case 'new':
      if (!ctx.refuseWhileBusy('start a new session')) ctx.newSession();
      return;
    case 'sessions':
      if (!ctx.refuseWhileBusy('switch sessions'))
        ctx.openDialog({ kind: 'sessions', sessions: services.sessions.list() });
      return;
    case 'models':
      if (!ctx.refuseWhileBusy('switch models')) ctx.openDialog({ kind: 'models' });
      return;
    case 'themes':
      return ctx.openDialog({ kind: 'themes' });
    case 'profiles':
      return ctx.openDialog({ kind: 'profiles' });
    case 'compact':
      return compactSession(services, store, ctx.sessionId, ctx.busy);
    case 'init':
      ctx.send(initPrompt(services));
      return;
    case 'undo':
      // the outcome (or why not) goes to the status line
      void store.undoTurn();
      return;
    case 'redo':
      void store.redoTurn();
      return;
    case 'help':
      return ctx.openDialog({ kind: 'help' });
    case 'logs':
      return ctx.showLogs();
    case 'quit':
      return ctx.quit();
  }
  const command = ctx.custom.find((c) => c.id === id);
  if (!command)
    return store.setStatus(
      `No command ${id}: /${keyPhrase(store.keymap, 'command.list', (k) => ` or ${k}`)} lists them`,
      'warn',
    );
  if (command.placeholders.length > 0) ctx.openDialog({ kind: 'arguments', command });
  else ctx.send(command.content);
}

/** The Initialize Project prompt; asking for it marks the project initialised (the original does). */
export function initPrompt(services: ChatServices): string {
  services.init.markInitialized();
  return services.init.prompt;
}

/** Compacts the open session, or says why not in the status bar. */
export function compactSession(
  services: ChatServices,
  store: ChatStore,
  sessionId: string | undefined,
  busy: boolean,
): void {
  if (!sessionId) return store.setStatus('Nothing to compact: this session has no messages yet', 'warn');
  if (busy) return store.setStatus('The agent is busy: compact after the reply finishes', 'warn');
  if (!services.compact) return store.setStatus('Compaction is not available', 'error');
  store.setCompacting(true);
  store.setStatus('Compacting the session…', 'info');
  services.compact(sessionId).then(
    () => store.setCompacting(false),
    (err: unknown) => {
      store.setCompacting(false);
      store.setStatus(`Compaction failed: ${(err as Error).message}`, 'error');
    },
  );
}
