/**
 * End to end in a real terminal (tmux, 120×40): keys typed while the TUI is still starting
 * (from the moment it is launched, through the skeleton frame and the loading of the app after the
 * first full frame) all reach the editor, in order, and the prompt they make is sent and answered.
 * The TUI holds the terminal in raw mode from the skeleton on (src/tui/terminal.ts) and hands the
 * keys to Ink when it starts; the app's services answer the first frame before the app has loaded
 * (src/cli/pending-services.ts), and a prompt sent meanwhile waits for it.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import {
  answerTitles,
  CODER_MODEL_FOOTER,
  OPENCODE,
  startTerminal,
  tuiEnv,
  tuiProject,
  type Terminal,
} from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal | undefined;
let dir: string;
let home: string | undefined;

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  for (const d of [dir, home]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('opencode TUI in tmux: keys typed during start-up', () => {
  it('reach the editor in order, and Enter sends them once the app is there', async () => {
    fake.push({ text: 'Got your early prompt.' });
    const env = tuiEnv(fake.anthropicBaseURL);
    home = env.HOME;
    tui = await startTerminal({ command: OPENCODE, cwd: dir, env });
    // no wait: these go to the terminal while node is still starting
    await tui.type('typed before');
    await tui.waitFor(/OpenCode v/);
    await tui.type(' and during start-up');
    const screen = await tui.waitFor('> typed before and during start-up');
    expect(screen).not.toMatch(/typed before.*typed before/s);
    await tui.press('Enter');
    await tui.waitFor(new RegExp(`${CODER_MODEL_FOOTER} \\(\\d+\\.\\ds\\)`));
    expect(fake.answered).toHaveLength(1);
    expect(fake.answered[0].messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'typed before and during start-up' }],
    });
  });
});
