/**
 * How a declarative tool's arguments reach its program besides stdin: as `OPENCODE_ARG_<NAME>`
 * variables when small, and in a file named by `OPENCODE_ARG_<NAME>_FILE` when large. Linux refuses
 * to start a program whose environment and arguments pass its limits (one string at most 128 KiB,
 * all of them a few MiB: `execve(2)`, E2BIG), so a value of hundreds of KB put in the environment
 * made every call fail before the program ran.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argumentText } from './argv.js';

/** The largest value, in bytes of UTF-8, passed as a variable; a larger one goes in a file. */
export const MAX_VARIABLE_ARGUMENT_BYTES = 32 * 1024;
/** The largest `{{param}}` argument of a `command`, in bytes (Linux's MAX_ARG_STRLEN, 32 pages of 4 KiB). */
export const MAX_COMMAND_ARGUMENT_BYTES = 128 * 1024;

/** `OPENCODE_ARG_<NAME>`: the parameter's name upper-cased, anything but letters and digits as `_`. */
export function argumentVariable(name: string): string {
  return `OPENCODE_ARG_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The variables of one call and the removal of the files they name. */
export interface ArgumentVariables {
  env: Record<string, string>;
  /** removes the files of large values (call when the program is done; never throws) */
  cleanup(): void;
}

/**
 * The variables for `args`: each value as `OPENCODE_ARG_<NAME>`, or, above
 * {@link MAX_VARIABLE_ARGUMENT_BYTES}, written to a file (mode 0600, in a folder of its own under the
 * temp directory) named by `OPENCODE_ARG_<NAME>_FILE`.
 */
export function argumentVariables(args: Record<string, unknown>): ArgumentVariables {
  const env: Record<string, string> = {};
  let dir: string | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const text = argumentText(value);
    const name = argumentVariable(key);
    if (Buffer.byteLength(text) <= MAX_VARIABLE_ARGUMENT_BYTES) {
      env[name] = text;
      continue;
    }
    dir ??= mkdtempSync(join(tmpdir(), 'opencode-tool-args-'));
    const file = join(dir, name);
    writeFileSync(file, text, { mode: 0o600 });
    env[`${name}_FILE`] = file;
  }
  return {
    env,
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The first argument of `argv` too long for a program argument, as a message saying what to do
 * instead; undefined when all fit.
 */
export function oversizedArgument(argv: readonly string[], toolName: string): string | undefined {
  const long = argv.find((a) => Buffer.byteLength(a) > MAX_COMMAND_ARGUMENT_BYTES);
  if (long === undefined) return undefined;
  return (
    `An argument of ${toolName} is ${Math.ceil(Buffer.byteLength(long) / 1024)} KiB, more than a program argument can hold (${MAX_COMMAND_ARGUMENT_BYTES / 1024} KiB). ` +
    'Send a shorter value; the tool file can take large values from stdin (a "script" tool) or from the file named by $OPENCODE_ARG_<NAME>_FILE instead of a {{placeholder}}.'
  );
}
