/**
 * End to end in a real terminal (tmux, 120×40): quitting (ctrl+c, y) while a reply is still
 * streaming ends the process: the reply is canceled, the terminal restored, the exit code 0. The
 * fake provider's stream hangs after its first words, as a slow or stuck provider does.
 *
 * Run alone: `npx vitest run test/e2e/tui-quit-streaming.test.ts` (needs tmux and a built dist/:
 * the suite's global setup builds it).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;

beforeAll(async () => {
  // message_start, ping, the text block's start, one delta; then the stream hangs until the client goes
  fake = await startFakeProvider([{ text: ['Thinking about it: ', 'never finished.'], stallAfterChunks: 4 }], {
    sideTurn: answerTitles(),
  });
  dir = tuiProject();
  // the pane stays after the TUI so its last screen can be read (see test/support/tmux.ts)
  const command = ['sh', '-c', `"$0" "$1"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN];
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode TUI in tmux: quitting during a reply', () => {
  it('ctrl+c then y while the reply streams: the process exits 0 and the terminal is restored', async () => {
    await tui.submit('take your time');
    await tui.waitFor('Thinking about it:');
    await tui.press('C-c');
    await tui.waitFor('Quit opencode?');
    await tui.press('y');

    const screen = await tui.waitFor('EXITED:', 5_000);
    expect(screen).toBe('EXITED:0');
  });
});
