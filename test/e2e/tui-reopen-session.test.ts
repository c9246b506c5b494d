/**
 * End to end in a real terminal (tmux, 120×40): which session the TUI opens. A person asks
 * something in the TUI and quits; a later `opencode -p` run makes a newer session. Then:
 * - `opencode` reopens the TUI session, not the later `-p` run;
 * - `opencode --continue` opens the most recent session, the `-p` run;
 * - `opencode --session <prefix>` opens that session; an unknown id exits 2 with a pointer to the list;
 * - with `-d` the logs page (ctrl+l) shows the model and base URL, each request and each tool call.
 * Real bin/opencode, real SQLite, the loopback fake provider.
 *
 * Run alone: `npx vitest run test/e2e/tui-reopen-session.test.ts` (needs tmux and a built dist/).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { answerTitles, startTerminal, startTui, tuiEnv, tuiProject, type Terminal } from '../support/tmux.js';

const CODER_ID = DEFAULT_MODELS.anthropic.coder;

let fake: FakeProvider;
let dir: string;
const terminals: Terminal[] = [];

/** The TUI in `dir` with `args`, its exit code echoed on the normal screen once it quits. */
async function tui(args: string[] = []): Promise<Terminal> {
  const command = ['sh', '-c', `"$0" "$@"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN, ...args];
  const terminal = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
  terminals.push(terminal);
  return terminal;
}

async function quit(terminal: Terminal): Promise<void> {
  await terminal.press('C-c');
  await terminal.waitFor('Quit opencode?');
  await terminal.press('y');
  await terminal.waitFor('EXITED:0');
  await terminal.kill();
}

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
});

afterAll(async () => {
  for (const terminal of terminals) await terminal.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode TUI in tmux: which session opens', () => {
  let tuiSessionId: string;

  it('reopens the session last used in the TUI, not a later -p run', async () => {
    const first = await tui();
    fake.push({ text: 'The TUI answer: forty-two.' });
    await first.submit('asked in the TUI');
    await first.waitFor('The TUI answer: forty-two.');
    await quit(first);

    fake.push({ text: 'The script answer: seven.' });
    const env = tuiEnv(fake.anthropicBaseURL);
    const script = await runCli(['-p', 'asked by a script'], { cwd: dir, env });
    expect(script).toMatchObject({ code: 0, stdout: 'The script answer: seven.\n' });
    const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { cwd: dir, env })).stdout) as {
      id: string;
      title: string;
    }[];
    // newest first: the -p run is the most recent session
    expect(list.map((s) => s.title)).toEqual(['Non-interactive: asked by a script', 'asked in the TUI']);
    tuiSessionId = list[1]!.id;

    const second = await tui();
    const screen = await second.waitFor('The TUI answer: forty-two.');
    expect(screen).not.toContain('The script answer');
    await quit(second);
  });

  it('--continue opens the most recent session, the -p run', async () => {
    const terminal = await tui(['--continue']);
    const screen = await terminal.waitFor('The script answer: seven.');
    expect(screen).not.toContain('The TUI answer');
    await quit(terminal);
  });

  it('--session opens the session a prefix of its id names', async () => {
    const terminal = await tui(['--session', tuiSessionId.slice(0, 8)]);
    const screen = await terminal.waitFor('The TUI answer: forty-two.');
    expect(screen).not.toContain('The script answer');
    await quit(terminal);
  });

  it('-d puts the model and base URL, each request and each tool call on the logs page (ctrl+l)', async () => {
    const terminal = await tui(['-d', '--session', tuiSessionId]);
    await terminal.waitFor('The TUI answer: forty-two.');
    fake.push({ toolCalls: [{ id: 'toolu_ls', name: 'ls', input: {} }] }, { text: 'Listed.' });
    await terminal.submit('list the files');
    await terminal.waitFor('Listed.');
    await terminal.press('C-l');
    const logs = await terminal.waitFor(/DEBUG +request 2: ok in \d+ ms/);
    expect(logs).toMatch(
      new RegExp(
        `DEBUG +model ${CODER_ID.replace('/', '\\/')} \\(API model [^)]+\\) at ${fake.anthropicBaseURL.replace(/[.]/g, '\\.')}`,
      ),
    );
    expect(logs).toMatch(/DEBUG +request 1: ok in \d+ ms \(finish tool_use; tokens 10 in, 5 out/);
    expect(logs).toMatch(/DEBUG +tool ls toolu_ls finished in \d+ ms/);
    await terminal.press('Escape');
    await terminal.waitForGone(/^Logs \(/m);
    await quit(terminal);
  });

  it('--session with an unknown id leaves the screen and exits 2, saying what to do', async () => {
    const command = [
      'sh',
      '-c',
      `"$0" "$@"; echo EXITED:$?; exec sleep 60`,
      process.execPath,
      BIN,
      '--session',
      'nope',
    ];
    const terminal = await startTerminal({ command, cwd: dir, env: tuiEnv(fake.anthropicBaseURL) });
    terminals.push(terminal);
    const screen = await terminal.waitFor('EXITED:2', 20_000);
    expect(screen).toBe('opencode: no session nope; `opencode sessions list` shows them\nEXITED:2');
  });
});
