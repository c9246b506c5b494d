/**
 * The stall clocks of one {@link nodeFetch} exchange (stall.ts semantics) on a single timer.
 *
 * - first byte: from sending the request until the first byte of the body (or the end of a body that
 *   has none); the response headers alone do not stop it;
 * - idle: once the body flows, how long the reader has been waiting for a chunk with none queued (a slow
 *   reader never trips it).
 *
 * Why one timer: a streamed reply comes in many small chunks, and arming a timer for every read (and
 * clearing it on every chunk) cost a `setTimeout` / `clearTimeout` pair per chunk. Here a
 * wait only notes when it began; the timer, armed once, checks that note when it fires and is armed
 * again for the rest of the limit if the reader has not waited long enough. It is re-armed early only
 * when a wait begins and the armed timer would fire after the wait's limit. Either limit is checked
 * against the clock when the timer fires (a Node timer can fire a little early), so it is never
 * reached early, and is reached as late as Node's timers allow (as before).
 *
 * [nodeFetch]: ./node-fetch.ts
 */
import { performance } from 'node:perf_hooks';
import { ProviderStallError, type StallTimeouts } from './stall.js';

/** What the response body tells the clock (node-fetch-body.ts). */
export interface BodyClock {
  /** the first byte of the body arrived, or the body ended empty: the first-byte clock stops, the idle clock may start */
  firstByte(): void;
  /** the reader waits for a chunk and none is queued */
  waitStarted(): void;
  /** the wait ended (a chunk, the end, a failure) */
  waitEnded(): void;
}

/** Who is told when a limit is reached: the exchange, which fails the request or its body with the error. */
export interface StallListener {
  stalled(error: ProviderStallError): void;
}

/** The two clocks of one exchange; `listener` is told once a limit is reached. */
export class StallClock implements BodyClock {
  private timer: NodeJS.Timeout | undefined;
  /** when the armed timer fires (`performance.now()` ms); Infinity when none is armed */
  private dueAtMs = Infinity;
  private phase: 'first-byte' | 'idle' | 'stopped' = 'first-byte';
  /** when the current wait began (`performance.now()` ms), or -1 when the reader is not waiting */
  private waitingSinceMs = -1;
  /** when the request was sent (`performance.now()` ms): the first-byte limit counts from it */
  private startedAtMs = 0;

  constructor(
    private readonly timeouts: StallTimeouts,
    private readonly listener: StallListener,
  ) {}

  /** Starts the first-byte clock (call as the request is sent). */
  start(): void {
    this.startedAtMs = performance.now();
    if (this.timeouts.firstByteTimeoutMs > 0) this.arm(this.timeouts.firstByteTimeoutMs);
  }

  firstByte(): void {
    if (this.phase !== 'first-byte') return;
    this.phase = 'idle';
    // the armed timer (for the first-byte limit) stays: when it fires it checks the wait, if any
    if (this.timeouts.idleTimeoutMs <= 0) this.disarm();
  }

  waitStarted(): void {
    const limitMs = this.timeouts.idleTimeoutMs;
    if (this.phase !== 'idle' || limitMs <= 0) return;
    const now = performance.now();
    this.waitingSinceMs = now;
    if (this.dueAtMs > now + limitMs) this.arm(limitMs);
  }

  waitEnded(): void {
    this.waitingSinceMs = -1;
  }

  /** Stops both clocks for good (the exchange is over). */
  stop(): void {
    this.phase = 'stopped';
    this.disarm();
  }

  /** The timer fired (see the module comment). */
  fire(): void {
    this.timer = undefined;
    this.dueAtMs = Infinity;
    if (this.phase === 'first-byte') {
      // a Node timer can fire up to a millisecond early (libuv counts from its cached loop time): armed
      // again for the rest, as the idle clock is, so the limit is never reached early
      const leftMs = this.startedAtMs + this.timeouts.firstByteTimeoutMs - performance.now();
      if (leftMs > 0) return this.arm(leftMs);
      this.phase = 'stopped';
      this.listener.stalled(new ProviderStallError('first-byte', this.timeouts.firstByteTimeoutMs));
      return;
    }
    // idle: not waiting now leaves the timer off until the next wait arms it
    if (this.phase !== 'idle' || this.waitingSinceMs < 0) return;
    const limitMs = this.timeouts.idleTimeoutMs;
    const leftMs = this.waitingSinceMs + limitMs - performance.now();
    if (leftMs > 0) return this.arm(leftMs);
    this.phase = 'stopped';
    this.listener.stalled(new ProviderStallError('idle', limitMs));
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(fire, ms, this);
    this.dueAtMs = performance.now() + ms;
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAtMs = Infinity;
  }
}

/** The timer callback: one function for every clock (no closure per exchange). */
function fire(clock: StallClock): void {
  clock.fire();
}
