/**
 * End to end in a real terminal (tmux, 120×40): one `opencode` TUI process against the loopback
 * fake provider, driven by keys and checked by reading the screen. In order: a prompt streams its
 * answer with the footer `<model> (<seconds>s)` under it; esc cancels a slow reply (footer
 * `canceled`) and the next prompt still works; ctrl+c then y quits and the terminal is restored
 * (the shell's normal screen is back, with none of the TUI's text).
 *
 * Run alone: `npx vitest run test/e2e/tui-chat.test.ts` (needs tmux and a built dist/: the suite's
 * global setup builds it).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, CODER_MODEL_FOOTER, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;

/** The screen's lines, trimmed. */
const lines = (screen: string) => screen.split('\n').map((l) => l.trim());

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
  // the shell reports the TUI's exit code on the normal screen once the TUI has left the alternate
  // one, then stays: when a pane dies, tmux may redraw it with only its "Pane is dead" notice
  const command = ['sh', '-c', `"$0" "$1"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN];
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode TUI in tmux: chat', () => {
  it('streams the answer to a prompt, with the model name and the duration in the footer under it', async () => {
    fake.push({ text: 'The answer is forty-two, streamed word by word.' });

    await tui.submit('what is the answer?');
    const screen = await tui.waitFor(new RegExp(`${CODER_MODEL_FOOTER} \\(\\d+\\.\\ds\\)`));

    const rows = lines(screen);
    const prompt = rows.findIndex((l) => l.includes('what is the answer?'));
    const answer = rows.findIndex((l) => l.includes('The answer is forty-two, streamed word by word.'));
    const footer = rows.findIndex((l) => new RegExp(`${CODER_MODEL_FOOTER} \\(\\d+\\.\\ds\\)`).test(l));
    expect(prompt, screen).toBeGreaterThanOrEqual(0);
    expect(answer, screen).toBeGreaterThan(prompt);
    expect(footer, screen).toBeGreaterThan(answer);
    expect(fake.answered).toHaveLength(1);
    expect(fake.answered[0].messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'what is the answer?' }],
    });
  });

  it('esc cancels a slow streamed reply (footer "canceled"); the next prompt gets its answer', async () => {
    // message_start, ping, the text block's start, two deltas; then the stream hangs until the client goes
    fake.push(
      { text: ['Counting slowly: ', 'one, ', 'two, ', 'three, ', 'four.'], chunkDelayMs: 50, stallAfterChunks: 5 },
      { text: 'Back after the cancel.' },
    );

    await tui.submit('count slowly');
    await tui.waitFor('Counting slowly: one,');
    await tui.press('Escape');
    const canceled = await tui.waitFor(/(^|\s)canceled(\s|$)/m);
    expect(canceled).not.toContain('one, two,');

    await tui.submit('are you there?');
    const screen = await tui.waitFor('Back after the cancel.');
    expect(screen).toContain('are you there?');
    expect(fake.answered).toHaveLength(3);
    // the canceled reply is in the history as far as it streamed
    const history = fake.answered[2].messages;
    expect(history.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'are you there?' }] });
  });

  it('ctrl+c then y quits with code 0 and leaves the alternate screen: the shell line is all that is left', async () => {
    await tui.press('C-c');
    await tui.waitFor('Quit opencode?');
    await tui.press('y');
    const screen = await tui.waitFor('EXITED:0');

    expect(screen).toBe('EXITED:0');
  });
});
