/**
 * A one-line spinner on stderr for `-p` mode (the original draws "Thinking..."). Plain ANSI, no
 * dependencies, so `-p` start-up stays light.
 */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Frame interval, ms. */
const INTERVAL_MS = 80;

export interface Spinner {
  update(label: string): void;
  stop(): void;
}

/** Starts drawing on stderr; `stop()` erases the line. */
export function startSpinner(label: string, stream: NodeJS.WriteStream = process.stderr): Spinner {
  let frame = 0;
  let text = label;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
  draw();
  const timer = setInterval(draw, INTERVAL_MS);
  timer.unref();
  return {
    update(next) {
      text = next;
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}
