/**
 * Libraries sometimes write to the console on their own: the Anthropic SDK prints a deprecation
 * warning with `console.warn` on every request to a retiring model. In `-p` mode stdout carries only
 * the answer, so library output is moved off it: warnings and errors go to stderr once each,
 * as `warning: …`; log/info/debug output is shown only with `--debug`.
 */
import { format } from 'node:util';

/** Redirects `console.*` as described above, for the rest of the process. */
export function routeLibraryConsole(debug: boolean): void {
  const seen = new Set<string>();
  const warnOnce = (...args: unknown[]) => {
    const text = format(...args);
    if (seen.has(text)) return;
    seen.add(text);
    process.stderr.write(`warning: ${text}\n`);
  };
  const debugLine = (...args: unknown[]) => {
    if (debug) process.stderr.write(`[debug] ${format(...args)}\n`);
  };
  console.warn = warnOnce;
  console.error = warnOnce;
  console.log = debugLine;
  console.info = debugLine;
  console.debug = debugLine;
}

/**
 * The one write that still reaches stdout after {@link reserveStdout}: `process.stdout.write`
 * as it was, bound to stdout (its `'error'` events, EPIPE included, still reach stdout's listeners).
 */
export type StdoutWrite = (chunk: string | Uint8Array, callback?: (err?: Error | null) => void) => boolean;

/**
 * Sends every other writer of stdout to stderr for the rest of the process (a plugin's
 * `process.stdout.write` while it loads or in a hook, a library writing directly), and returns the
 * write that still reaches stdout: for `-p`'s answer or stream-json lines, and `opencode acp`'s
 * protocol messages, whose stdout must hold nothing else. Writes to fd 1 that bypass `process.stdout` (`fs.writeSync(1, …)`) are not caught.
 */
export function reserveStdout(): StdoutWrite {
  const stdout = process.stdout;
  const original = stdout.write.bind(stdout) as StdoutWrite;
  stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
    process.stderr.write(...args)) as typeof stdout.write;
  return original;
}
