/**
 * Our slash commands in the editor: the built-in ones (the TUI's Initialize Project and Compact
 * Session) and the custom commands of the `commands` folders (as the original's), advertised with
 * `available_commands_update`. A prompt that starts with `/name` runs the command; any other `/…`
 * (a path, say) is a plain prompt.
 *
 * A custom command's `$NAMES` are filled from the text after the command: a command with one
 * placeholder takes all of it (`/project:fix 42` → `$ISSUE` = `42`); with several, the text is
 * `NAME=value` pairs (`/user:pr TITLE=Fix login BRANCH=main`).
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { fillPlaceholders, type CustomCommand } from '../custom/commands.js';

/** A built-in command. */
export interface BuiltinCommand {
  name: 'init' | 'compact';
  description: string;
}

/** The built-in commands; each one's example is in its description. */
export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  {
    name: 'init',
    description: 'Initialize Project: write or improve OpenCode.md, the notes for coding agents in this project',
  },
  {
    name: 'compact',
    description: 'Compact Session: summarise the conversation so far, so later requests send the summary',
  },
];

/** What `available_commands_update` lists: the built-in commands, then the custom ones. */
export function availableCommands(custom: readonly CustomCommand[]): AvailableCommand[] {
  return [
    ...BUILTIN_COMMANDS.map((c) => ({ name: c.name, description: c.description })),
    ...custom.map((c) => ({
      name: c.id,
      description: c.description,
      ...(c.placeholders.length > 0 ? { input: { hint: placeholderHint(c.placeholders) } } : {}),
    })),
  ];
}

/** A prompt that names a command. */
export type CommandCall =
  { kind: 'builtin'; name: BuiltinCommand['name'] } | { kind: 'custom'; command: CustomCommand; prompt: string };

/** A custom command called without the values its placeholders need; the message says how to call it. */
export class CommandInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandInputError';
  }
}

/**
 * The command `text` calls, or undefined when it calls none (no leading `/`, or an unknown name).
 * @throws {CommandInputError} when a custom command's placeholders are not all given
 */
export function parseCommand(text: string, custom: readonly CustomCommand[]): CommandCall | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, name, rest = ''] = match;
  const builtin = BUILTIN_COMMANDS.find((c) => c.name === name);
  if (builtin) return { kind: 'builtin', name: builtin.name };
  const command = custom.find((c) => c.id === name);
  if (!command) return undefined;
  const values = placeholderValues(command.placeholders, rest.trim());
  const missing = command.placeholders.filter((p) => values[p] === undefined || values[p] === '');
  if (missing.length > 0) {
    throw new CommandInputError(
      `/${command.id} needs ${missing.map((p) => `$${p}`).join(', ')}: type /${command.id} ${placeholderHint(command.placeholders)}`,
    );
  }
  return { kind: 'custom', command, prompt: fillPlaceholders(command.content, values) };
}

/** `ISSUE` → `ISSUE`; `TITLE`, `BRANCH` → `TITLE=… BRANCH=…` */
function placeholderHint(placeholders: readonly string[]): string {
  return placeholders.length === 1 ? placeholders[0]! : placeholders.map((p) => `${p}=…`).join(' ');
}

/** One placeholder: all of `input`; several: its `NAME=value` pairs (a value runs to the next ` NAME=`). */
function placeholderValues(placeholders: readonly string[], input: string): Record<string, string> {
  if (placeholders.length === 0) return {};
  if (placeholders.length === 1) return { [placeholders[0]!]: input };
  const values: Record<string, string> = {};
  for (const m of input.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=([\s\S]*?)(?=\s+[A-Z][A-Z0-9_]*=|$)/g)) {
    if (placeholders.includes(m[1]!)) values[m[1]!] = m[2]!.trim();
  }
  return values;
}
