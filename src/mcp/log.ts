/**
 * The log of one MCP server: its stderr and our notes about it (connected, failed, restarted), never
 * shown on the terminal. Lines are kept in memory (the last {@link MAX_MEMORY_LINES}, for error messages
 * and the TUI's logs page) and, when a file is given, appended to it (`<data dir>/mcp-<name>.log`).
 */
import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** Lines kept in memory per server. */
export const MAX_MEMORY_LINES = 200;
/** A log file larger than this at start-up is started afresh rather than appended to. */
const MAX_FILE_BYTES = 1024 * 1024;

/** One line of a server's log. */
export interface McpLogLine {
  /** unix ms */
  time: number;
  /** `stderr` for the server's own output, `info` for ours */
  source: 'stderr' | 'info';
  text: string;
}

export class McpLog {
  private readonly memory: McpLogLine[] = [];
  private file?: WriteStream;
  private partial = '';

  /** @param file absolute path to append to; memory only when absent or when it cannot be opened */
  constructor(file?: string) {
    if (!file) return;
    try {
      mkdirSync(dirname(file), { recursive: true });
      let flags = 'a';
      try {
        if (statSync(file).size > MAX_FILE_BYTES) flags = 'w';
      } catch {
        // no file yet
      }
      this.file = createWriteStream(file, { flags });
      // a log that cannot be written must not take the server down
      this.file.on('error', () => (this.file = undefined));
    } catch {
      this.file = undefined;
    }
  }

  /** Records a note of ours. */
  info(text: string): void {
    this.add('info', text);
  }

  /** Records a chunk of the server's stderr, split into lines (a partial last line waits for the rest). */
  stderr(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) this.add('stderr', line);
  }

  /** The last lines, oldest first. */
  lines(): McpLogLine[] {
    if (this.partial.trim()) return [...this.memory, { time: Date.now(), source: 'stderr', text: this.partial }];
    return [...this.memory];
  }

  /** The last `count` stderr lines joined with ` | `, for an error message; `''` when there are none. */
  stderrTail(count = 3, since = 0): string {
    return this.lines()
      .filter((l) => l.source === 'stderr' && l.time >= since)
      .slice(-count)
      .map((l) => l.text.trim())
      .join(' | ');
  }

  close(): void {
    if (this.partial.trim()) this.add('stderr', this.partial);
    this.partial = '';
    this.file?.end();
    this.file = undefined;
  }

  private add(source: McpLogLine['source'], text: string): void {
    const line = { time: Date.now(), source, text };
    this.memory.push(line);
    if (this.memory.length > MAX_MEMORY_LINES) this.memory.splice(0, this.memory.length - MAX_MEMORY_LINES);
    this.file?.write(`${new Date(line.time).toISOString()} ${source === 'stderr' ? 'stderr' : 'opencode'}: ${text}\n`);
  }
}
