/**
 * The terminal modes the TUI sets, and their restoration on every way out: a normal quit, an
 * exception, SIGTERM/SIGHUP/SIGINT, or `process.exit` from anywhere. The sequences are xterm's
 * (ctlseqs): alternate screen `?1049`, bracketed paste `?2004`, cursor visibility `?25`.
 * No React here, so it can run before Ink is loaded (the first frame is drawn before Ink loads).
 */
import { writeSync } from 'node:fs';

const ENTER = '\u001b[?1049h\u001b[?2004h\u001b[?25l\u001b[H\u001b[2J';
const LEAVE = '\u001b[?2004l\u001b[?25h\u001b[?1049l';

/** Signals that end the process, with their numbers for the 128+n exit code. */
const SIGNALS: Partial<Record<NodeJS.Signals, number>> = { SIGTERM: 15, SIGHUP: 1, SIGINT: 2 };

export interface TerminalSession {
  /** restores the terminal now (idempotent); later exit paths then do nothing */
  restore(): void;
  /**
   * Runs `cleanup` (synchronously) when a signal or a crash ends the process, before it exits: e.g.
   * stopping the commands the bash tool started, which would otherwise outlive us (SIGHUP when the
   * terminal window closes).
   */
  onAbnormalExit(cleanup: () => void): void;
  /**
   * Stops holding the keys typed since {@link enterFullScreen} and returns them (as read, escape
   * sequences and paste markers included; '' the second time), for the TUI's input router to handle
   * before what Ink reads after. Keys still waiting in the terminal are read first: a start whose
   * loading never let the event loop turn has read none yet. They are not put back into stdin: Ink
   * would read them as one run of text, which the router cannot tell from a paste. Until then they
   * are held (ctrl+c among them ends the process as SIGINT would).
   */
  releaseInput(): Promise<string>;
  /**
   * False once the terminal is restored: the TUI's output drops its writes from then on, so a frame
   * Ink draws while the process exits (its own exit handler re-renders an animated pulse) cannot land
   * on the person's screen after the alternate screen is left.
   */
  active(): boolean;
}

/**
 * Switches `fd` (a TTY) to the alternate screen with bracketed paste on, and arranges for the
 * terminal to be restored however the process ends. `onFatal` gets an uncaught error after the
 * terminal is restored (to print it where the person can read it); the process then exits 1.
 */
export function enterFullScreen(fd = 1, onFatal?: (err: unknown) => void): TerminalSession {
  let active = true;
  let cleanup: (() => void) | undefined;
  const runCleanup = () => {
    try {
      cleanup?.();
    } catch {
      // exiting anyway
    }
  };
  const write = (s: string) => {
    try {
      writeSync(fd, s);
    } catch {
      // the terminal is gone (hang-up): nothing to restore
    }
  };
  const restore = () => {
    if (!active) return;
    active = false;
    process.off('exit', restore);
    for (const signal of Object.keys(SIGNALS) as NodeJS.Signals[]) process.off(signal, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    heldInput.stop();
    if (process.stdin.isTTY) {
      try {
        process.stdin.setRawMode(false);
      } catch {
        // stdin already closed
      }
    }
    write(LEAVE);
  };
  function onSignal(signal: NodeJS.Signals) {
    runCleanup();
    restore();
    process.exit(128 + (SIGNALS[signal] ?? 0));
  }
  function onCrash(err: unknown) {
    runCleanup();
    restore();
    onFatal?.(err);
    process.exit(1);
  }
  write(ENTER);
  const heldInput = holdInput(process.stdin);
  process.on('exit', restore);
  for (const signal of Object.keys(SIGNALS) as NodeJS.Signals[]) process.on(signal, onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  return {
    restore,
    onAbnormalExit(fn) {
      cleanup = fn;
    },
    releaseInput: heldInput.release,
    active: () => active,
  };
}

/** The keys {@link holdInput} holds: `release` returns them; `stop` stops holding and drops them. */
interface HeldInput {
  release(): Promise<string>;
  /** false when already released or stopped */
  stop(): boolean;
}

/**
 * Raw mode from the first frame on: a key typed while the TUI loads is neither echoed by
 * the terminal over the skeleton frame nor kept for a line the app never reads; the keys are held
 * here and handed over by the release, which returns them. Ctrl+c (0x03) while held raises SIGINT,
 * as the terminal would have without raw mode.
 */
function holdInput(stdin: NodeJS.ReadStream): HeldInput {
  const none: HeldInput = { release: async () => '', stop: () => false };
  if (!stdin.isTTY) return none;
  try {
    stdin.setRawMode(true);
  } catch {
    return none;
  }
  const held: Buffer[] = [];
  const onReadable = () => {
    let chunk: Buffer | string | null;
    while ((chunk = stdin.read() as Buffer | string | null) !== null) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (bytes.includes(0x03)) {
        process.kill(process.pid, 'SIGINT');
        return;
      }
      held.push(bytes);
    }
  };
  stdin.on('readable', onReadable);
  let released = false;
  const stop = (): boolean => {
    if (released) return false;
    released = true;
    stdin.off('readable', onReadable);
    // not read again until Ink listens; unref as Ink does when it lets go of stdin (Ink refs it again):
    // a TTY stream paused after 'readable' reads still holds the process open, so a start that ends
    // early (a config error, an unknown --session id) never exited
    stdin.pause();
    stdin.unref();
    return true;
  };
  const release = async (): Promise<string> => {
    if (released) return '';
    // one turn of the event loop: its poll phase reads what the terminal has for us (the loading
    // before this may have been promise callbacks only, which never let it run)
    await new Promise<void>((resolve) => setImmediate(resolve));
    return stop() ? Buffer.concat(held).toString('utf8') : '';
  };
  return { release, stop };
}
