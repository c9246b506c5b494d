/**
 * The before-snapshots of tracked calls running now, kept on disk: a process killed in the
 * middle of a `bash` call (`kill -9`, a closed terminal, a crash) never takes the after-snapshot, so
 * what the command changed would be out of reach of undo, silently. Each running call leaves
 * `opencode-pending-<pid>-<n>.json` in the snapshot repository's git directory (its session, message,
 * tool and before-snapshot); the call removes it once its after-snapshot is taken. The next tracked
 * call in the project (any process) finds those of processes that are gone
 * ({@link PendingCalls.orphans}) and records the difference from their before-snapshot into their own
 * turn (`bash-changes.ts`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processRunning, processStartTicks } from '../process-identity.js';
import type { Snapshot } from './snapshot.js';

/** A call's before-snapshot as left on disk. */
export interface PendingCall {
  sessionId: string;
  messageId: string;
  tool: string;
  snapshot: Snapshot;
  /** removes the file */
  remove(): void;
}

interface Stored {
  pid: number;
  /** the writer's start time (process-identity.ts): a reused pid is not taken for it; absent in older files */
  startTicks?: string | null;
  sessionId: string;
  messageId: string;
  tool: string;
  tree: string;
  takenAtMs?: number;
  /** [raw path as latin1, mode] */
  modes: [string, number][];
}

let counter = 0;

/** See the module comment. */
export class PendingCalls {
  constructor(private readonly dir: string) {}

  /** Leaves the call's before-snapshot on disk; undefined when it cannot be written (then nothing is recovered). */
  write(
    call: { sessionId: string; messageId: string },
    tool: string,
    snapshot: Snapshot,
  ): { remove(): void } | undefined {
    const file = join(this.dir, `opencode-pending-${process.pid}-${++counter}.json`);
    const stored: Stored = {
      pid: process.pid,
      startTicks: processStartTicks(process.pid),
      sessionId: call.sessionId,
      messageId: call.messageId,
      tool,
      tree: snapshot.tree,
      takenAtMs: snapshot.takenAtMs,
      modes: [...snapshot.modes],
    };
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, JSON.stringify(stored));
    } catch {
      return undefined;
    }
    return { remove: () => rmSync(file, { force: true }) };
  }

  /** The calls left by processes that are gone, oldest first. A file that cannot be read is removed. */
  orphans(): PendingCall[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => /^opencode-pending-\d+-\d+\.json$/.test(n));
    } catch {
      return [];
    }
    const found: PendingCall[] = [];
    for (const name of names.sort()) {
      const file = join(this.dir, name);
      const remove = () => rmSync(file, { force: true });
      let stored: Stored;
      try {
        stored = JSON.parse(readFileSync(file, 'utf8')) as Stored;
      } catch {
        // half-written by a killed process: nothing to go on
        remove();
        continue;
      }
      if (processRunning({ pid: stored.pid, startTicks: stored.startTicks ?? null })) continue;
      found.push({
        sessionId: stored.sessionId,
        messageId: stored.messageId,
        tool: stored.tool,
        snapshot: {
          tree: stored.tree,
          modes: new Map(stored.modes),
          tooLarge: new Map(),
          takenAtMs: stored.takenAtMs ?? 0,
        },
        remove,
      });
    }
    return found;
  }
}
