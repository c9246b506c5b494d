import { afterEach, beforeEach } from 'vitest';
/**
 * A real ToolContext for tool tests, with the services recorded: real FileTimes, a FileHistory and an
 * askPermission that write down every call, and a real session shell from `tools/shell.ts`.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionAskInput } from '../../src/permission/types.js';
import { FileTimes } from '../../src/tools/file-times.js';
import { createShell, type ShellOptions } from '../../src/tools/shell.js';
import { PermissionDeniedError } from '../../src/permission/errors.js';
import type { ShellRunner, Tool, ToolContext, ToolResult } from '../../src/tools/tool.js';

export interface RecordedWrite {
  sessionId: string;
  path: string;
  before: string | null;
  after: string;
}

export interface RecordingContext {
  ctx: ToolContext;
  /** every permission request, in order */
  permissions: PermissionAskInput[];
  /** every file-history write, in order */
  history: RecordedWrite[];
  /** every onProgress call */
  progress: string[];
  /** how the next permission requests are answered */
  answer: 'allow' | 'deny';
  abort: AbortController;
  /** closes the shell if one was created */
  close(): void;
}

export function recordingContext(options: {
  cwd: string;
  answer?: 'allow' | 'deny';
  shell?: Partial<ShellOptions>;
}): RecordingContext {
  const permissions: PermissionAskInput[] = [];
  const history: RecordedWrite[] = [];
  const progress: string[] = [];
  const abort = new AbortController();
  let shell: ShellRunner | undefined;
  const rec: RecordingContext = {
    permissions,
    history,
    progress,
    answer: options.answer ?? 'allow',
    abort,
    ctx: {
      sessionId: 'session-1',
      messageId: 'message-1',
      toolCallId: 'call-1',
      cwd: options.cwd,
      signal: abort.signal,
      async askPermission(input) {
        permissions.push(input);
        if (rec.answer === 'deny') throw new PermissionDeniedError();
      },
      fileTimes: new FileTimes(),
      fileHistory: {
        recordWrite(sessionId, path, before, after) {
          history.push({ sessionId, path, before, after });
        },
      },
      shell: () => (shell ??= createShell({ cwd: options.cwd, ...options.shell })),
      onProgress: (text) => progress.push(text),
    },
    close() {
      shell?.close();
    },
  };
  return rec;
}

/** Runs `tool` with `input` sent as the model would (JSON text). */
export function runTool(tool: Tool, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  return tool.run(input, ctx);
}

/** A fresh temporary directory (real path, no symlinks) and its removal. */
export function tempDir(prefix = 'opencode-test-'): { dir: string; remove(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** true while `pid` runs; a zombie (dead, not yet reaped by a PID 1 that never reaps) counts as gone */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): trust kill(0)
  }
}

/**
 * A fresh temp project and a recording context for every test of the file (registers vitest's
 * beforeEach/afterEach). Read `ws.dir` and `ws.rec` inside tests, not at module level.
 */
export function useRecordingWorkspace(): { readonly dir: string; readonly rec: RecordingContext } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let rec: RecordingContext | undefined;
  beforeEach(() => {
    tmp = tempDir();
    rec = recordingContext({ cwd: tmp.dir });
  });
  afterEach(() => {
    rec?.close();
    tmp?.remove();
  });
  return {
    get dir() {
      return tmp!.dir;
    },
    get rec() {
      return rec!;
    },
  };
}
