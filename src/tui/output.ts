/**
 * The stdout Ink writes to: the real terminal, with resize events debounced (a drag of the window
 * edge sends dozens) and a full clear before the redraw that follows, so a resize repaints once and
 * never leaves a copy of the old frame behind. It also counts bytes written (the benchmark reads it).
 */
import { appendFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';

/** Quiet time after the last resize event before redrawing, ms. */
export const RESIZE_DEBOUNCE_MS = 60;

export interface TuiOutput {
  /** what to pass to Ink's `render(…, { stdout })` */
  stream: NodeJS.WriteStream;
  /** bytes written so far */
  bytesWritten(): number;
  /** called after a resize settles, before Ink redraws (the runner clears Ink's frame memory here) */
  onResize(handler: () => void): void;
  dispose(): void;
}

/**
 * Wraps `real` (a TTY write stream). `active`: false once the terminal is restored (terminal.ts);
 * writes are then dropped (reported written), so nothing of the TUI lands on the normal screen.
 */
export function createTuiOutput(
  real: NodeJS.WriteStream,
  debounceMs = RESIZE_DEBOUNCE_MS,
  active: () => boolean = () => true,
): TuiOutput {
  const emitter = new EventEmitter();
  // OPENCODE_TUI_TRACE=<file>: every write, one JSON string a line (for debugging the renderer)
  const trace = process.env.OPENCODE_TUI_TRACE;
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let resizeHandler: () => void = () => {};
  // getters must stay getters (Object.assign would copy the size once and never again)
  const stream = Object.defineProperties(emitter, {
    isTTY: { value: real.isTTY },
    columns: { get: () => real.columns },
    rows: { get: () => real.rows },
    write: {
      value(chunk: string | Uint8Array, ...rest: unknown[]) {
        if (!active()) {
          const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
          callback?.();
          return true;
        }
        bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        if (trace) appendFileSync(trace, JSON.stringify(String(chunk)) + '\n');
        return (real.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
      },
    },
    hasColors: { value: (...args: unknown[]) => (real.hasColors as (...a: unknown[]) => boolean)(...args) },
    getColorDepth: { value: (...args: unknown[]) => (real.getColorDepth as (...a: unknown[]) => number)(...args) },
  });
  const onRealResize = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      resizeHandler();
      emitter.emit('resize');
    }, debounceMs);
  };
  real.on('resize', onRealResize);
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    bytesWritten: () => bytes,
    onResize(handler) {
      resizeHandler = handler;
    },
    dispose() {
      clearTimeout(timer);
      real.off('resize', onRealResize);
    },
  };
}
