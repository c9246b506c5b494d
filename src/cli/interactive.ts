/**
 * `opencode` without -p: the TUI. It is built in its own issue; until then say so plainly.
 */
import type { CliOptions } from './main.js';

/** Starts the interactive TUI. Returns the exit code. */
export async function runInteractive(_opts: CliOptions): Promise<number> {
  process.stderr.write(
    'opencode: the interactive TUI is not part of this build yet. Run one prompt with:\n' +
      '  opencode -p "your request"      (see opencode --help)\n',
  );
  return 2;
}
