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
