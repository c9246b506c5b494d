/**
 * The app's command list and runner (commands.ts) as two stable functions, for the slash list in
 * the editor and the ctrl+k dialog: `list` loads the custom commands afresh each time (a file added
 * meanwhile shows up) and `run` carries one out with the app's latest state.
 */
import { useMemo, useRef } from 'react';
import { commandList, runCommand, type CommandContext, type CommandItem } from './commands.js';
import { loadCustomCommands, type CustomCommand } from '../custom/commands.js';

export interface Commands {
  /** built-ins, then the custom commands (loaded now; on failure a status message and the built-ins) */
  list(): Promise<CommandItem[]>;
  /** the list as last loaded (the built-ins before the first `list`), at once: what a dialog shows until `list` resolves */
  known(): CommandItem[];
  /** runs a command of the last `list` by id */
  run(id: string): void;
}

/** See the module comment. `context` may change every render; the functions stay the same. */
export function useCommands(context: Omit<CommandContext, 'custom'>): Commands {
  const contextRef = useRef(context);
  contextRef.current = context;
  const custom = useRef<readonly CustomCommand[]>([]);
  return useMemo<Commands>(
    () => ({
      async list() {
        const { services, store } = contextRef.current;
        try {
          custom.current = await loadCustomCommands({
            configDirs: services.userCommandDirs,
            dataDir: services.dataDir,
          });
        } catch (err) {
          store.setStatus(`Custom commands not loaded: ${(err as Error).message}`, 'warn');
        }
        return commandList(custom.current);
      },
      known() {
        return commandList(custom.current);
      },
      run(id) {
        runCommand(id, { ...contextRef.current, custom: custom.current });
      },
    }),
    [],
  );
}
