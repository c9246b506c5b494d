/**
 * The whole TUI (ink-testing-library, a real app, the fake provider) with keys from the config
 * and the dialogs' esc and ctrl+c: a rebound action answers its new key
 * and no longer its old one; ctrl+c over the permission dialog asks the quit question and "no"
 * brings the request back, unanswered; esc then denies it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKeymap } from '../../src/cli/keybindings.js';
import { loadConfig } from '../../src/config/load.js';
import type { FakeTurn } from '../support/fake-provider.js';
import { tick, tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

async function mount(turns: FakeTurn[], config: object = {}) {
  t = await tui.start(turns, { config });
  // the keymap as the TUI's start builds it: from the project's .opencode.json
  const built = loadKeymap(loadConfig({ cwd: t.dir, env: {}, home: t.dir }));
  expect(built.errors).toEqual([]);
  return tui.render({ keymap: built.keymap });
}

describe('the TUI with keybindings from the config', () => {
  it('a rebound action answers its new key, not the old one; the hint and help show the new key', async () => {
    const { ui, waitFor, type } = await mount([{ text: 'First.' }], {
      keybindings: { 'session.new': 'alt+n', 'app.help': ['f1'] },
    });
    expect(ui.lastFrame()).toMatch(/^ f1 help /m);
    await type('one');
    await type('\r');
    await waitFor((f) => f.includes('First.') && /\(\d/.test(f));
    await type('\u000e'); // ctrl+n: no longer session.new
    await tick(100);
    expect(ui.lastFrame()).toContain('First.');
    await type('\u001bn'); // alt+n
    await waitFor((f) => !f.includes('First.'));
    await type('\u001bOP'); // f1
    await waitFor((f) => f.includes('Keyboard Shortcuts'));
    // the help scrolls on this small screen: page down to the Chat group
    for (let i = 0; i < 5 && !(ui.lastFrame() ?? '').includes('New session'); i++) await type('\u001b[6~');
    expect(ui.lastFrame()).toMatch(/│ alt\+n +New session/);
  });

  it('ctrl+c over the permission dialog asks to quit; n brings the request back unanswered; esc denies it', async () => {
    const { waitFor, type, quitted } = await mount([
      { toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'rm victim' } }] },
    ]);
    writeFileSync(join(t!.dir, 'victim'), 'x');
    await type('remove victim');
    await type('\r');
    await waitFor((f) => f.includes('Permission Required'));
    await type('\u0003'); // ctrl+c
    const question = await waitFor((f) => f.includes('Quit opencode?'));
    expect(question).not.toContain('Permission Required');
    await type('n');
    await waitFor((f) => f.includes('Permission Required') && f.includes('rm victim'));
    expect(quitted()).toBe(false);
    await type('\u001b'); // esc: deny
    const after = await waitFor((f) => f.includes('permission denied'));
    expect(after).not.toContain('Permission Required');
    expect(existsSync(join(t!.dir, 'victim'))).toBe(true);
  });

  it('ctrl+c on the logs page asks to quit over the chat; n leaves the chat page', async () => {
    const { waitFor, type, quitted } = await mount([]);
    await type('\u000c'); // ctrl+l
    await waitFor((f) => f.includes('Logs ('));
    await type('\u0003');
    const question = await waitFor((f) => f.includes('Quit opencode?'));
    expect(question).not.toContain('Logs (');
    await type('n');
    await waitFor((f) => !f.includes('Quit opencode?'));
    expect(quitted()).toBe(false);
  });

  it('ctrl+c in a list dialog asks to quit, esc goes back to the list, and ctrl+c twice quits', async () => {
    const { waitFor, type, quitted } = await mount([]);
    await type('\u000b'); // ctrl+k
    await waitFor((f) => f.includes('Initialize Project'));
    await type('\u0003');
    await waitFor((f) => f.includes('Quit opencode?'));
    await type('\u001b');
    await waitFor((f) => f.includes('Initialize Project') && !f.includes('Quit opencode?'));
    await type('\u0003');
    await waitFor((f) => f.includes('Quit opencode?'));
    await type('\u0003');
    expect(quitted()).toBe(true);
  });
});
