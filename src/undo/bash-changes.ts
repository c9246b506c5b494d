/**
 * Undo of what `bash` (and custom or MCP tools that run programs) changed: the
 * {@link ChangeTracker} the app gives the coder. Each tracked call runs between two snapshots of the
 * project (`snapshot.ts`); every path that differs becomes a turn change (`turn_changes`, the same
 * rows `edit`, `write` and `patch` write), so undo, redo and their conflict checks work unchanged. A
 * path the turn already recorded keeps its first `before` and gets the latest `after`.
 *
 * When the changes cannot be recorded, the call still runs, and its result's metadata says why
 * ({@link UNTRACKED_CHANGES}); undo repeats that. The choices, and why:
 *
 * - The project's first snapshot (every file hashed: 20 s to 3 min for 27,000 files on a loaded 2-core
 *   machine, once per project — the repository's index persists; stopped when the app closes, the
 *   next start goes on from the objects already written) starts in the background when the app's
 *   first run starts ({@link BashChangeTracker.start}; the model's first reply comes meanwhile). A call that comes while it runs waits for it up to
 *   {@link TrackerTimings.firstSnapshotWaitMs}, then runs untracked rather than keep the person
 *   waiting: snapshotting while the command runs would mix before and after.
 * - Later snapshots look only at files whose size or time changed (0.3 to 0.6 s for 27,000 files
 *   on a loaded 2-core machine; a bash call takes two). One that takes longer than
 *   {@link TrackerTimings.snapshotTimeoutMs} is stopped, the call runs untracked, and so do the
 *   run's later calls (each would wait as long again).
 * - A permission the person took a while to answer retakes the before-snapshot: what they changed
 *   meanwhile is theirs, not the call's. What changes in the project while the call runs (a person
 *   saving a file) is taken for the call's.
 * - git missing, or a project beyond `SNAPSHOT_LIMITS` at the first snapshot: nothing is snapshotted
 *   for the rest of the run. Beyond the limits later (a call made 3 GiB of files): that call, and
 *   each later one while it stays so, runs untracked, after a quick check.
 * - A call whose changes add up to more than `maxChangeBytes` is not recorded at all (named).
 * - Files outside the project (after a `cd ..`), files `.gitignore` ignores, files in a folder that
 *   is a git repository of its own and files over the size limit are not put back; the last are named.
 *   Symbolic links are recorded as links (their target text), names that are not UTF-8 as raw bytes,
 *   a file over `maxInlineBytes` as its blob in the snapshot repository (not copied).
 * - Modes are exact (all of 0o7777, `chmod 600` alone too): see `snapshot-modes.ts`.
 */
import { join } from 'node:path';
import type { FileSnapshot, RecordedWrite } from '../db/turn-changes.js';
import { UNTRACKED_CHANGES, type ChangeTracker } from '../tools/change-tracker.js';
import type { ToolContext, ToolResult } from '../tools/tool.js';
import { ProjectCallLock } from './call-lock.js';
import { PendingCalls } from './pending-calls.js';
import { GitError } from './snapshot-git.js';
import { lstatRaw } from './snapshot-modes.js';
import {
  formatBytes,
  ProjectSnapshots,
  SnapshotLimitError,
  type Snapshot,
  type SnapshotChange,
  type SnapshotFile,
} from './snapshot.js';

/** How long the tracker waits, in ms. */
export interface TrackerTimings {
  /** a call waits this long for the project's first snapshot, then runs untracked */
  firstSnapshotWaitMs: number;
  /** the first snapshot is stopped after this long (the project counts as too big for the run) */
  firstSnapshotTimeoutMs: number;
  /** a later snapshot is stopped after this long (that call runs untracked) */
  snapshotTimeoutMs: number;
  /** a permission answered after this long retakes the before-snapshot */
  retakeAfterPermissionMs: number;
  /** a call waits this long for another opencode's call in the project to end (`call-lock.ts`), then runs untracked */
  otherCallWaitMs: number;
}

export const TRACKER_TIMINGS: TrackerTimings = {
  firstSnapshotWaitMs: 5_000,
  firstSnapshotTimeoutMs: 10 * 60_000,
  snapshotTimeoutMs: 20_000,
  retakeAfterPermissionMs: 1_000,
  otherCallWaitMs: 10_000,
};

/** Why a call overlapping another process's call is not tracked (the end of `… are not tracked: …`). */
export const OTHER_CALL =
  "another opencode in this project was running a command at the same time, so its changes and this one's cannot be told apart";

export interface BashChangeTrackerOptions {
  snapshots: ProjectSnapshots;
  /** the project directory (absolute): recorded paths are inside it */
  cwd: string;
  /** stores one path's change (`TurnChangeStore.record`); may throw (a full disk): the call goes on */
  record: (write: RecordedWrite) => void;
  timings?: Partial<TrackerTimings>;
}

type Taken = { snapshot: Snapshot } | { reason: string };

/** See the module comment. */
export class BashChangeTracker implements ChangeTracker {
  private readonly timings: TrackerTimings;
  /** why nothing is snapshotted any more in this run (git missing, project too big) */
  private disabled: string | undefined;
  private first: Promise<void> | undefined;
  private firstDone = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** one tracked call at a time in the project, across processes */
  private readonly lock: ProjectCallLock;
  /** the before-snapshots of calls running now, on disk */
  private readonly pending: PendingCalls;

  constructor(private readonly options: BashChangeTrackerOptions) {
    this.timings = { ...TRACKER_TIMINGS, ...options.timings };
    this.lock = new ProjectCallLock(options.snapshots.gitDir);
    this.pending = new PendingCalls(options.snapshots.gitDir);
  }

  /** Starts the project's first snapshot in the background (again a no-op). */
  start(): void {
    this.first ??= this.enqueue(() =>
      this.options.snapshots.take({ timeoutMs: this.timings.firstSnapshotTimeoutMs }),
    ).then(
      () => {
        this.firstDone = true;
        this.options.snapshots.pruneNow();
      },
      (err: unknown) => {
        // another process's snapshot holding the index, a failure: later calls try again
        const lasting =
          err instanceof SnapshotLimitError ||
          (err instanceof GitError && (err.kind === 'missing' || err.kind === 'timeout'));
        if (lasting) this.disabled = reasonOf(err, true);
        this.firstDone = true;
      },
    );
  }

  /** Resolves when the project's first snapshot is in (or failed); starts it if need be. Never rejects. */
  firstSnapshot(): Promise<void> {
    this.start();
    return this.first!;
  }

  /** Stops running git processes (see `ProjectSnapshots.close`). */
  close(): void {
    this.options.snapshots.close();
  }

  async around(tool: string, ctx: ToolContext, run: (ctx: ToolContext) => Promise<ToolResult>): Promise<ToolResult> {
    // tracking is off for the run: no snapshot, so another process's calls are no concern
    if (this.disabled) return this.aroundLocked(tool, ctx, run, false);
    let locked: boolean;
    try {
      locked = await this.lock.acquire(this.timings.otherCallWaitMs, ctx.signal);
    } catch (err) {
      // the data folder cannot be written: neither can a snapshot
      const result = await run(ctx);
      if (result.permissionDenied || result.outcome === 'validation') return result;
      return withUntracked(result, [`files changed by ${tool} are not tracked: ${reasonOf(err, false)}`]);
    }
    try {
      return await this.aroundLocked(tool, ctx, run, locked);
    } finally {
      if (locked) this.lock.release();
    }
  }

  /** {@link around} once the lock is decided: without it (`locked` false) the call runs untracked and marked. */
  private async aroundLocked(
    tool: string,
    ctx: ToolContext,
    run: (ctx: ToolContext) => Promise<ToolResult>,
    locked: boolean,
  ): Promise<ToolResult> {
    let holding = locked;
    let unmark = holding || this.disabled ? undefined : this.lock.markUnlocked();
    let before: Taken = holding ? await this.before(ctx.signal) : { reason: this.disabled ?? OTHER_CALL };
    const askPermission: ToolContext['askPermission'] = async (request, subject) => {
      const asked = Date.now();
      // the person may take minutes: another opencode's calls run meanwhile (their changes are not
      // ours; the before-snapshot is retaken below)
      const counter = this.lock.counter();
      if (holding) this.lock.release();
      let grant: Awaited<ReturnType<ToolContext['askPermission']>>;
      try {
        grant = await ctx.askPermission(request, subject);
      } finally {
        if (holding && !(await this.lock.acquire(this.timings.otherCallWaitMs, ctx.signal, true))) {
          holding = false;
          unmark = this.lock.markUnlocked();
          before = { reason: OTHER_CALL };
        }
      }
      const othersRan = holding && this.lock.counter() !== counter + 1;
      if ('snapshot' in before && (othersRan || Date.now() - asked >= this.timings.retakeAfterPermissionMs))
        before = await this.take(ctx.signal);
      return grant;
    };
    let result: ToolResult;
    // a before-snapshot on disk while the call runs: a process killed meanwhile leaves it for the next
    // run, which records what the call changed (`recoverInterrupted`)
    const pending = 'snapshot' in before ? this.pending.write(ctx, tool, before.snapshot) : undefined;
    try {
      result = await run({ ...ctx, askPermission });
    } catch (err) {
      pending?.remove();
      throw err;
    } finally {
      unmark?.();
    }
    try {
      return await this.afterCall(tool, ctx, result, before);
    } finally {
      // recorded (or known not to be): nothing left for a later run
      pending?.remove();
    }
  }

  /** The second half of {@link aroundLocked}: the after-snapshot, and the changes recorded. */
  private async afterCall(tool: string, ctx: ToolContext, result: ToolResult, before: Taken): Promise<ToolResult> {
    // nothing ran
    if (result.permissionDenied || result.outcome === 'validation') return result;
    if (!('snapshot' in before))
      return withUntracked(result, [`files changed by ${tool} are not tracked: ${before.reason}`]);
    // canceled or not, the command may have changed files: the after-snapshot is taken without the signal
    const after = await this.take(undefined);
    if (!('snapshot' in after))
      return withUntracked(result, [`files changed by ${tool} are not tracked: ${after.reason}`]);
    // a call of another process ran meanwhile without the lock: its changes would be taken for ours
    if (this.lock.overlapped())
      return withUntracked(result, [`files changed by ${tool} are not tracked: ${OTHER_CALL}`]);
    let changes: SnapshotChange[];
    try {
      changes = await this.options.snapshots.diff(before.snapshot, after.snapshot, {
        timeoutMs: this.timings.snapshotTimeoutMs,
      });
    } catch (err) {
      return withUntracked(result, [`files changed by ${tool} are not tracked: ${reasonOf(err, false)}`]);
    }
    const notes = this.record(tool, ctx, before.snapshot, after.snapshot, changes);
    return notes.length ? withUntracked(result, notes) : result;
  }

  /** The before-snapshot, or why there is none. */
  private async before(signal: AbortSignal): Promise<Taken> {
    this.start();
    if (!this.firstDone) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.first,
        new Promise((resolve) => {
          timer = setTimeout(resolve, this.timings.firstSnapshotWaitMs);
          signal.addEventListener('abort', resolve, { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (!this.firstDone) return { reason: 'the first snapshot of the project was still being taken' };
    }
    const taken = await this.take(signal);
    if ('snapshot' in taken) await this.recoverInterrupted(taken.snapshot);
    return taken;
  }

  /**
   * Records what calls of killed processes changed (their before-snapshot to `now`) into their own
   * turns: `kill -9` in the middle of a bash call left no after-snapshot. What changed in the project
   * between the kill and now counts as that call's.
   */
  private async recoverInterrupted(now: Snapshot): Promise<void> {
    for (const left of this.pending.orphans()) {
      try {
        const changes = await this.options.snapshots.diff(left.snapshot, now, {
          timeoutMs: this.timings.snapshotTimeoutMs,
        });
        this.record(left.tool, left, left.snapshot, now, changes);
      } catch {
        // its snapshot is gone (a renewed repository): nothing to recover
      }
      left.remove();
    }
  }

  private async take(signal: AbortSignal | undefined): Promise<Taken> {
    if (this.disabled) return { reason: this.disabled };
    try {
      const snapshot = await this.enqueue(() =>
        this.options.snapshots.take({ timeoutMs: this.timings.snapshotTimeoutMs, signal }),
      );
      return { snapshot };
    } catch (err) {
      // git missing stays missing; a snapshot that took too long (a bash call added 50,000 files)
      // would make every later call wait as long again: both end tracking for the run
      if (err instanceof GitError && (err.kind === 'missing' || err.kind === 'timeout'))
        this.disabled = reasonOf(err, false, this.timings);
      return { reason: reasonOf(err, false, this.timings) };
    }
  }

  /** Records the changes as turn changes; returns what could not be recorded, in words. */
  private record(
    tool: string,
    ctx: Pick<ToolContext, 'sessionId' | 'messageId'>,
    before: Snapshot,
    after: Snapshot,
    changes: SnapshotChange[],
  ): string[] {
    const notes = new Set<string>();
    const tooLarge = `larger than ${formatBytes(this.options.snapshots.limits.maxFileBytes)}`;
    // a big file's change is not in the trees: its fingerprint changed
    for (const path of new Set([...before.tooLarge.keys(), ...after.tooLarge.keys()])) {
      if (before.tooLarge.get(path) !== after.tooLarge.get(path))
        notes.add(`${path} changed by ${tool} is not tracked: ${tooLarge}`);
    }
    const root = Buffer.from(`${this.options.cwd}/`);
    const repo = this.options.snapshots.gitDir;
    for (const change of changes) {
      const { path } = change;
      if (before.tooLarge.has(path) || after.tooLarge.has(path)) {
        notes.add(`${path} changed by ${tool} is not tracked: ${tooLarge}`);
        continue;
      }
      const modes = [change.before?.gitMode, change.after?.gitMode];
      if (modes.includes('160000')) continue; // a folder with its own repository
      // "created" but unchanged since before the call began: it was there, ignored (the call edited or
      // removed a .gitignore). Recorded as created, undo would delete the person's file.
      if (
        change.before === null &&
        change.after !== null &&
        existedBefore(Buffer.concat([root, change.raw]), before.takenAtMs)
      )
        continue;
      try {
        this.options.record({
          sessionId: ctx.sessionId,
          messageId: ctx.messageId,
          path: join(this.options.cwd, path),
          ...(change.notUtf8 ? { pathBytes: Buffer.concat([root, change.raw]) } : {}),
          before: stateOf(change.before, repo),
          after: stateOf(change.after, repo),
        });
      } catch (err) {
        notes.add(`files changed by ${tool} are not tracked: saving them failed (${(err as Error).message})`);
      }
    }
    return [...notes];
  }

  /** Runs snapshot work one at a time (one index). */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }
}

/**
 * Margin for file times: the kernel stamps a file with a coarse clock (a few ms behind `Date.now()`),
 * and a file written a moment before the call is not told apart from one written by it.
 */
const CLOCK_SLACK_MS = 2_000;

/**
 * Whether the file at `path` (raw) was last changed (its ctime: any write, chmod, rename; a program
 * cannot set it back) well before `sinceMs`: it was there before the call. A file that is gone or
 * unreadable counts as made by the call.
 */
function existedBefore(path: Buffer, sinceMs: number): boolean {
  const stats = lstatRaw(path);
  return stats !== undefined && stats.ctimeMs < sinceMs - CLOCK_SLACK_MS;
}

/** A snapshot's file as a turn change's state: a link as the link itself, a large file as its blob. */
function stateOf(file: SnapshotFile | null, repo: string): FileSnapshot | null {
  if (file === null) return null;
  if (file.gitMode === '120000')
    return { bytes: file.bytes, mode: 0o777, linkTarget: file.bytes.toString('utf8'), symlink: true };
  if (file.blob) return { bytes: Buffer.alloc(0), mode: file.mode, blob: { repo, ...file.blob } };
  return { bytes: file.bytes, mode: file.mode };
}

/** Why a snapshot failed, as the end of `files changed by bash are not tracked: …`. */
function reasonOf(err: unknown, first: boolean, timings: TrackerTimings = TRACKER_TIMINGS): string {
  if (err instanceof SnapshotLimitError) return err.message;
  if (err instanceof GitError) {
    if (err.kind === 'missing') return 'git not found';
    if (err.kind === 'aborted') return 'the call was canceled while the snapshot was taken';
    if (err.kind === 'timeout')
      return first
        ? "the project's first snapshot took too long"
        : `taking a snapshot took longer than ${timings.snapshotTimeoutMs / 1000} s`;
    if (err.kind === 'locked') return err.message;
  }
  return `taking a snapshot failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** `result` with `reasons` added to its metadata's {@link UNTRACKED_CHANGES}. */
function withUntracked(result: ToolResult, reasons: string[]): ToolResult {
  const had = (result.metadata?.[UNTRACKED_CHANGES] as string[] | undefined) ?? [];
  return { ...result, metadata: { ...result.metadata, [UNTRACKED_CHANGES]: [...had, ...reasons] } };
}

/**
 * The tracker of one project. Nothing runs until {@link BashChangeTracker.start} (the app calls it when
 * a run starts: a process that never prompts — `opencode stats`, a TUI opened and closed — spawns no
 * git, and the first frame never waits for one). `dataDir` is the project's data directory.
 */
export function createBashChangeTracker(
  cwd: string,
  dataDir: string,
  record: (write: RecordedWrite) => void,
): BashChangeTracker {
  return new BashChangeTracker({ snapshots: new ProjectSnapshots({ cwd, dataDir }), cwd, record });
}
