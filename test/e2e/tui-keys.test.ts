/**
 * End to end in a real terminal (tmux, 120×40): keys from the config and the
 * permission dialog's esc and ctrl+c, in one `opencode` TUI against the loopback fake.
 * The project's .opencode.json binds `session.new` to alt+n and `app.help` to f1: the status bar
 * advertises f1, f1 opens the help with alt+n listed, ctrl+n no longer starts a session and alt+n
 * does. Then the model asks to run `rm victim`: ctrl+c asks to quit, `n` brings the request back,
 * and esc denies it (victim stays). A keybinding that cannot be read stops the start with its line.
 *
 * Run alone: `npx vitest run test/e2e/tui-keys.test.ts` (needs tmux and a built dist/).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, OPENCODE, startTerminal, startTui, tuiEnv, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  // messages.toggle_thinking on alt+n too: a conflict, reported as a warning
  const keybindings = { 'session.new': 'alt+n', 'app.help': 'f1', 'messages.toggle_thinking': ['ctrl+y', 'alt+n'] };
  dir = tuiProject({ victim: 'precious\n', '.opencode.json': JSON.stringify({ keybindings }) });
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode TUI in tmux: keybindings from the config, esc and ctrl+c in the permission dialog', () => {
  it('the status bar and the help show the rebound keys; a conflict is a warning on the logs page', async () => {
    const screen = await tui.screen();
    expect(screen.split('\n').at(-1)).toMatch(/^ f1 help +1 configuration warning: see the logs page \(ctrl\+l\) /);
    await tui.press('C-l');
    // the list row is cut at the pane's width after the project's path (a temp folder of any length)
    await tui.waitFor(/WARN +\S*\.opencode\.json: /);
    // the newest entry (the status line's) is selected: the next one down is the warning, shown whole below
    await tui.press('Down');
    const whole = `${join(dir, '.opencode.json')}: alt+n is bound to both session.new and messages.toggle_thinking (chat page); only one of them will run: bind one to another key`;
    const deadline = Date.now() + 10_000;
    // read unwrapped: the detail wraps at the pane's width
    const unwrapped = async () => (await tui.screen()).replace(/\s+/g, ' ');
    while (!(await unwrapped()).includes(whole) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await unwrapped()).toContain(whole);
    await tui.press('Escape');
    await tui.waitForGone('alt+n is bound to both');
    await tui.press('F1');
    const help = await tui.waitFor('Keyboard Shortcuts');
    expect(help).toMatch(/│ alt\+n +New session/);
    await tui.press('Escape');
    await tui.waitForGone('Keyboard Shortcuts');
  });

  it('ctrl+n no longer starts a new session; alt+n does', async () => {
    fake.push({ text: 'First answer.' });
    await tui.submit('hello');
    await tui.waitFor('First answer.');
    await tui.press('C-n');
    // a key press that does nothing leaves the screen as it was: the reply is still there after a later key shows
    await tui.type('x');
    await tui.waitFor(/^> x/m);
    expect(await tui.screen()).toContain('First answer.');
    await tui.press('BSpace', 'M-n');
    await tui.waitForGone('First answer.');
  });

  it('ctrl+c over the permission dialog asks to quit; n brings it back; esc denies: victim stays', async () => {
    fake.push(
      { toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'rm victim', description: 'Delete victim' } }] },
      { text: 'Left it alone.' },
    );
    await tui.submit('delete the victim file');
    await tui.waitFor('Permission Required');
    await tui.press('C-c');
    const question = await tui.waitFor('Quit opencode?');
    expect(question).not.toContain('Permission Required');
    await tui.press('n');
    const back = await tui.waitFor('Permission Required');
    expect(back).toContain('rm victim');
    expect(back).toContain('Deny (d)');
    await tui.press('Escape');
    await tui.waitFor(/(^|\s)permission denied(\s|$)/m);
    expect(existsSync(join(dir, 'victim'))).toBe(true);
    expect(await tui.exited()).toBe(false);
  });
});

describe('opencode TUI in tmux: a keybinding that cannot be read', () => {
  it('stops the start with one line naming the file and the action', async () => {
    const bad = tuiProject({ '.opencode.json': JSON.stringify({ keybindings: { 'session.nwe': 'ctrl+b' } }) });
    const file = join(bad, '.opencode.json');
    const term = await startTerminal({ command: OPENCODE, cwd: bad, env: tuiEnv(fake.anthropicBaseURL) });
    try {
      // the program prints its line and exits 2 (the pane stays, remain-on-exit); the line is read
      // from the pane's whole history, wrapped rows joined: a scroll must not hide it
      const end = Date.now() + 20_000;
      while (!(await term.exited()) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(await term.exited()).toBe(true);
      expect(await term.history()).toContain(
        `${file}: keybindings.session.nwe: unknown action (did you mean session.new?); \`opencode keybindings\` lists them`,
      );
    } finally {
      await term.kill();
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
