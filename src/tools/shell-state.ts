/**
 * Reading the state a command of the session shell saved (`shell.ts`), which a sandboxed command
 * controls: read as data, never through a link, and with the variables that run code reset before a
 * command at a looser level than the one that set them.
 *
 * A sandboxed command could otherwise plant state for the next one, which may run outside the sandbox
 * once the person approves it. So the snapshot the next command sources is written in a directory the
 * sandbox cannot write; the state a command writes goes to a directory made for that command only, read
 * without following links (a regular file, one link, a size cap); and when the next command runs at a
 * looser level than the one that set the variables, those that make programs run code
 * (`permission/code-env.ts`, `LD_*`) go back to the agent's values.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { codeEnvironmentVariable } from '../permission/code-env.js';
import type { SandboxLevel } from '../sandbox/types.js';

/** The largest environment state taken over from a command (bytes); a bigger one is ignored. */
export const MAX_ENV_BYTES = 4 * 1024 * 1024;

/** Levels from strictest to loosest: variables set at one level may run code only at that level or stricter. */
export const LEVEL_RANK: Readonly<Record<SandboxLevel, number>> = { strict: 0, network: 1, none: 2 };

/** Whether a variable makes programs run code (the permission check's table, and every dynamic-loader variable). */
function runsCode(name: string, value: string | undefined): boolean {
  return /^(?:LD_|DYLD_)/.test(name) || codeEnvironmentVariable(name, value) !== undefined;
}

/**
 * A state file the command wrote, read without following a link: only a regular file with one link and
 * at most `maxBytes`. undefined when it is anything else, missing or too big (the command may have
 * swapped it for a link to a secret, or to a huge file).
 */
export function readStateFile(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1 || stat.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `env -0` output (`NAME=value` entries ended by NUL) as variables; `_` (the shell's last argument) is left out. */
export function parseEnvironment(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (name !== '_') env[name] = entry.slice(eq + 1);
  }
  return env;
}

/**
 * Sets the variables of `state` that make programs run code back to their values in `base` (or removes
 * them) where they differ; returns their names, sorted. `TMPDIR` is the shell's own choice and stays.
 */
export function resetCodeVariables(state: Record<string, string>, base: Readonly<Record<string, string>>): string[] {
  const reset: string[] = [];
  for (const name of new Set([...Object.keys(state), ...Object.keys(base)])) {
    if (name === 'TMPDIR' || state[name] === base[name] || !runsCode(name, state[name])) continue;
    reset.push(name);
    if (name in base) state[name] = base[name]!;
    else delete state[name];
  }
  return reset.sort();
}
