/**
 * Naming a session from the command line: `--session ID`, `--continue`, and the ID of
 * `opencode sessions show|export|delete`. An id may be given whole or as a unique prefix, as git takes
 * commit ids.
 */
import type { Database } from '../db/database.js';
import type { Session } from '../db/session-store.js';

/** A session id that names no session, or more than one; the message says what to do. */
export class SessionLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionLookupError';
  }
}

/** Sessions named in an "ambiguous" message at most. */
const AMBIGUOUS_SHOWN = 5;

/**
 * The session whose id is `ref`, or the only one whose id starts with `ref`.
 * @throws {SessionLookupError} `no session X; \`opencode sessions list\` shows them`, or, for a prefix
 *   of several ids, one that names them and asks for more characters
 */
export function findSession(db: Pick<Database, 'sessions'>, ref: string): Session {
  const id = ref.trim();
  if (id === '') throw new SessionLookupError('the session id is empty; `opencode sessions list` shows them');
  const exact = db.sessions.get(id);
  if (exact) return exact;
  const matches = db.sessions.findByIdPrefix(id, AMBIGUOUS_SHOWN + 1);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new SessionLookupError(`no session ${id}; \`opencode sessions list\` shows them`);
  const shown = matches
    .slice(0, AMBIGUOUS_SHOWN)
    .map((s) => s.id)
    .join(', ');
  const more = matches.length > AMBIGUOUS_SHOWN ? ', …' : '';
  throw new SessionLookupError(`session id ${id} is ambiguous: it starts ${shown}${more}; give more of the id`);
}

/** Which session a run starts in: the flags `--continue` and `--session ID`. */
export interface SessionChoice {
  /** `--continue`: the project's most recently updated top-level session */
  continue?: boolean;
  /** `--session ID`: this session (a unique prefix is enough) */
  session?: string;
}

/**
 * The session the flags name, or `undefined` when they name none (no flag; or `--continue` in a
 * project without sessions).
 * @throws {SessionLookupError} for an unknown or ambiguous `--session` id
 */
export function chosenSession(db: Pick<Database, 'sessions'>, choice: SessionChoice): Session | undefined {
  if (choice.session !== undefined) return findSession(db, choice.session);
  if (choice.continue) return db.sessions.latest();
  return undefined;
}

/**
 * The session the TUI opens at start: the one the flags name; without a flag, the one last
 * used in the TUI (never a `-p` run or a sub-agent session it did not open); `null` for a new chat.
 * @throws {SessionLookupError} for an unknown or ambiguous `--session` id
 */
export function tuiStartSession(db: Pick<Database, 'sessions'>, choice: SessionChoice): string | null {
  const session =
    choice.session !== undefined || choice.continue ? chosenSession(db, choice) : db.sessions.lastUsedInTui();
  return session?.id ?? null;
}

/**
 * The shortest prefix of each id, at least `minChars` long, that no other id in `ids` starts with
 * (what `sessions list` prints, as git shortens commit ids). An id that is a prefix of another is kept whole.
 */
export function shortIds(ids: readonly string[], minChars = 8): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const out = new Map<string, string>();
  sorted.forEach((id, i) => {
    // in sorted order, the longest common prefix with any other id is with a neighbour
    const common = Math.max(commonPrefix(id, sorted[i - 1]), commonPrefix(id, sorted[i + 1]));
    out.set(id, id.slice(0, Math.max(minChars, common + 1)));
  });
  return out;
}

function commonPrefix(a: string, b: string | undefined): number {
  if (b === undefined) return 0;
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
