/**
 * The one place terminal input enters the TUI. It reads Ink's raw input events, cuts out bracketed
 * pastes (`ESC [200~ … ESC [201~`, xterm ctlseqs) so a paste arrives whole and never as key presses,
 * takes a burst of lines without those markers as a paste too (paste-burst.ts), and hands each key
 * to the registered handlers, topmost layer first.
 *
 * Components do not call Ink's `useInput` (it would see pasted text as typing); they call
 * {@link useKeys} and {@link usePaste}.
 */
import { useStdin } from 'ink';
import React, { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { parseKey, type Key } from './keys.js';
import {
  BURST_GAP_MS,
  classifyBurst,
  isTypedLine,
  PASTE_FOLLOW_MS,
  splitInputEvents,
  startsBurst,
} from './paste-burst.js';

/** Returns true when it handled the key (lower handlers then don't see it). */
export type KeyHandler = (key: Key) => boolean | void;

/**
 * What a handler whose content is still loading (a list asked of a server, files being listed) does
 * with a key that reaches it (see {@link useKeys}'s `loading`):
 * - `wait`: the key needs the content (↓, enter on a list): the router holds it, and every key after
 *   it, whoever they are for, until the content is there, then hands them over in order, one per
 *   turn of the event loop, as if typed then;
 * - `now`: the key acts at once (esc closes the dialog): handled now; keys held before it are dropped,
 *   since what they were for is being closed or covered;
 * - `pass`: the key is not the handler's to hold (a letter that the editor under a popup types):
 *   handled as usual, unless keys are already held: then it waits behind them.
 */
export type WhileLoading = 'wait' | 'now' | 'pass';

/** Handler layers, highest first. */
export const LAYER = {
  /** a modal dialog: it gets every key first and should return true for all of them */
  dialog: 300,
  /** a popup inside the chat page, e.g. `@` completion */
  popup: 200,
  /** global bindings: ctrl+c, ctrl+s, … */
  global: 100,
  /** the page (message list scrolling) */
  page: 50,
  /** the editor: whatever is left */
  editor: 0,
} as const;

interface Registration {
  layer: number;
  order: number;
  handler: { current: KeyHandler };
  /** set while the handler's content loads: how it treats each key meanwhile */
  loading?: { current: ((key: Key) => WhileLoading) | undefined };
}

interface PasteRegistration {
  layer: number;
  order: number;
  handler: { current: (text: string) => void };
}

/**
 * An input event waiting in the router's queue: a raw sequence, a burst decided to be a paste, or a
 * key held for content that was loading (already parsed).
 */
type Queued = string | { paste: string } | { key: Key };

/** Keys (and pastes) held for a handler whose content loads; see {@link WhileLoading}. */
interface Held {
  /** the registration whose loading content they wait for */
  owner: Registration;
  items: Queued[];
}

/** A burst being held (paste-burst.ts): its events so far. */
interface Burst {
  events: string[];
  /** it started soon after a paste ended */
  afterPaste: boolean;
  /** bumped by every event; the end-of-burst check sees whether one came meanwhile */
  generation: number;
  timer?: NodeJS.Timeout;
}

/** Routes keys and pastes; made by {@link InputProvider}. Exported for tests of the router itself. */
export class InputRouter {
  private readonly keyHandlers = new Set<Registration>();
  private readonly pasteHandlers = new Set<PasteRegistration>();
  private order = 0;
  private paste: string[] | undefined;
  /** raw events not handled yet (see {@link input}) */
  private readonly queue: Queued[] = [];
  private draining = false;
  private pasteTimer: NodeJS.Timeout | undefined;
  /** between the bracketed-paste markers, as events arrive (the queue may not have reached them) */
  private bracketed = false;
  private burst: Burst | undefined;
  /** keys waiting for a handler's content to load (see {@link WhileLoading}) */
  private held: Held | undefined;
  private lastInputAt = -Infinity;
  private lastPasteAt = -Infinity;
  private keyAt = -Infinity;
  private previousKey: Key | undefined;
  /** event-loop lateness seen by the stall watch, ms in all; and its value when the last key came */
  private stalledMs = 0;
  private stalledAtKey = 0;
  private stallTimer: NodeJS.Timeout | undefined;
  /** a monotonic clock in ms; components read it through {@link useKeyClock} */
  readonly now: () => number;
  private readonly watchStalls: boolean;

  /**
   * `now`: a monotonic clock in ms (tests pass their own). With the real clock (no `now`) the router
   * also watches for stalls while someone types (see {@link typingGapMs}); with a test's clock it does
   * not, so the test's gaps are exact.
   */
  constructor(now?: () => number) {
    this.now = now ?? (() => performance.now());
    this.watchStalls = now === undefined;
  }

  /**
   * When the last key was delivered, on {@link now}'s clock (ms); `-Infinity` before the first key.
   * It is set after the handlers ran, so a handler reading it sees the key BEFORE the one it is
   * handling (the permission dialog uses that to tell typing that went on from a deliberate press).
   * Pastes are not key presses and do not set it.
   */
  get lastKeyAt(): number {
    return this.keyAt;
  }

  /** The last key delivered (read in a handler: the key before the one it handles); undefined before any. */
  get lastKey(): Key | undefined {
    return this.previousKey;
  }

  /**
   * The time since the last key as the person made it (ms): {@link now} − {@link lastKeyAt}, less the
   * time the app was too busy to read input meanwhile (a render, a burst of agent events: keys typed
   * then wait in the terminal and arrive late, so a brisk typist's next key would look like it came
   * after a pause). `Infinity` before the first key. Read in a key handler it is the gap before the
   * key being handled.
   */
  typingGapMs(): number {
    return this.now() - this.keyAt - (this.stalledMs - this.stalledAtKey);
  }

  /**
   * While keys come (until {@link STALL_WATCH_MS} after the last), a timer every
   * {@link STALL_TICK_MS} adds how late it fired to the stall total: a timer fires late exactly when
   * the event loop was blocked, and timers run before input is read in each turn of the loop, so the
   * stall is counted before the key that waited through it is handled.
   */
  private watchForStalls(): void {
    if (!this.watchStalls || this.stallTimer) return;
    const tick = (expected: number) => {
      this.stallTimer = setTimeout(() => {
        const now = this.now();
        const late = now - expected;
        if (late > STALL_NOISE_MS) this.stalledMs += late;
        if (now - this.keyAt < STALL_WATCH_MS) tick(now + STALL_TICK_MS);
        else this.stallTimer = undefined;
      }, STALL_TICK_MS);
      this.stallTimer.unref?.();
    };
    tick(this.now() + STALL_TICK_MS);
  }

  /**
   * Registers `handler` on `layer`; returns the function that removes it. `loading` (read at each
   * key) is set while the handler's content loads: see {@link WhileLoading}; {@link loaded} then
   * hands over the keys held meanwhile. Keys held for a handler that is removed are dropped: they
   * were for what it showed (a permission dialog that covers a loading list must not get them).
   */
  addKeyHandler(layer: number, handler: { current: KeyHandler }, loading?: Registration['loading']): () => void {
    const reg: Registration = { layer, order: this.order++, handler, ...(loading && { loading }) };
    this.keyHandlers.add(reg);
    return () => {
      this.keyHandlers.delete(reg);
      if (this.held?.owner === reg) this.held = undefined;
    };
  }

  /**
   * The content of the handler registered with `loading` is there: the keys held for it are handed
   * over again, in order, one per turn of the event loop (the first in the next turn, after the
   * render that showed the content), ahead of input that came since.
   */
  loaded(loading: NonNullable<Registration['loading']>): void {
    const held = this.held;
    if (!held || held.owner.loading !== loading) return;
    this.held = undefined;
    this.queue.unshift(...held.items);
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  /** Whether keys are being held for a handler whose content loads (read by tests). */
  get holding(): boolean {
    return this.held !== undefined;
  }

  addPasteHandler(layer: number, handler: { current: (text: string) => void }): () => void {
    const reg = { layer, order: this.order++, handler };
    this.pasteHandlers.add(reg);
    return () => this.pasteHandlers.delete(reg);
  }

  /**
   * One raw input event from Ink (a key sequence or a run of text). Events are handled in order, and
   * after each key that reached a handler the rest wait for the next turn of the event loop: a key
   * often changes what should get the next one (ctrl+k opens a dialog, the next Down belongs to it),
   * and React must render that change first. Keys that arrive in one read (a busy app, ssh, tmux)
   * are thus handled as if typed one by one.
   *
   * Input with a line break that may be part of a paste without markers is held first, as a burst,
   * until the reads stop (paste-burst.ts); then it is one paste, or keys as above.
   */
  input(sequence: string): void {
    const now = this.now();
    const sincePrevious = now - this.lastInputAt;
    this.lastInputAt = now;
    if (this.burst) {
      // an escape sequence is a key (an arrow, a function key, a paste marker), not pasted text:
      // the burst is decided before it
      if (!sequence.startsWith('\u001b')) {
        this.burst.events.push(sequence);
        this.armBurst();
        return;
      }
      this.endBurst();
    }
    if (sequence === PASTE_START) this.bracketed = true;
    else if (sequence === PASTE_END) this.bracketed = false;
    else if (!this.bracketed && startsBurst(sequence, sincePrevious)) {
      this.burst = { events: [sequence], afterPaste: now - this.lastPasteAt <= PASTE_FOLLOW_MS, generation: 0 };
      this.armBurst();
      return;
    }
    this.enqueue(sequence);
  }

  /**
   * The keys typed while the TUI loaded (held by the terminal meanwhile, src/tui/terminal.ts), handled
   * before any input read since. A prompt typed then with its Enter arrives as one run of text, since
   * the loading app read it late: it is typing whatever its length ({@link isTypedLine}), inserted and
   * sent. A paste the terminal marked, or text with a line break inside, is a paste as ever.
   */
  typedAhead(raw: string): void {
    for (const event of splitInputEvents(raw)) {
      if (!this.bracketed && !this.burst && !event.startsWith('\u001b') && isTypedLine(event)) this.enqueue(event);
      else this.input(event);
    }
  }

  private enqueue(...items: Queued[]): void {
    this.queue.push(...items);
    if (!this.draining) this.drain();
  }

  /**
   * (Re)starts the end-of-burst wait. When the timer fires, the check itself waits one more turn
   * (setImmediate): input already waiting in the terminal is read in between (Node's poll phase
   * comes after the timers), so a busy app that was slow to read does not cut a paste in two.
   */
  private armBurst(): void {
    const burst = this.burst!;
    const generation = ++burst.generation;
    clearTimeout(burst.timer);
    burst.timer = setTimeout(() => {
      setImmediate(() => {
        if (this.burst === burst && burst.generation === generation) this.endBurst();
      });
    }, BURST_GAP_MS);
    burst.timer.unref?.();
  }

  /** Decides the held burst: one paste, or its events as keys. */
  private endBurst(): void {
    const burst = this.burst;
    if (!burst) return;
    this.burst = undefined;
    clearTimeout(burst.timer);
    const text = burst.events.join('');
    if (classifyBurst(text, burst.afterPaste) === 'paste') {
      this.lastPasteAt = this.now();
      this.enqueue({ paste: text });
    } else {
      this.enqueue(...burst.events);
    }
  }

  private drain(): void {
    this.draining = true;
    while (this.queue.length) {
      if (this.process(this.queue.shift()!)) {
        // what arrives meanwhile (Ink emits one read's keys back to back) waits for the next turn.
        // setImmediate, not setTimeout(0): immediates run in the order they were queued, so the render
        // a key caused lands before the next key; a 1 ms timer could fire first on a busy machine and
        // hand that key to the layer below the dialog. Queued from a microtask: React 19 schedules the
        // render from a microtask of its own (ensureRootIsScheduled → Scheduler → setImmediate), which
        // runs first, so its immediate is ahead of ours. Queued at once, ours came first and the key
        // after ctrl+f or ctrl+k went to the editor under the dialog that was about to open.
        queueMicrotask(() => setImmediate(() => this.drain()));
        return;
      }
    }
    this.draining = false;
  }

  /** Handles one event; true when a key or paste was delivered to a handler (or held for one). */
  private process(item: Queued): boolean {
    if (typeof item !== 'string') {
      if ('key' in item) this.key(item.key);
      else this.deliverPaste(item.paste);
      return true;
    }
    let sequence = item;
    if (sequence === PASTE_START) {
      this.paste = [];
      this.armPasteTimeout();
      return false;
    }
    if (sequence === PASTE_END) {
      this.endPaste();
      return true;
    }
    if (this.paste) {
      this.paste.push(sequence);
      this.armPasteTimeout();
      return false;
    }
    if (sequence.length > 1 && !sequence.startsWith('\u001b')) {
      // several keys in one read: control characters are keys of their own (enter, backspace,
      // ctrl+c). Printable runs are typed text for the editor; while a dialog or popup has the keys,
      // a short run is separate presses (`aaa` in the permission dialog is three answers). A long
      // run stays text either way (a paste without bracketed paste).
      const splitPrintable = this.modalOpen();
      const parts = (sequence.match(KEY_RUNS) ?? []).flatMap((part) =>
        splitPrintable && part.length <= MAX_TYPED_RUN && !/[\u0000-\u001f\u007f]/.test(part) ? [...part] : [part],
      );
      if (parts.length > 1) {
        this.queue.unshift(...parts);
        return false;
      }
      sequence = parts[0] ?? sequence;
    }
    this.key(parseKey(sequence));
    return true;
  }

  private endPaste(): void {
    clearTimeout(this.pasteTimer);
    this.bracketed = false;
    const text = this.paste?.join('') ?? '';
    this.paste = undefined;
    this.deliverPaste(text);
  }

  /**
   * A paste whose end marker never comes (a terminal that dropped it) would swallow every later key:
   * after {@link PASTE_IDLE_MS} without input the paste is taken as ended.
   */
  private armPasteTimeout(): void {
    clearTimeout(this.pasteTimer);
    this.pasteTimer = setTimeout(() => this.endPaste(), PASTE_IDLE_MS);
    this.pasteTimer.unref?.();
  }

  /** A dialog or popup has registered for keys. */
  private modalOpen(): boolean {
    for (const reg of this.keyHandlers) if (reg.layer >= LAYER.popup) return true;
    return false;
  }

  /**
   * Delivers a key to the handlers, topmost layer first, latest registered first within a layer. A
   * handler whose content loads may have the key held instead ({@link WhileLoading}); a key handled
   * while others are held drops them.
   */
  key(k: Key): void {
    const at = this.now();
    const ordered = [...this.keyHandlers].sort((a, b) => b.layer - a.layer || b.order - a.order);
    for (const reg of ordered) {
      const whileLoading = reg.loading?.current?.(k);
      if (whileLoading === 'wait' || (whileLoading === 'pass' && this.held)) {
        // not delivered: the clock below stays at the last key that was acted on
        if (this.held) this.held.items.push({ key: k });
        else this.held = { owner: reg, items: [{ key: k }] };
        return;
      }
      if (whileLoading === 'now') this.held = undefined;
      try {
        if (reg.handler.current(k) === true) {
          // e.g. ctrl+c taken by the quit layer above a loading dialog: what was held is covered
          this.held = undefined;
          break;
        }
      } catch (err) {
        this.delivered(k, at);
        throw err;
      }
    }
    this.delivered(k, at);
  }

  /** Sets the clock of the last key delivered (see {@link lastKeyAt}). */
  private delivered(k: Key, at: number): void {
    this.keyAt = at;
    this.previousKey = k;
    this.stalledAtKey = this.stalledMs;
    this.watchForStalls();
  }

  /** Hands a paste to the topmost paste handler; behind held keys it waits with them. */
  private deliverPaste(raw: string): void {
    if (this.held) {
      this.held.items.push({ paste: raw });
      return;
    }
    const text = sanitizePaste(raw);
    if (!text) return;
    const top = [...this.pasteHandlers].sort((a, b) => b.layer - a.layer || b.order - a.order)[0];
    top?.handler.current(text);
  }
}

/** The stall watch's tick, ms: short enough to see a stall of a few hundred ms, cheap while it runs. */
const STALL_TICK_MS = 25;
/** How long after the last key the stall watch keeps running, ms: an idle app has no timer. */
const STALL_WATCH_MS = 2_000;
/** Lateness below this is a timer's ordinary jitter, not a stall, ms. */
const STALL_NOISE_MS = 10;

/** A printable run up to this many characters is taken as separate key presses. */
const MAX_TYPED_RUN = 32;

/** A control character alone, or a run of anything else. */
const KEY_RUNS = /[\u0000-\u001f\u007f]|[^\u0000-\u001f\u007f]+/g;

/** Quiet time inside a paste after which its end marker is assumed lost, ms. */
export const PASTE_IDLE_MS = 1_000;
const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

/**
 * Pasted text as the editor should take it: CR/CRLF → LF, tabs kept, every other control character
 * and escape sequence removed (a paste must not smuggle in terminal commands).
 */
export function sanitizePaste(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g, '');
}

const RouterContext = createContext<InputRouter | undefined>(undefined);

/**
 * Subscribes the router to Ink's input and turns raw mode on for the app's life. Bracketed paste
 * mode itself is the terminal's to switch on (src/tui/terminal.ts does, with the alternate screen).
 */
export function InputProvider({
  children,
  router: given,
  typedAhead,
}: {
  children: React.ReactNode;
  router?: InputRouter;
  /** keys typed before the TUI read input (while it loaded), as the terminal gave them */
  typedAhead?: string;
}) {
  const router = useMemo(() => given ?? new InputRouter(), [given]);
  const { internal_eventEmitter: emitter, setRawMode, isRawModeSupported } = useStdin();
  const pendingTypedAhead = useRef(typedAhead);
  useEffect(() => {
    // before Ink reads stdin: what was typed first is handled first
    if (pendingTypedAhead.current) router.typedAhead(pendingTypedAhead.current);
    pendingTypedAhead.current = undefined;
    if (isRawModeSupported) setRawMode(true);
    const onInput = (sequence: string) => router.input(sequence);
    emitter.on('input', onInput);
    return () => {
      emitter.off('input', onInput);
      if (isRawModeSupported) setRawMode(false);
    };
  }, [emitter, router, setRawMode, isRawModeSupported]);
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>;
}

function useRouter(): InputRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useKeys/usePaste need an <InputProvider> above them');
  return router;
}

/** The input clock a component may read: {@link InputRouter.now}, {@link InputRouter.lastKeyAt}, {@link InputRouter.lastKey}, {@link InputRouter.typingGapMs}. */
export type KeyClock = Pick<InputRouter, 'now' | 'lastKeyAt' | 'lastKey' | 'typingGapMs'>;

/** The router's clock: when the last key came, the time now, and the typing gap (ms, one monotonic clock). */
export function useKeyClock(): KeyClock {
  return useRouter();
}

/**
 * Registers a key handler on `layer` while `active` (default true). The handler may change between
 * renders without re-registering. Return true from it when the key was handled.
 *
 * `loading`: the content the handler acts on is not there yet (a list still being fetched). Keys
 * that reach it meanwhile are classified by `whileLoading` (default: every key waits), see
 * {@link WhileLoading}: those that wait are held by the router, with the keys after them, and handed
 * to the handlers in order once `loading` turns false, so `ctrl+o ↓ enter` in one read picks the
 * second model even when the list arrives later. Show that it loads meanwhile ("Loading models…").
 */
export function useKeys(
  handler: KeyHandler,
  options: { layer?: number; active?: boolean; loading?: boolean; whileLoading?: (key: Key) => WhileLoading } = {},
): void {
  const router = useRouter();
  const ref = useRef(handler);
  ref.current = handler;
  const { layer = LAYER.editor, active = true, loading = false } = options;
  const classify = useRef(options.whileLoading);
  classify.current = options.whileLoading;
  // set in the commit, with the hand-over: a key read between a render and its commit must not
  // reach the handler ahead of the keys held for it
  const loadingRef = useRef<((key: Key) => WhileLoading) | undefined>(undefined);
  useLayoutEffect(() => (active ? router.addKeyHandler(layer, ref, loadingRef) : undefined), [router, layer, active]);
  useLayoutEffect(() => {
    loadingRef.current = loading ? (key) => classify.current?.(key) ?? 'wait' : undefined;
    if (!loading) router.loaded(loadingRef);
  }, [router, loading]);
}

/** Registers a paste handler; only the topmost active one receives a paste (already sanitised). */
export function usePaste(handler: (text: string) => void, options: { layer?: number; active?: boolean } = {}): void {
  const router = useRouter();
  const ref = useRef(handler);
  ref.current = handler;
  const { layer = LAYER.editor, active = true } = options;
  useLayoutEffect(() => (active ? router.addPasteHandler(layer, ref) : undefined), [router, layer, active]);
}
