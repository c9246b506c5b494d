/**
 * The keybindings of the config files, for the TUI and for `opencode keybindings`:
 * each file's `keybindings` laid over the table in src/tui/keybindings.ts, with one line per
 * problem naming the file and the action.
 */
import { BINDINGS, formatKeys, type ActionName } from '../tui/keybindings.js';
import { buildKeymap, type BuiltKeymap, type KeybindingSource } from '../tui/keymap.js';
import { alignColumns } from './columns.js';
import type { CliOptions } from './options.js';

/**
 * What a loaded config gives (`loadConfig`'s `sources`): each file's own value, global first. The
 * values are taken as given (the TUI's start has them without loading the schema).
 */
export interface ConfigFiles {
  sources: readonly { file: string; value: Record<string, unknown> }[];
}

/** Each file's `keybindings` object, global first (a file without one is left out). */
export function keybindingSources(loaded: ConfigFiles): KeybindingSource[] {
  return loaded.sources.flatMap(({ file, value }) => {
    const bindings = value.keybindings;
    return bindings !== null && typeof bindings === 'object' && !Array.isArray(bindings)
      ? [{ file, bindings: bindings as Record<string, unknown> }]
      : [];
  });
}

/** The keymap of the loaded config files, with its errors and warnings. */
export function loadKeymap(loaded: ConfigFiles): BuiltKeymap {
  return buildKeymap(keybindingSources(loaded));
}

/**
 * The table `opencode keybindings` prints: one row per action in table order, its default keys, the
 * keys in effect when a config file changed them (`none` when unbound), and what it does.
 */
export function keybindingsTable(built: BuiltKeymap, sources: readonly KeybindingSource[]): string {
  const changed = new Set(sources.flatMap((s) => Object.keys(s.bindings)));
  const rows = BINDINGS.map((b) => {
    const action = b.action as ActionName;
    const yours = changed.has(action) ? formatKeys(built.keymap.keys(action)) : '';
    return [action, formatKeys(b.keys), yours, b.description];
  });
  const header = ['ACTION', 'DEFAULT', 'YOURS', 'WHAT IT DOES'];
  return alignColumns([header, ...rows]).join('\n');
}

/**
 * `opencode keybindings`: prints the table to stdout and the problems to stderr (errors, then
 * warnings). Exit code 2 when the config cannot be loaded or a keybinding is wrong, else 0.
 */
export async function runKeybindings(opts: Pick<CliOptions, 'cwd'>): Promise<number> {
  const { loadConfigForCommand } = await import('./load-config.js');
  const { resolve } = await import('node:path');
  const loaded = loadConfigForCommand(resolve(opts.cwd ?? process.cwd()));
  if (typeof loaded === 'number') return loaded;
  const sources = keybindingSources(loaded);
  const built = buildKeymap(sources);
  process.stdout.write(`${keybindingsTable(built, sources)}\n`);
  for (const error of built.errors) process.stderr.write(`${error}\n`);
  for (const warning of built.warnings) process.stderr.write(`warning: ${warning}\n`);
  return built.errors.length > 0 ? 2 : 0;
}
