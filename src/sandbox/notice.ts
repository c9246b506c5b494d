/**
 * The start-up line about the sandbox. Its own module: the TUI reads it without loading the proxy
 * and the launchers.
 */
import type { SandboxStatus } from './types.js';

/**
 * The one line said at start when commands will not run in the sandbox though it was not turned off,
 * or undefined: in `auto` only the permission checks then protect the run; in `required` commands are refused.
 */
export function sandboxNotice(status: SandboxStatus): string | undefined {
  if (status.active || status.mode === 'off') return undefined;
  if (status.mode === 'required')
    return `commands will be refused: "sandbox" is "required" and the sandbox cannot start (${status.reason})`;
  return `commands run without the OS sandbox (${status.reason}): only the permission checks protect this run`;
}
