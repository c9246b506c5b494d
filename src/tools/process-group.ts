/**
 * Stopping a command's process group: SIGTERM, then SIGKILL after a grace period; whether a group
 * still has members. POSIX process groups (`kill(-pgid, …)`); sparing the sandbox launcher reads /proc
 * (Linux, the only system where it is used).
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * SIGTERM to the group now, SIGKILL after `graceMs` if any member is still alive. Members whose
 * program is named `spare` (Linux, read from /proc) get no SIGTERM, only the SIGKILL if they outlive the grace.
 */
export function terminateGroup(pgid: number, graceMs: number, spare?: string): void {
  if (spare) for (const pid of groupMembers(pgid, spare)) signalProcess(pid, 'SIGTERM');
  else signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  const poll = setInterval(() => {
    if (!groupAlive(pgid)) {
      clearInterval(poll);
    } else if (Date.now() >= deadline) {
      signalGroup(pgid, 'SIGKILL');
      clearInterval(poll);
    }
  }, 25);
  poll.unref();
}

/** The processes of group `pgid` whose program name (/proc/PID/stat) is not `except`. */
function groupMembers(pgid: number, except: string): number[] {
  return groupProcesses(pgid)
    .filter((p) => p.name !== except)
    .map((p) => p.pid);
}

/** One process as /proc/PID/stat shows it: its id, program name and state letter (`R`, `S`, `Z` for a zombie, …). */
export interface GroupProcess {
  pid: number;
  name: string;
  state: string;
}

/** The processes of group `pgid`, read from /proc (Linux); none when /proc cannot be read. */
export function groupProcesses(pgid: number): GroupProcess[] {
  const members: GroupProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp …": the name may hold spaces and parentheses, so split after the last ')'
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === pgid)
      members.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close), state: state! });
  }
  return members;
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** true while any process of the group exists (signal 0 checks without sending) */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
