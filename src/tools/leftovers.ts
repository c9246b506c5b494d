/**
 * What the tools may leave behind when the process is killed: the
 * temporary file of an atomic write, the bash tool's state directory and its process groups. The
 * tools report each as it appears and goes; the app records them in a journal in the data folder
 * (`app/leftovers.ts`) so that the next start in the project can remove what a killed process left.
 *
 * A process-wide hook rather than a service in the tool context: the atomic write sits below every
 * file tool and the shell below the bash tool, and the crash they guard against is the process's.
 * Without a recorder (tests, library use) the reports go nowhere.
 */

/**
 * State directories of the bash tool's shells are `$TMPDIR/opencode-shell-<pid>-XXXXXX` (mode 0700),
 * so one left by a killed process can be told from a live one by its pid.
 */
export const STATE_DIR_PREFIX = 'opencode-shell-';

/** Receives the reports. Implementations must not throw (a full disk must not fail a write). */
export interface LeftoverRecorder {
  /** called before the temporary file at `path` is created */
  tempFileCreating(path: string): void;
  /** the temporary file was renamed over its target or removed */
  tempFileGone(path: string): void;
  /** a shell state directory (environment snapshots) was created */
  stateDirCreated(path: string): void;
  stateDirRemoved(path: string): void;
  /** a shell was started as the leader of process group `pgid` */
  processGroupStarted(pgid: number): void;
  /** no process of the group is left (or it was killed) */
  processGroupEnded(pgid: number): void;
}

const NOBODY: LeftoverRecorder = {
  tempFileCreating() {},
  tempFileGone() {},
  stateDirCreated() {},
  stateDirRemoved() {},
  processGroupStarted() {},
  processGroupEnded() {},
};

let current: LeftoverRecorder = NOBODY;

/** Sets (or with undefined, clears) the process's recorder. */
export function setLeftoverRecorder(recorder: LeftoverRecorder | undefined): void {
  current = recorder ?? NOBODY;
}

/** The recorder the tools report to. */
export function leftovers(): LeftoverRecorder {
  return current;
}
