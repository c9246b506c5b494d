/**
 * The `/` command list in the whole TUI, against a real app and the fake provider:
 * a built-in opens its dialog, a custom command is sent, `/quit` quits, and a text that only
 * starts with `/` is an ordinary prompt.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeTurn } from '../support/fake-provider.js';
import { tick, tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

async function mount(turns: FakeTurn[]) {
  t = await tui.start(turns);
  return tui.render();
}

describe('the / command list in the TUI', () => {
  it('/mo then enter opens the models dialog; the input is empty after', async () => {
    const { waitFor, type } = await mount([]);
    await type('/');
    const list = await waitFor((f) => f.includes('/sessions') && f.includes('/compact'));
    expect(list).toContain('/new');
    await type('mo');
    await waitFor((f) => f.includes('/models') && !f.includes('/sessions'));
    await type('\r');
    const dialog = await waitFor((f) => f.includes('Claude Opus 5.5'));
    expect(dialog).toMatch(/^> *$/m);
  });

  it('/compact on a new session says there is nothing to compact, and sends nothing', async () => {
    const { waitFor, type } = await mount([]);
    await type('/compact');
    await waitFor((f) => f.includes('Summarise this session'));
    await type('\r');
    await waitFor((f) => f.includes('Nothing to compact: this session has no messages yet'));
    expect(t!.fake.answered).toHaveLength(0);
  });

  it('/undo calls the store undo: on a new session it says there is nothing to undo', async () => {
    const { waitFor, type } = await mount([]);
    await type('/undo');
    await waitFor((f) => f.includes('Restore the files the last turn changed'));
    await type('\r');
    await waitFor((f) => f.includes('Nothing to undo: this session has no messages yet'));
  });

  it('a custom command without placeholders is sent as its text', async () => {
    const { waitFor, type } = await mount([{ text: 'Hello there.' }]);
    mkdirSync(join(t!.dir, '.opencode', 'commands'), { recursive: true });
    writeFileSync(join(t!.dir, '.opencode', 'commands', 'greet.md'), 'Say hello.');
    await type('/greet');
    await waitFor((f) => f.includes('/project:greet'));
    await type('\r');
    await waitFor((f) => f.includes('Hello there.'));
    expect(JSON.stringify(t!.fake.answered.at(-1).messages.at(-1).content)).toContain('Say hello.');
  });

  it('a prompt that starts with a path is sent as typed', async () => {
    const { waitFor, type } = await mount([{ text: 'It is empty.' }]);
    await type('/etc/hosts');
    await waitFor((f) => f.includes('No matching commands'));
    await type(' is empty?');
    await waitFor((f) => f.includes('> /etc/hosts is empty?') && !f.includes('No matching commands'));
    await type('\r');
    await waitFor((f) => f.includes('It is empty.'));
    expect(t!.fake.answered.at(-1).messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: '/etc/hosts is empty?' }],
    });
  });

  it('/quit quits without asking', async () => {
    const { waitFor, type, quitted } = await mount([]);
    await type('/quit');
    await waitFor((f) => f.includes('Quit opencode'));
    await type('\r');
    for (let i = 0; i < 40 && !quitted(); i++) await tick(25);
    expect(quitted()).toBe(true);
  });
});
