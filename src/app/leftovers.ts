/**
 * What a killed opencode leaves behind, and removing it on the next start in the project: the temporary files of atomic writes (`.<name>.<pid>.<hex>.tmp` beside edited
 * files, shown by `git status`), the bash tool's state directories in `$TMPDIR`, and the process
 * groups of its shells that outlived it.
 *
 * Each running opencode keeps a journal, `<data dir>/state/run-<pid>.json`, of what it has out right
 * now (the tools report through `tools/leftovers.ts`). At start-up {@link cleanLeftovers} reads the
 * journals of processes that are gone and removes what they list; a journal of a live process is left
 * alone (two opencodes may share a project).
 *
 * A pid can be reused, so a process is identified by its pid and its start time (`/proc/<pid>/stat`
 * field 22, in clock ticks since boot): a process group is ended only while its leader is the process
 * we started, or, once the leader is gone, while members started after it remain (a pid that leads a
 * live group is never handed out again). Without `/proc` (not Linux) groups are left alone: nothing
 * tells our process from a stranger that got the same pid.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { repairInterruptedTurns } from '../agent/history.js';
import type { Database } from '../db/index.js';
import { sessionsWithInterruptedTurns } from '../db/interrupted.js';
import { leftovers, setLeftoverRecorder, STATE_DIR_PREFIX, type LeftoverRecorder } from '../tools/leftovers.js';
import {
  pidExists,
  processRunning,
  processStartTicks,
  procStatFields,
  type ProcessIdentity,
} from '../process-identity.js';

/** The journal folder inside the data folder. */
export const JOURNAL_DIR = 'state';

/** One process's journal. Paths are absolute. */
export interface RunJournal {
  process: ProcessIdentity;
  /** when the process started its journal, unix ms: sessions changed since may hold its cut-off turns */
  startedAtMs: number;
  tempFiles: string[];
  stateDirs: string[];
  /** process groups of shells, identified by their leader */
  groups: ProcessIdentity[];
}

/** What {@link cleanLeftovers} did. */
export interface LeftoverCleanup {
  removedTempFiles: string[];
  removedStateDirs: string[];
  /** process groups ended (SIGKILL), by pgid */
  endedGroups: number[];
  /** other opencode processes still running in this project */
  othersRunning: number;
  /** the earliest start (unix ms) of the dead processes whose journals were found; undefined when none */
  crashedSinceMs?: number;
}

/** Temporary file names of `writeFileAtomic`: only such files are ever removed from a journal's list. */
const TEMP_FILE_NAME = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * The journal of this process, written as things come and go (a small JSON file replaced by rename,
 * so a kill mid-write leaves the previous version). Writing never throws: a journal that cannot be
 * written (read-only data folder) only means less is cleaned after a crash.
 */
export class LeftoverJournal implements LeftoverRecorder {
  private readonly journal: RunJournal;
  private readonly file: string;

  constructor(dataDir: string) {
    const dir = join(dataDir, JOURNAL_DIR);
    this.file = join(dir, `run-${process.pid}.json`);
    this.journal = {
      process: { pid: process.pid, startTicks: processStartTicks(process.pid) },
      startedAtMs: Date.now(),
      tempFiles: [],
      stateDirs: [],
      groups: [],
    };
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // written best effort below
    }
    this.save();
  }

  tempFileCreating(path: string): void {
    this.journal.tempFiles.push(path);
    this.save();
  }

  tempFileGone(path: string): void {
    this.remove(this.journal.tempFiles, path);
  }

  stateDirCreated(path: string): void {
    this.journal.stateDirs.push(path);
    this.save();
  }

  stateDirRemoved(path: string): void {
    this.remove(this.journal.stateDirs, path);
  }

  processGroupStarted(pgid: number): void {
    this.journal.groups.push({ pid: pgid, startTicks: processStartTicks(pgid) });
    this.save();
  }

  processGroupEnded(pgid: number): void {
    const at = this.journal.groups.findIndex((g) => g.pid === pgid);
    if (at < 0) return;
    this.journal.groups.splice(at, 1);
    this.save();
  }

  /**
   * At a clean exit: the journal goes away unless something is still out (a process group still
   * dying after SIGTERM), which the next start then ends.
   */
  close(): void {
    this.journal.groups = this.journal.groups.filter((g) => groupExists(g.pid));
    if (this.journal.tempFiles.length === 0 && this.journal.groups.length === 0) {
      removeQuietly(this.file);
    } else {
      this.journal.stateDirs = [];
      this.save();
    }
  }

  private remove(list: string[], path: string): void {
    const at = list.indexOf(path);
    if (at < 0) return;
    list.splice(at, 1);
    this.save();
  }

  private save(): void {
    const temp = `${this.file}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(this.journal), { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // see the class doc
    }
  }
}

/**
 * What the app does at start-up: removes what killed opencodes left ({@link cleanLeftovers}), repairs
 * the sessions they left mid-turn when no other opencode runs in the project
 * ({@link repairCrashedSessions}), and starts this process's journal as the tools' recorder.
 * Call {@link stopLeftoverJournal} with the result when the app closes.
 */
export function startLeftoverJournal(dataDir: string, db: Database): LeftoverJournal {
  const cleanup = cleanLeftovers(dataDir);
  if (cleanup.othersRunning === 0 && cleanup.crashedSinceMs !== undefined) {
    try {
      repairCrashedSessions(db, cleanup.crashedSinceMs);
    } catch {
      // a busy or read-only database: each session is still repaired when its next run starts
    }
  }
  const journal = new LeftoverJournal(dataDir);
  setLeftoverRecorder(journal);
  return journal;
}

/** Closes the journal at a clean exit; the tools report to nobody afterwards if it was theirs. */
export function stopLeftoverJournal(journal: LeftoverJournal): void {
  journal.close();
  if (leftovers() === journal) setLeftoverRecorder(undefined);
}

/**
 * Removes what opencode processes that are gone left in this project (their journals in
 * `<dataDir>/state/`) and shell state directories in `tmpdir` whose process is gone. Never throws.
 */
export function cleanLeftovers(dataDir: string, tempDir: string = tmpdir()): LeftoverCleanup {
  const result: LeftoverCleanup = { removedTempFiles: [], removedStateDirs: [], endedGroups: [], othersRunning: 0 };
  const dir = join(dataDir, JOURNAL_DIR);
  for (const name of listDir(dir)) {
    const file = join(dir, name);
    if (name.endsWith('.json.tmp')) {
      if (!processRunning({ pid: Number(/^run-(\d+)/.exec(name)?.[1]), startTicks: null })) removeQuietly(file);
      continue;
    }
    if (!/^run-\d+\.json$/.test(name)) continue;
    const journal = readJournal(file);
    if (!journal) {
      removeQuietly(file);
      continue;
    }
    if (journal.process.pid === process.pid) continue;
    if (processRunning(journal.process)) {
      result.othersRunning++;
      continue;
    }
    for (const path of journal.tempFiles) if (removeTempFile(path)) result.removedTempFiles.push(path);
    for (const path of journal.stateDirs) if (removeStateDir(path)) result.removedStateDirs.push(path);
    for (const group of journal.groups) if (endGroup(group)) result.endedGroups.push(group.pid);
    const started = typeof journal.startedAtMs === 'number' ? journal.startedAtMs : 0;
    result.crashedSinceMs = Math.min(result.crashedSinceMs ?? started, started);
    removeQuietly(file);
  }
  // state directories are named after their process: also those of crashes in other projects
  // one pattern for the whole folder ($TMPDIR may hold thousands of entries: one RegExp each cost ~1 µs)
  const stateDirName = new RegExp(`^${STATE_DIR_PREFIX}(\\d+)-`);
  for (const name of listDir(tempDir)) {
    const pid = name.startsWith(STATE_DIR_PREFIX) ? stateDirName.exec(name)?.[1] : undefined;
    if (!pid || Number(pid) === process.pid || pidExists(Number(pid))) continue;
    const path = join(tempDir, name);
    if (!result.removedStateDirs.includes(path) && removeStateDir(path)) result.removedStateDirs.push(path);
  }
  return result;
}

/**
 * Repairs every session changed since `sinceMs` (unix ms: when the killed process started) that it
 * left mid-turn (`repairInterruptedTurns`: a call cut off is stored as interrupted, not canceled),
 * so it reads right when it is opened. Call it only when no other opencode process runs in the
 * project ({@link LeftoverCleanup.othersRunning} is 0): a live process's turn in progress looks the
 * same. Returns the number of sessions repaired.
 */
export function repairCrashedSessions(db: Database, sinceMs: number): number {
  let repaired = 0;
  for (const sessionId of sessionsWithInterruptedTurns(db.connection, sinceMs)) {
    if (repairInterruptedTurns(db, sessionId) > 0) repaired++;
  }
  return repaired;
}

/**
 * Ends (SIGKILL) the process group led by `leader` if it is still ours; returns whether it did.
 * See the module doc for how "ours" is decided.
 */
function endGroup(leader: ProcessIdentity): boolean {
  if (leader.startTicks === null || !groupExists(leader.pid)) return false;
  const leaderTicks = processStartTicks(leader.pid);
  let ours: boolean;
  if (leaderTicks !== null) {
    ours = leaderTicks === leader.startTicks;
  } else {
    // the leader is gone; members of its group, all started after it, remain
    const members = groupMembers(leader.pid);
    ours = members.length > 0 && members.every((m) => BigInt(m.startTicks) >= BigInt(leader.startTicks!));
  }
  if (!ours) return false;
  try {
    process.kill(-leader.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** Live (non-zombie) processes whose process group is `pgid`, from /proc. */
function groupMembers(pgid: number): { pid: number; startTicks: string }[] {
  const members: { pid: number; startTicks: string }[] = [];
  for (const name of listDir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStatFields(Number(name));
    if (fields && fields.state !== 'Z' && fields.pgrp === pgid)
      members.push({ pid: Number(name), startTicks: fields.startTicks });
  }
  return members;
}

/** Whether a non-zombie member of the group exists (zombies count as gone where /proc tells). */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    readdirSync('/proc');
  } catch {
    return true; // no /proc: the signal check is all there is
  }
  return processStartTicks(pgid) !== null || groupMembers(pgid).length > 0;
}

function readJournal(file: string): RunJournal | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as RunJournal;
    if (
      typeof data?.process?.pid !== 'number' ||
      !Array.isArray(data.tempFiles) ||
      !Array.isArray(data.stateDirs) ||
      !Array.isArray(data.groups)
    ) {
      return undefined;
    }
    return data;
  } catch {
    return undefined;
  }
}

/** Removes a journaled temp file if it is one (by name) and a regular file. */
function removeTempFile(path: string): boolean {
  if (!TEMP_FILE_NAME.test(basename(path))) return false;
  try {
    if (!lstatSync(path).isFile()) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes a shell state directory if it is one (by name) and a real directory. */
function removeStateDir(path: string): boolean {
  if (!basename(path).startsWith(STATE_DIR_PREFIX)) return false;
  try {
    const stats = lstatSync(path);
    // another account's directory in a shared /tmp is not ours to judge
    if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid())) return false;
    rmSync(path, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
