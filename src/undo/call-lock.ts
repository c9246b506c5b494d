/**
 * One tracked call at a time per project, across processes. Two opencode processes in one
 * project (two `-p` runs, a TUI and a script) each snapshot before and after their own `bash` calls;
 * when the calls overlap in time, each one's after-snapshot holds the other's changes, and an undo of
 * one session would silently take back the other's work. So a tracked call holds this lock from its
 * before-snapshot to its after-snapshot (not while a permission dialog waits for the person).
 *
 * A call that cannot get the lock within its wait (another process's command runs long) runs anyway,
 * untracked, and says so; while it runs it leaves a mark (`opencode-unlocked-<token>`, and the time it
 * last ran in `opencode-unlocked`), so the holder, at its end, records nothing either: neither session
 * gets the other's changes. A lock whose process is gone (killed) is taken over.
 *
 * Files, all in the snapshot repository's git directory: `opencode-call.lock` (`<pid> <token> <hold>`),
 * `opencode-calls` (a counter bumped at each acquire: "did anyone run since?"), `opencode-unlocked`
 * and `opencode-unlocked-<token>`.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processRunning } from '../process-identity.js';

/** How often a waiting call looks at the lock again, in ms. */
const POLL_MS = 50;

/** The cross-process lock of one project's tracked calls. See the module comment. */
export class ProjectCallLock {
  /** this holder's name in the lock file (one per {@link ProjectCallLock}, so two in a process exclude each other too) */
  private readonly token = `${process.pid} ${randomBytes(6).toString('hex')}`;
  /** calls of this holder running now (calls of one process share its lock: they are one session's) */
  private held = 0;
  /** when this holder got the lock (ms since the epoch) */
  private since = 0;
  /** holds so far, and what this holder wrote into the lock file for the current one */
  private holds = 0;
  private written = '';
  /** the other holder seen at the last failed try (`<pid> <token>`) */
  private holder = '';
  /** the other holder whose call outlasted our last wait */
  private gaveUpOn = '';

  constructor(private readonly dir: string) {}

  private get lockFile(): string {
    return join(this.dir, 'opencode-call.lock');
  }

  /**
   * Takes the lock, waiting up to `waitMs` while another live process holds it. Resolves true when
   * held (then call {@link release}), false when the wait ran out or `signal` fired. `resume`: the
   * same call taking it back (after a permission dialog): {@link overlapped} still looks back to the
   * call's first acquire. A holder whose call already outlasted one wait is not waited for again.
   */
  async acquire(waitMs: number, signal?: AbortSignal, resume = false): Promise<boolean> {
    if (this.held > 0) {
      this.held++;
      return true;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const until = Date.now() + waitMs;
    for (;;) {
      if (this.tryTake()) {
        this.held = 1;
        if (!resume) this.since = Date.now();
        this.bumpCounter();
        return true;
      }
      // the same long call we gave up waiting for (a test suite run by the other process): no second wait
      if (this.holder !== '' && this.holder === this.gaveUpOn) return false;
      if (Date.now() >= until || signal?.aborted) {
        this.gaveUpOn = this.holder;
        return false;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Lets the lock go (after the last of this holder's calls). */
  release(): void {
    if (this.held === 0) return;
    if (--this.held > 0) return;
    try {
      if (readFileSync(this.lockFile, 'utf8') === this.written) rmSync(this.lockFile, { force: true });
    } catch {
      // already gone
    }
  }

  /** The counter of acquires by anyone; compare two readings to know whether another call ran in between. */
  counter(): number {
    try {
      return Number(readFileSync(join(this.dir, 'opencode-calls'), 'utf8')) || 0;
    } catch {
      return 0;
    }
  }

  /**
   * Marks a call running without the lock; returns the function that ends the mark (call it when the
   * call ended). The holder then finds {@link overlapped}.
   */
  markUnlocked(): () => void {
    const running = join(this.dir, `opencode-unlocked-${this.token.replace(' ', '-')}`);
    const stamp = () => writeFileSync(join(this.dir, 'opencode-unlocked'), String(Date.now()));
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      stamp();
      writeFileSync(running, this.token);
    } catch {
      // a folder that cannot be written holds no lock either: nobody is tracking
    }
    return () => {
      try {
        stamp();
        rmSync(running, { force: true });
      } catch {
        // as above
      }
    };
  }

  /** Whether a call ran without the lock while this holder held it (its changes may be in ours). */
  overlapped(): boolean {
    try {
      if (Number(readFileSync(join(this.dir, 'opencode-unlocked'), 'utf8')) >= this.since) return true;
    } catch {
      // never
    }
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return false;
    }
    for (const name of names) {
      if (!name.startsWith('opencode-unlocked-')) continue;
      const pid = Number(name.split('-')[2]);
      if (alive(pid)) return true;
      rmSync(join(this.dir, name), { force: true });
    }
    return false;
  }

  /** Creates the lock file; removes one left by a process that is gone. */
  private tryTake(): boolean {
    try {
      const fd = openSync(this.lockFile, 'wx', 0o600);
      // each hold its own name: a waiter that gave up on one long call waits for the next one again
      this.written = `${this.token} ${++this.holds}`;
      try {
        writeSync(fd, this.written);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: string;
    try {
      holder = readFileSync(this.lockFile, 'utf8');
    } catch {
      return false; // released meanwhile: the next look takes it
    }
    this.holder = holder;
    // '' : created but not written yet, by a live process
    if (!holder || alive(Number(holder.split(' ')[0]))) return false;
    rmSync(this.lockFile, { force: true });
    // taken over at once (another waiter may win the race: then it holds it)
    return this.tryTake();
  }

  private bumpCounter(): void {
    try {
      writeFileSync(join(this.dir, 'opencode-calls'), String(this.counter() + 1));
    } catch {
      // the counter only makes a retake after a permission more likely
    }
  }
}

/** Whether a process with `pid` runs (a zombie counts as gone; process-identity.ts). */
const alive = (pid: number): boolean => processRunning({ pid, startTicks: null });
