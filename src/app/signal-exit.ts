/**
 * The exit code of a run that a signal ended: 128 + the signal's number, as shells report a process
 * the signal killed (`$?` is 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP), so a script or a
 * supervisor reads the same code whether opencode stopped by itself on the signal or was killed by it.
 */
import { constants } from 'node:os';

/** 128 + the number of `signal` (Linux and macOS agree on these three: 1, 2, 15). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
