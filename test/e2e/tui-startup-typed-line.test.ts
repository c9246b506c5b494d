/**
 * End to end in a real terminal (tmux, 120×40): a prompt longer than a short answer (over 32
 * characters) typed with its Enter while the TUI is still starting is sent, as typed keys are: the
 * terminal held them meanwhile and hands them over as one run, which was taken for a paste (inserted,
 * never sent). A multi-line paste at the same moment is still a paste: inserted whole, nothing sent.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
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

let fake: FakeProvider | undefined;
let tui: Terminal | undefined;
let dirs: string[] = [];

afterEach(async () => {
  await tui?.kill();
  await fake?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  tui = fake = undefined;
  dirs = [];
});

const PROMPT = 'fix the failing test in src/add.ts and run it again please';

describe('opencode TUI in tmux: a line typed while it starts', () => {
  it('a long prompt and its Enter, typed before the first frame, are sent', async () => {
    fake = await startFakeProvider([{ text: 'Fixed the early prompt.' }], { sideTurn: answerTitles() });
    const dir = tuiProject({ 'README.md': '# demo\n' });
    const env = tuiEnv(fake.anthropicBaseURL);
    dirs.push(dir, env.HOME!);
    tui = await startTerminal({ command: OPENCODE, cwd: dir, env });
    // no wait: these reach the terminal while node is still starting
    await tui.type(PROMPT);
    await tui.press('Enter');
    await tui.waitFor(new RegExp(`${CODER_MODEL_FOOTER} \\(\\d+\\.\\ds\\)`));
    expect(fake.answered).toHaveLength(1);
    expect(fake.answered[0].messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: PROMPT }] });
  });

  it('two lines typed in one go before the first frame stay a paste: in the editor, not sent', async () => {
    fake = await startFakeProvider([], { sideTurn: answerTitles() });
    const dir = tuiProject({ 'README.md': '# demo\n' });
    const env = tuiEnv(fake.anthropicBaseURL);
    dirs.push(dir, env.HOME!);
    tui = await startTerminal({ command: OPENCODE, cwd: dir, env });
    await tui.type('first pasted line\nsecond pasted line');
    await tui.waitFor('second pasted line');
    const screen = await tui.waitFor('first pasted line');
    expect(screen).toContain('first pasted line');
    expect(fake.answered).toHaveLength(0);
  });
});
