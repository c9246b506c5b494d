/**
 * The sessions a running opencode has open, marked for `opencode sessions delete` (the marks:
 * `db/session-in-use.ts`): the TUI holds the session it shows, `-p` the session it runs on; a
 * delete of a session another process holds is refused, naming that process, unless `--force`.
 *
 * Why refuse rather than let the other process carry on: its session's rows are gone, so its next
 * message write fails mid-reply; silently recreating the session there would bring back what the
 * person just deleted. `git branch -d` of a checked-out branch refuses the same way.
 */
import { dirname } from 'node:path';
import type { Database } from '../db/index.js';
import {
  describeSessionUser,
  holdSession,
  relatedSessionUsers,
  releaseSession,
  type SessionUser,
} from '../db/session-in-use.js';
import { localTime } from '../session-io/conversation.js';

/** `the TUI (pid 4242, since 2026-12-01 16:10); opencode -p (pid 4250, since …)`. */
export function describeSessionUsers(users: readonly SessionUser[]): string {
  return users.map((u) => `${describeSessionUser(u).replace(/\)$/, `, since ${localTime(u.sinceMs)})`)}`).join('; ');
}

/** The processes other than this one that a delete of `sessionId` would break (see `relatedSessionUsers`). */
export function sessionUsersOf(db: Database, sessionId: string): SessionUser[] {
  return relatedSessionUsers(dirname(db.path), db.sessions, sessionId);
}

/** Marks `sessionId` as held by this `-p` run until it exits. */
export function holdForPrompt(db: Database, sessionId: string): void {
  holdSession(dirname(db.path), sessionId, '-p');
}

/** The TUI's side: the session it shows is held; one it deletes is checked first. */
export interface TuiSessionMarks {
  /** the TUI shows `sessionId` now: it is held, the one shown before let go */
  opened(sessionId: string): void;
  /**
   * Before the TUI deletes `sessionId` (ctrl+s → d): @throws Error naming the other process when
   * one has it open (the sessions dialog shows the message); else lets go of this process's mark.
   */
  beforeDelete(sessionId: string): void;
}

/** The marks of one TUI on `db`'s project. */
export function tuiSessionMarks(db: Database): TuiSessionMarks {
  const dataDir = dirname(db.path);
  let shown: string | undefined;
  return {
    opened(sessionId) {
      if (shown === sessionId) return;
      if (shown !== undefined) releaseSession(dataDir, shown);
      holdSession(dataDir, sessionId, 'tui');
      shown = sessionId;
    },
    beforeDelete(sessionId) {
      const users = sessionUsersOf(db, sessionId);
      if (users.length)
        throw new Error(`in use by ${describeSessionUsers(users)}: quit it or open another session there first`);
      releaseSession(dataDir, sessionId);
      if (shown === sessionId) shown = undefined;
    },
  };
}
