/**
 * A real terminal for the end-to-end TUI tests: a detached tmux session (its own server on a
 * private socket in a temp dir, `tmux -S <path>`, and no user config, so a person's tmux is never
 * touched, and the socket goes with the temp dir)
 * running one command at a fixed size. Tests type into it and read its screen as plain text.
 *
 * The pane stays after its command exits (`remain-on-exit`), so a crash stays readable; but tmux
 * may then redraw the dead pane with only its "Pane is dead" notice, so a test that reads what a
 * command left on the screen keeps the pane alive after it (`sh -c '…; echo EXITED:$?; exec sleep 60'`). Every tmux call is asynchronous: the fake provider runs in the
 * test's own process and must keep answering while a test waits for the screen.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemPrompt } from '../../src/agent/prompts.js';
import { catalogModel, DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { BIN, cleanEnv } from './cli.js';
import type { FakeTurn } from './fake-provider.js';

const exec = promisify(execFile);

/** Screen polling interval of {@link Terminal.waitFor}, ms. */
export const POLL_MS = 50;

/**
 * Variables that make a program believe it runs in CI or inside another tmux. Ink writes
 * differently when `CI` or `CONTINUOUS_INTEGRATION` is set (is-in-ci: no frames, only the last one
 * at exit), so the TUI under test must not see them.
 */
const NOT_A_TERMINAL_VARS = [
  'CI',
  'CONTINUOUS_INTEGRATION',
  'TMUX',
  'TMUX_PANE',
  'NO_COLOR',
  'FORCE_COLOR',
  'COLUMNS',
  'LINES',
];

export interface TerminalOptions {
  /** the command and its arguments (run directly, no shell; use `['sh', '-c', '…']` for one) */
  command: string[];
  cwd: string;
  /** the whole environment of the command; see {@link tuiEnv} */
  env: Record<string, string>;
  /** default 120 */
  columns?: number;
  /** default 40 */
  rows?: number;
}

/** A running tmux session with one pane. */
export interface Terminal {
  /** the tmux socket's path (`tmux -S <socket> attach` to look at it by hand) */
  socket: string;
  /** types `text` literally (`send-keys -l`): no key names, `Enter` is the five letters */
  type(text: string): Promise<void>;
  /**
   * Types `text`, waits until its last line shows on the screen, then presses Enter: as a person
   * does. (Text and Enter sent at once can reach the app in one read, which it may take for a paste.)
   */
  submit(text: string, timeoutMs?: number): Promise<void>;
  /**
   * A keyboard on one tmux control-mode client (`tmux -C attach`): each `type` writes a `send-keys -H`
   * line to that client, with no process started per key. For tests whose premise is the time between
   * keys (a typing run): a `tmux send-keys` process per key can take longer than the gap under test
   * when the machine is loaded. Close it when done.
   */
  keyboard(): Promise<Keyboard>;
  /** presses keys by tmux name, in order: `Enter`, `Escape`, `C-c`, `C-s`, `Up`, `Tab`, `y` … */
  press(...keys: string[]): Promise<void>;
  /** the visible screen as plain text (`capture-pane -p`): one line per row, trailing spaces trimmed */
  screen(): Promise<string>;
  /**
   * Everything the pane printed, scrolled-off rows included, wrapped rows joined (`capture-pane -p -J
   * -S -`): for what a program prints as it exits, which a later scroll may push off the screen.
   */
  history(): Promise<string>;
  /**
   * Polls the screen every {@link POLL_MS} ms until it contains `pattern` (a string) or matches it (a
   * RegExp); resolves with that screen. @throws Error after `timeoutMs` (default 10 s), with the last screen
   */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Like {@link waitFor}, until the screen no longer contains / matches `pattern`. */
  waitForGone(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** whether the pane's command has exited */
  exited(): Promise<boolean>;
  /** stops the tmux server (and the command with it); idempotent */
  kill(): Promise<void>;
}

let counter = 0;

/** See {@link Terminal.keyboard}. */
export interface Keyboard {
  /** sends `text`'s UTF-8 bytes as typed keys, in one write to the control client (returns at once) */
  type(text: string): void;
  /** detaches the control client; resolves when it has exited */
  close(): Promise<void>;
}

/** Starts `options.command` in a new detached tmux session of the given size. */
export async function startTerminal(options: TerminalOptions): Promise<Terminal> {
  const columns = options.columns ?? 120;
  const rows = options.rows ?? 40;
  const confDir = mkdtempSync(join(tmpdir(), 'opencode-tmux-'));
  const socket = join(confDir, 'socket');
  const conf = join(confDir, 'tmux.conf');
  // TERM inside a pane comes from default-terminal, not from the environment; escape-time 0 so an
  // Escape sent with send-keys reaches the program at once; status off so the pane is the whole window
  writeFileSync(
    conf,
    [
      'set -g default-terminal xterm-256color',
      'set -sg escape-time 0',
      'set -g status off',
      'set -g remain-on-exit on',
      'set -g history-limit 2000',
      '',
    ].join('\n'),
  );
  // the server is started by this client and inherits its environment: that is the command's env
  const serverEnv: Record<string, string> = { ...options.env };
  for (const name of ['TMUX', 'TMUX_PANE']) delete serverEnv[name];
  const tmux = (...args: string[]) =>
    exec('tmux', ['-S', socket, '-f', conf, ...args], { env: serverEnv, cwd: options.cwd });
  const session = `opencode-test-${counter++}`;
  const target = `${session}:0.0`;

  await tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(columns),
    '-y',
    String(rows),
    '-c',
    options.cwd,
    '--',
    ...options.command,
  );
  let killed = false;

  const screen = async () => {
    const { stdout } = await tmux('capture-pane', '-p', '-t', target);
    return stdout
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n+$/, '');
  };
  const history = async () => {
    const { stdout } = await tmux('capture-pane', '-p', '-J', '-S', '-', '-t', target);
    return stdout
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n+$/, '');
  };
  const test = (text: string, pattern: string | RegExp) =>
    typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  const poll = async (pattern: string | RegExp, want: boolean, timeoutMs: number): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = await screen();
      if (test(last, pattern) === want) return last;
      if (Date.now() > deadline) {
        throw new Error(
          `tmux: the screen ${want ? 'never showed' : 'still shows'} ${String(pattern)} after ${timeoutMs} ms; last screen:\n` +
            `┌${'─'.repeat(columns)}\n${last
              .split('\n')
              .map((l) => `│${l}`)
              .join('\n')}\n└${'─'.repeat(columns)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const type = async (text: string) => void (await tmux('send-keys', '-t', target, '-l', '--', text));
  const press = async (...keys: string[]) => void (await tmux('send-keys', '-t', target, ...keys));
  const keyboard = async (): Promise<Keyboard> => {
    const client = spawn('tmux', ['-S', socket, '-f', conf, '-C', 'attach-session', '-t', session], {
      env: serverEnv,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    client.stdout.resume(); // control-mode notifications: not needed, only drained
    const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
    // attached once it answers a first command (each command's output ends with %end or %error)
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        if (!/%(end|error) /.test(String(chunk))) return;
        client.stdout.off('data', onData);
        resolve();
      };
      client.stdout.on('data', onData);
      client.once('error', reject);
      client.stdin.write('display-message -p ready\n');
    });
    return {
      type: (text) => {
        const hex = [...Buffer.from(text, 'utf8')].map((b) => b.toString(16).padStart(2, '0')).join(' ');
        client.stdin.write(`send-keys -t ${target} -H ${hex}\n`);
      },
      close: async () => {
        client.stdin.end();
        await exited;
      },
    };
  };
  return {
    socket,
    history,
    type,
    keyboard,
    press,
    submit: async (text, timeoutMs = 5_000) => {
      await type(text);
      await poll(text.split('\n').at(-1)!, true, timeoutMs);
      await press('Enter');
    },
    screen,
    waitFor: (pattern, timeoutMs = 10_000) => poll(pattern, true, timeoutMs),
    waitForGone: (pattern, timeoutMs = 10_000) => poll(pattern, false, timeoutMs),
    exited: async () => (await tmux('display-message', '-p', '-t', target, '#{pane_dead}')).stdout.trim() === '1',
    kill: async () => {
      if (killed) return;
      killed = true;
      await tmux('kill-server').catch(() => {}); // already gone
      rmSync(confDir, { recursive: true, force: true });
    },
  };
}

/**
 * The environment for the TUI under test: {@link cleanEnv} (no real credentials, HOME in a fresh
 * temp dir: the TUI saves the theme and model to the global config there), without CI markers,
 * TERM=xterm-256color, and the Anthropic provider pointed at `anthropicBaseURL` (the fake).
 */
export function tuiEnv(anthropicBaseURL: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = cleanEnv({
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: anthropicBaseURL,
    TERM: 'xterm-256color',
    ...extra,
  });
  for (const name of NOT_A_TERMINAL_VARS) if (!(name in extra)) delete env[name];
  return env;
}

/** `bin/opencode` as a tmux command, run by the current Node. */
export const OPENCODE = [process.execPath, BIN];

/** The text of an Anthropic request's system prompt (a string or text blocks). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body as the fake provider got it
function systemText(body: any): string {
  const system = body?.system;
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((block: { text?: string }) => block.text ?? '').join('') : '';
}

/**
 * A `sideTurn` for the fake provider that answers the TUI's background session-title requests
 * (system prompt = the title agent's, src/agent/title.ts), so scripted turns stay in order. The
 * title is `title(first user message)`; by default the message itself, so each session is named
 * after its first prompt.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body as the fake provider got it
export function answerTitles(title: (firstMessage: string) => string = (m) => m): (body: any) => FakeTurn | undefined {
  const prompt = systemPrompt('title');
  return (body) => {
    if (systemText(body) !== prompt) return undefined;
    const content = body.messages?.[0]?.content;
    const text =
      typeof content === 'string' ? content : (content ?? []).map((b: { text?: string }) => b.text ?? '').join('');
    return { text: title(text) };
  };
}

/**
 * A temp project for the TUI: a git repository with `.opencode/init` already there (the data
 * directory's flag file: without it the TUI opens with the "Initialize project?" dialog), plus `files`.
 */
export function tuiProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-tui-'));
  mkdirSync(join(dir, '.opencode'), { recursive: true });
  writeFileSync(join(dir, '.opencode', 'init'), '');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/**
 * Starts `bin/opencode` (or `command`) in a 120×40 tmux terminal in `cwd`, talking to the fake at
 * `anthropicBaseURL`, and waits until Ink's first frame is up (the status bar shows `readyText`, the
 * model's name). @throws Error with the screen when it does not come up within `timeoutMs` (default 20 s)
 */
export async function startTui(options: {
  cwd: string;
  anthropicBaseURL: string;
  command?: string[];
  readyText?: string | RegExp;
  timeoutMs?: number;
}): Promise<Terminal> {
  const env = tuiEnv(options.anthropicBaseURL);
  const started = await startTerminal({ command: options.command ?? OPENCODE, cwd: options.cwd, env });
  // kill() also removes the temp HOME
  const terminal: Terminal = {
    ...started,
    kill: async () => {
      await started.kill();
      rmSync(env.HOME!, { recursive: true, force: true });
    },
  };
  try {
    await terminal.waitFor(options.readyText ?? CODER_MODEL_NAME, options.timeoutMs ?? 20_000);
  } catch (err) {
    await terminal.kill();
    throw err;
  }
  return terminal;
}

/** The default Anthropic coder model (with only ANTHROPIC_API_KEY set), as the status bar names it. */
export const CODER_MODEL_NAME = catalogModel(DEFAULT_MODELS.anthropic.coder)!.name;
/** …and as a reply's footer names it, as a regular expression's source: the same display name (`Claude Sonnet 5\.5`). */
export const CODER_MODEL_FOOTER = CODER_MODEL_NAME.replace(/[.]/g, '\\.');
