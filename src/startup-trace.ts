/**
 * Start-up timestamps for profiling. With `OPENCODE_STARTUP_TRACE=<file>` set, each
 * {@link startupMark} appends a line to that file: the time since the process started
 * (`performance.now()`, ms), the process's CPU time so far (user + system, ms: less moved by a loaded
 * machine) and a label (`123.4 98 label`). Without the variable a mark does nothing.
 * For measuring only: nothing depends on the marks.
 */
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const traceFile = process.env.OPENCODE_STARTUP_TRACE;

/** Records `label` at the current time when tracing is on. */
export function startupMark(label: string): void {
  if (!traceFile) return;
  try {
    const cpu = process.cpuUsage();
    appendFileSync(
      traceFile,
      `${performance.now().toFixed(1)} ${((cpu.user + cpu.system) / 1000).toFixed(0)} ${label}\n`,
    );
  } catch {
    // a trace that cannot be written is not the run's failure
  }
}

/**
 * The process event {@link startupComplete} emits: dist/start.cjs saves the TUI's code cache on it
 * (src/cli/code-cache.ts).
 */
export const STARTUP_COMPLETE_EVENT = 'opencode:startup-complete';

/** Marks the TUI's start-up as done (the app and the code grammars loaded): see {@link STARTUP_COMPLETE_EVENT}. */
export function startupComplete(): void {
  startupMark('start-up complete');
  (process as NodeJS.EventEmitter).emit(STARTUP_COMPLETE_EVENT);
}
