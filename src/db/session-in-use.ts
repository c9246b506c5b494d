/**
 * Which running processes have a session open: one mark file per (session, process) under
 * `<dataDir>/sessions-in-use/<session id>/<pid>.json`, written when the TUI opens a session, a `-p`
 * run starts on one or an editor opens one through `opencode acp`, removed when it lets go of it or exits. `opencode sessions delete` reads them
 * and refuses to delete a session another process is using (deleting it under that process made its
 * next write fail: the messages' rows need their session).
 *
 * No migration: the marks live beside the database, not in it, so a crashed process cannot leave
 * a session locked in the database. A mark is stale — and removed when read — when its process is
 * gone (`kill(pid, 0)` says ESRCH) or, on Linux, when the pid now belongs to another process (the
 * start time in `/proc/<pid>/stat` differs from the one the mark recorded).
 *
 * Several processes share the folder (two terminals on one project): each writes and removes only
 * its own marks; anyone may remove a stale one.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processRunning, processStartTicks } from '../process-identity.js';

/** The folder of the data directory the marks are kept in. */
export const SESSIONS_IN_USE_DIR = 'sessions-in-use';

/**
 * What holds a session, and how a refusal names it. Example per row: what has the session open.
 */
export const SESSION_HOLDERS = {
  tui: 'the TUI', // a TUI window showing it
  '-p': 'opencode -p', // a non-interactive run on it
  acp: 'opencode acp (an editor)', // an editor's session (session/new or session/load), until session/close
} as const;

/** A key of {@link SESSION_HOLDERS}. */
export type SessionHolder = keyof typeof SESSION_HOLDERS;

/** A live process that has a session open, as its mark says. */
export interface SessionUser {
  pid: number;
  holder: SessionHolder;
  /** unix ms the process took the session */
  sinceMs: number;
}

/** The mark file's JSON. */
interface Mark {
  sessionId: string;
  pid: number;
  holder: SessionHolder;
  sinceMs: number;
  /** the process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22), where known */
  startTicks?: string;
}

/** Mark files this process wrote, removed at exit. */
const held = new Set<string>();
let exitHookInstalled = false;

/**
 * Marks `sessionId` as open in this process (idempotent). Best effort: a data directory that cannot
 * be written (read-only, full) costs only the protection, never the session's opening.
 */
export function holdSession(dataDir: string, sessionId: string, holder: SessionHolder): void {
  const file = markFile(dataDir, sessionId, process.pid);
  if (held.has(file)) return;
  const ticks = processStartTicks(process.pid);
  const mark: Mark = {
    sessionId,
    pid: process.pid,
    holder,
    sinceMs: Date.now(),
    ...(ticks !== null && { startTicks: ticks }),
  };
  // two tries: another process may remove the session's folder, empty, between our mkdir and write
  const written = [0, 1].some(() => {
    try {
      mkdirSync(join(dataDir, SESSIONS_IN_USE_DIR, encodeURIComponent(sessionId)), { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(mark)}\n`);
      return true;
    } catch {
      return false;
    }
  });
  if (!written) return;
  held.add(file);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' runs on process.exit and a normal end; a process killed outright leaves a mark its
    // dead pid makes stale
    process.on('exit', releaseAllSessions);
  }
}

/** Removes this process's mark on `sessionId`, if it has one. */
export function releaseSession(dataDir: string, sessionId: string): void {
  const file = markFile(dataDir, sessionId, process.pid);
  if (!held.delete(file)) return;
  removeMark(file);
}

/** Removes every mark this process holds (at exit). */
export function releaseAllSessions(): void {
  for (const file of held) removeMark(file);
  held.clear();
}

/**
 * The live processes other than this one that have `sessionId` open, oldest first. Stale marks
 * (the process is gone, or its pid was reused) are removed on the way. A folder that cannot be read
 * means no one: the check must not stop a delete that the database allows.
 */
export function sessionUsers(dataDir: string, sessionId: string): SessionUser[] {
  const dir = join(dataDir, SESSIONS_IN_USE_DIR, encodeURIComponent(sessionId));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const users: SessionUser[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const mark = readMark(file);
    if (!mark || mark.sessionId !== sessionId) continue;
    if (mark.pid === process.pid) continue;
    if (!alive(mark)) {
      removeMark(file);
      continue;
    }
    users.push({ pid: mark.pid, holder: mark.holder, sinceMs: mark.sinceMs });
  }
  return users.sort((a, b) => a.sinceMs - b.sinceMs);
}

/** `the TUI (pid 4242)`, `opencode -p (pid 4242)`: how a refusal names the process. */
export function describeSessionUser(user: SessionUser): string {
  return `${SESSION_HOLDERS[user.holder]} (pid ${user.pid})`;
}

function markFile(dataDir: string, sessionId: string, pid: number): string {
  return join(dataDir, SESSIONS_IN_USE_DIR, encodeURIComponent(sessionId), `${pid}.json`);
}

function readMark(file: string): Mark | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Mark>;
    if (typeof value.pid !== 'number' || typeof value.sessionId !== 'string') return undefined;
    const holder: SessionHolder =
      typeof value.holder === 'string' && Object.hasOwn(SESSION_HOLDERS, value.holder) ? value.holder : 'tui';
    return {
      sessionId: value.sessionId,
      pid: value.pid,
      holder,
      sinceMs: Number(value.sinceMs) || 0,
      ...(typeof value.startTicks === 'string' && { startTicks: value.startTicks }),
    };
  } catch {
    return undefined; // being written, or not ours: neither counts
  }
}

/** The mark's process still runs: the pid answers, and (where /proc tells) it is the same process. */
function alive(mark: Mark): boolean {
  return processRunning({ pid: mark.pid, startTicks: mark.startTicks ?? null });
}

/** Removes a mark file and, when it was the last, its session's folder. */
function removeMark(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone (another process cleaned a stale one)
  }
  try {
    rmdirSync(join(file, '..'));
  } catch {
    // not empty, or gone
  }
}

/** What {@link relatedSessionUsers} needs of the session store. */
export interface SessionTree {
  get(id: string): { parentSessionId?: string } | undefined;
  listChildren(id: string): readonly { id: string }[];
}

/**
 * The live processes (other than this one) using `sessionId`, one of its sub-agent sessions (a
 * delete takes them too), or a session above it (whose run may be in that sub-agent now): what a
 * delete of `sessionId` would break. Oldest first, each process once.
 */
export function relatedSessionUsers(dataDir: string, sessions: SessionTree, sessionId: string): SessionUser[] {
  const ids = new Set<string>();
  const below = [sessionId];
  while (below.length) {
    const id = below.pop()!;
    if (ids.has(id)) continue;
    ids.add(id);
    for (const child of sessions.listChildren(id)) below.push(child.id);
  }
  for (
    let parent = sessions.get(sessionId)?.parentSessionId;
    parent !== undefined && !ids.has(parent);
    parent = sessions.get(parent)?.parentSessionId
  ) {
    ids.add(parent);
  }
  const byPid = new Map<number, SessionUser>();
  for (const id of ids)
    for (const user of sessionUsers(dataDir, id)) if (!byPid.has(user.pid)) byPid.set(user.pid, user);
  return [...byPid.values()].sort((a, b) => a.sinceMs - b.sinceMs);
}
