/**
 * Writing the prompt in the person's own editor (ctrl+e, reference §9.3): the current text goes
 * into a temp file `msg_*.md`, `$VISUAL`/`$EDITOR` runs on it with the terminal handed over, and
 * the file's content comes back when the editor exits with code 0.
 *
 * Handing the terminal over: Ink keeps stdin in raw mode and reads it. The runner turns raw mode
 * off first (through Ink's `setRawMode`, which also stops Ink reading), leaves the alternate screen
 * and bracketed paste (the TUI's modes, src/tui/terminal.ts), runs the editor with `spawnSync` and
 * inherited stdio (the event loop is blocked, so neither Ink nor a timer writes meanwhile), then
 * restores the modes and raw mode. The editor has drawn over Ink's frame, so the screen must be
 * redrawn whole: by default through a synthetic `resize` on process.stdout, on which the app clears
 * and redraws (run.tsx); an app can pass its own `redraw` (Ink's `instance.clear()` + a render).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Runs an external editor on `initial`; resolves to the edited text, or undefined when cancelled. */
export type ExternalEditorRunner = (initial: string) => Promise<string | undefined>;

/** What the runner needs of the terminal: Ink's `useStdin()` gives both. */
export interface TerminalHandover {
  /** Ink's raw-mode switch (reference-counted by Ink) */
  setRawMode(on: boolean): void;
  /** the stdin Ink reads, to make sure raw mode really is off while the editor runs */
  stdin?: NodeJS.ReadStream;
  /** where to write terminal modes around the run; default process.stdout (nothing is written unless a TTY) */
  stdout?: NodeJS.WriteStream;
  /** the app draws in the alternate screen: leave it for the editor, enter it again after (default true) */
  alternateScreen?: boolean;
  /** redraws the whole screen after the editor; default: a `resize` event on process.stdout when a TTY */
  redraw?: () => void;
}

/** The editor's exit was not 0, or it could not start. */
export class ExternalEditorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExternalEditorError';
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * The editor command: `$VISUAL`, else `$EDITOR`, else `vi` when it is on PATH, else `nano`.
 * (The original defaults to nvim; vi is on nearly every Unix system.) The command may hold
 * arguments (`code --wait`); it is run by the shell.
 */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.VISUAL?.trim() || env.EDITOR?.trim();
  if (chosen) return chosen;
  return onPath('vi', env) ? 'vi' : 'nano';
}

/** `s` as one POSIX shell word. */
function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs `command` on a temp file `msg_*.md` holding `initial`, synchronously with the terminal
 * inherited. Returns the file's content when it exits with 0 (trailing newlines removed: editors
 * add one), undefined for any other exit code. Throws {@link ExternalEditorError} when the shell
 * cannot start. The temp folder is removed after.
 */
export function editInExternalEditor(initial: string, command: string = editorCommand()): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-'));
  const file = join(dir, `msg_${process.pid}_${Date.now().toString(36)}.md`);
  try {
    writeFileSync(file, initial);
    const result = spawnSync(`${command} ${shellQuote(file)}`, { stdio: 'inherit', shell: true });
    if (result.error) throw new ExternalEditorError(`could not start ${command}: ${result.error.message}`);
    // the shell's "command not found" (POSIX: 127; 126 found but not executable)
    if (result.status === 127 || result.status === 126) {
      throw new ExternalEditorError(`editor not found or not executable: ${command}; set $VISUAL or $EDITOR`);
    }
    if (result.status !== 0) return undefined;
    return readFileSync(file, 'utf8').replace(/(\r?\n)+$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// xterm ctlseqs: bracketed paste ?2004, cursor visible ?25, alternate screen ?1049
const SUSPEND = '\u001b[?2004l\u001b[?25h';
const RESUME = '\u001b[?2004h\u001b[?25l\u001b[H\u001b[2J';

/**
 * The default runner for the Editor's `runExternalEditor`: hands the terminal to
 * {@link editInExternalEditor} and takes it back (see the module comment). `command` gives the
 * editor command (default {@link editorCommand}).
 */
export function externalEditorRunner(terminal: TerminalHandover, command?: () => string): ExternalEditorRunner {
  return async (initial) => {
    const stdout = terminal.stdout ?? process.stdout;
    const tty = stdout.isTTY === true;
    const alternate = terminal.alternateScreen ?? true;
    terminal.setRawMode(false);
    // Ink counts raw-mode users; if another one holds it, switch the stream off directly
    if (terminal.stdin?.isTTY && terminal.stdin.isRaw) terminal.stdin.setRawMode(false);
    if (tty) stdout.write(SUSPEND + (alternate ? '\u001b[?1049l' : ''));
    try {
      return editInExternalEditor(initial, command?.() ?? editorCommand());
    } finally {
      if (tty) stdout.write((alternate ? '\u001b[?1049h' : '') + RESUME);
      terminal.setRawMode(true);
      if (terminal.redraw) terminal.redraw();
      else if (tty && process.stdout.isTTY) process.stdout.emit('resize');
    }
  };
}
