/**
 * Writing the prompt in the person's own editor (ctrl+e, as in the original): the current text goes
 * into a temp file `msg_*.md`, `$VISUAL`/`$EDITOR` runs on it with the terminal handed over, and
 * what was saved comes back when the editor exits with code 0 ({@link ExternalEditResult}). The
 * caller puts it in the input box; it is never sent from here (quitting the editor
 * without saving must not send the draft).
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

/**
 * How an external edit ended:
 * - `saved`: exit 0 and the file differs from what it was given; `text` is its content without
 *   trailing newlines (editors add one);
 * - `unchanged`: exit 0 and the file is byte for byte what it was given (quit without saving, or
 *   saved as it was);
 * - `failed`: the editor exited with a code other than 0 (`exitCode`) or was killed (`signal`).
 */
export type ExternalEditResult =
  | { outcome: 'saved'; text: string }
  | { outcome: 'unchanged' }
  | { outcome: 'failed'; exitCode: number | null; signal: NodeJS.Signals | null };

/** Runs an external editor on `initial`. @throws {@link ExternalEditorError} when it cannot start */
export type ExternalEditorRunner = (initial: string) => Promise<ExternalEditResult>;

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
 * inherited, and tells how it ended ({@link ExternalEditResult}). Throws
 * {@link ExternalEditorError} when the shell cannot start it (not found: the shell's 127/126). The
 * temp folder is removed after.
 */
export function editInExternalEditor(initial: string, command: string = editorCommand()): ExternalEditResult {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-'));
  const file = join(dir, `msg_${process.pid}_${Date.now().toString(36)}.md`);
  try {
    const given = Buffer.from(initial, 'utf8');
    writeFileSync(file, given);
    const result = spawnSync(`${command} ${shellQuote(file)}`, { stdio: 'inherit', shell: true });
    if (result.error) throw new ExternalEditorError(`could not start ${command}: ${result.error.message}`);
    // the shell's "command not found" (POSIX: 127; 126 found but not executable)
    if (result.status === 127 || result.status === 126) {
      throw new ExternalEditorError(`editor not found or not executable: ${command}; set $VISUAL or $EDITOR`);
    }
    if (result.status !== 0) return { outcome: 'failed', exitCode: result.status, signal: result.signal };
    let saved: Buffer;
    try {
      saved = readFileSync(file);
    } catch (err) {
      throw new ExternalEditorError(
        `cannot read what the editor saved (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    if (saved.equals(given)) return { outcome: 'unchanged' };
    return { outcome: 'saved', text: saved.toString('utf8').replace(/(\r?\n)+$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The status line after an external edit: what happened to the draft and that nothing was sent.
 *
 * | result | message |
 * |---|---|
 * | saved `fix it` | `the edited message is in the input box: enter sends it` (info) |
 * | saved `` | `the editor saved an empty message` (warn) |
 * | unchanged | `the editor closed without saving: the draft is unchanged, nothing was sent` (info) |
 * | failed, code 1 | `the editor exited with code 1: the draft is unchanged, nothing was sent` (warn) |
 * | failed, SIGKILL | `the editor was stopped by SIGKILL: the draft is unchanged, nothing was sent` (warn) |
 *
 * `keys.submit` is the key that sends in the keymap in effect (`editor.submit`; default `enter`);
 * undefined when it has none, and then the message names no key.
 */
export function externalEditMessage(
  result: ExternalEditResult,
  keys: { submit?: string } = { submit: 'enter' },
): { text: string; level: 'info' | 'warn' } {
  const kept = 'the draft is unchanged, nothing was sent';
  switch (result.outcome) {
    case 'saved':
      return result.text.trim() === ''
        ? { text: 'the editor saved an empty message', level: 'warn' }
        : {
            text: `the edited message is in the input box${keys.submit === undefined ? '' : `: ${keys.submit} sends it`}`,
            level: 'info',
          };
    case 'unchanged':
      return { text: `the editor closed without saving: ${kept}`, level: 'info' };
    case 'failed':
      return result.signal
        ? { text: `the editor was stopped by ${result.signal}: ${kept}`, level: 'warn' }
        : { text: `the editor exited with code ${result.exitCode}: ${kept}`, level: 'warn' };
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
