/**
 * One log record as the logs page shows it (the original kept its slog records in
 * memory and listed them with a detail pane). Plain data, so the logger side can build entries
 * without importing React.
 */

/** Severity, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One log record. */
export interface LogEntry {
  /** increasing: a later record has a larger id */
  id: number;
  /** unix ms */
  time: number;
  level: LogLevel;
  /** one line, e.g. `provider request failed` */
  message: string;
  /** the rest, any number of lines: attributes as `key=value`, a stack, a response body */
  details?: string;
}

/** `time` (unix ms) as `HH:MM:SS` in local time. */
export function formatLogTime(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Newest first: by time, then by id (records of the same millisecond keep their order). */
export function newestFirst(entries: readonly LogEntry[]): LogEntry[] {
  return [...entries].sort((a, b) => b.time - a.time || b.id - a.id);
}
