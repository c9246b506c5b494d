/**
 * End to end in a real terminal (tmux): `opencode sessions delete` of the session a running TUI
 * shows is refused, naming the TUI and its pid; once the TUI quits (its mark goes with it) the same
 * delete goes through. Real bin/opencode twice, real SQLite, the loopback fake provider.
 *
 * Run alone: `npx vitest run test/e2e/tui-session-in-use.test.ts` (needs tmux and a built dist/).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiEnv, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let dir: string;
let terminal: Terminal | undefined;

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
});

afterAll(async () => {
  await terminal?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode sessions delete while a TUI shows the session', () => {
  it('is refused naming the TUI, and goes through once the TUI quit', async () => {
    const env = tuiEnv(fake.anthropicBaseURL);
    fake.push({ text: 'Kept.' });
    expect(await runCli(['-p', 'keep this'], { cwd: dir, env })).toMatchObject({ code: 0, stdout: 'Kept.\n' });
    const [session] = JSON.parse((await runCli(['sessions', 'list', '--json'], { cwd: dir, env })).stdout) as {
      id: string;
    }[];
    const id = session!.id;

    const command = ['sh', '-c', `"$0" "$@"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN, '--session', id];
    terminal = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
    await terminal.waitFor('Kept.');

    const refused = await runCli(['sessions', 'delete', id], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^opencode: session ${id} "Non-interactive: keep this" is in use by the TUI \\(pid \\d+, since [\\d-]+ [\\d:]+\\): quit it or open another session there first, or pass --force`,
      ),
    );

    await terminal.press('C-c');
    await terminal.waitFor('Quit opencode?');
    await terminal.press('y');
    await terminal.waitFor('EXITED:0');
    expect(await runCli(['sessions', 'delete', id], { cwd: dir, env })).toMatchObject({
      code: 0,
      stdout: `deleted session ${id} "Non-interactive: keep this" (2 messages)\n`,
    });
  }, 120_000);
});
