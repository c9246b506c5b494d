/**
 * Which process a pid names, on Linux exactly: a pid can be reused, so a process is its pid and its
 * start time (`/proc/<pid>/stat` field 22, clock ticks since boot). Without /proc only the pid is known.
 * Used by the leftovers journal (app/leftovers.ts) and the sessions-in-use marks (db/session-in-use.ts).
 */
import { readFileSync } from 'node:fs';

/** A process as journals name it: pid and start time (clock ticks since boot; null where unknown). */
export interface ProcessIdentity {
  pid: number;
  startTicks: string | null;
}

/** Start time of a live, non-zombie process in clock ticks since boot (`/proc/<pid>/stat` field 22); null without /proc or when it is gone. */
export function processStartTicks(pid: number): string | null {
  const fields = procStatFields(pid);
  if (!fields || fields.state === 'Z') return null;
  return fields.startTicks;
}

/** Whether the process is alive and is the one identified (same start time where it is known). */
export function processRunning(identity: ProcessIdentity): boolean {
  if (!Number.isInteger(identity.pid) || identity.pid <= 0) return false;
  if (!pidExists(identity.pid)) return false;
  const ticks = processStartTicks(identity.pid);
  if (ticks === null) return procStatFields(identity.pid) === undefined; // no /proc: trust the pid; zombie: gone
  return identity.startTicks === null || identity.startTicks === ticks;
}

/** The fields of `/proc/<pid>/stat` we use; undefined when unreadable. */
export function procStatFields(pid: number): { state: string; pgrp: number; startTicks: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name (field 2) is in parentheses and may hold spaces and parentheses itself
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), rest[2] field 5 (pgrp), rest[19] field 22 (starttime)
  const [state, , pgrp] = rest;
  const startTicks = rest[19];
  if (!state || !pgrp || !startTicks) return undefined;
  return { state, pgrp: Number(pgrp), startTicks };
}

/** Whether a process with this pid exists (as another user's too: EPERM). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
