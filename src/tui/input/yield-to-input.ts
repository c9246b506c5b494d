/**
 * Yielding to input between slices of background work (a key typed while the app loads is
 * echoed at once).
 */

/**
 * Resolves once input that arrived during the slice before has been read and its render run: input
 * is read in the event loop's poll phase, and the render it causes is queued as an immediate (React's
 * scheduler uses `setImmediate` on Node), behind any immediate queued before that poll. So: the first
 * immediate reaches a check phase; the poll of the next turn, after it, reads what came during the
 * slice; the second immediate, queued before that poll, runs ahead of the render; the third, queued
 * by the second, runs after it. (One immediate started the next slice before the key's echo; two did
 * when the slice ended outside a check phase: test/cli/app-loader.test.ts.) Used between the slices
 * of work that runs while a person types: the app's modules (src/cli/app-loader.ts), the code grammars.
 */
export function yieldToInput(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));
}
