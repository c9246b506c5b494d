/**
 * Keys named inside sentences follow the keymap in effect ("the help dialog and the
 * status hints show the keys in effect"): with an action rebound, the busy messages, the sessions
 * dialog's hints and its rename problem, the Yes/No buttons, the arguments dialog, the logs page, the
 * file picker and the "no cut result" message name the new key; with an action unbound, none.
 * Whole-TUI cases run a real app on the fake provider through test/support/render-tui.tsx.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type React from 'react';
import { describe, expect, it } from 'vitest';
import { runCommand, type CommandContext } from '../../src/tui/commands.js';
import { pulseText } from '../../src/tui/components/Pulse.js';
import { queueLines } from '../../src/tui/components/QueuedPrompts.js';
import { ArgumentsDialog } from '../../src/tui/dialogs/ArgumentsDialog.js';
import { FilePickerDialog } from '../../src/tui/dialogs/FilePickerDialog.js';
import { ModelsDialog } from '../../src/tui/dialogs/ModelsDialog.js';
import { QuitDialog } from '../../src/tui/dialogs/QuitDialog.js';
import { externalEditMessage } from '../../src/tui/input/external-editor.js';
import { buildKeymap, type Keymap } from '../../src/tui/keymap.js';
import { LogsPage } from '../../src/tui/pages/LogsPage.js';
import { PagerPage } from '../../src/tui/pages/PagerPage.js';
import type { FakeTurn } from '../support/fake-provider.js';
import { dialogPerTest } from '../support/render-dialog.js';
import { tick, tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

const CTRL_S = '\u0013';
const CTRL_X = '\u0018';
const ALT_U = '\u001bu';
const BACKSPACE = '\u007f';

function keymapOf(bindings: Record<string, unknown>): Keymap {
  const built = buildKeymap([{ file: '/p/.opencode.json', bindings }]);
  expect(built.errors).toEqual([]);
  return built.keymap;
}

async function mount(turns: FakeTurn[], bindings: Record<string, unknown>) {
  t = await tui.start(turns);
  return tui.render({ keymap: keymapOf(bindings) });
}

/** The TUI with a slow reply running. */
async function busy(bindings: Record<string, unknown>) {
  const rendered = await mount([{ text: ['Still ', 'thinking ', 'about it.'], chunkDelayMs: 600 }], bindings);
  await rendered.type('a question', '\r');
  await rendered.waitFor(() => rendered.store.getSnapshot().busy);
  return rendered;
}

describe('busy messages name the interrupt key in effect', () => {
  it('rebound: undo, switching sessions and sending while a reply runs name ctrl+g', async () => {
    const { store, waitFor, type } = await busy({ 'session.interrupt': 'ctrl+g' });
    await type(ALT_U);
    await waitFor((f) => f.includes('The agent is busy: undo'));
    expect(store.getSnapshot().status?.text).toBe(
      'The agent is busy: undo after the reply finishes, or press ctrl+g to cancel it',
    );
    await type(CTRL_S);
    await waitFor((f) => f.includes('switch sessions'));
    expect(store.getSnapshot().status?.text).toBe(
      'The agent is busy: switch sessions after the reply finishes (ctrl+g cancels it)',
    );
    await store.send('a command sent while busy');
    expect(store.getSnapshot().status?.text).toBe(
      'The agent is busy: wait for the reply, or press ctrl+g to cancel it',
    );
  });

  it('unbound: the messages name no key', async () => {
    const { store, waitFor, type } = await busy({ 'session.interrupt': 'none' });
    await type(ALT_U);
    await waitFor((f) => f.includes('The agent is busy: undo'));
    expect(store.getSnapshot().status?.text).toBe('The agent is busy: undo after the reply finishes');
    await type(CTRL_S);
    await waitFor((f) => f.includes('switch sessions'));
    expect(store.getSnapshot().status?.text).toBe('The agent is busy: switch sessions after the reply finishes');
    await store.send('a command sent while busy');
    expect(store.getSnapshot().status?.text).toBe('The agent is busy: wait for the reply');
  });
});

describe('the sessions dialog names its keys in effect', () => {
  const bindings = {
    'dialog.select': 'tab',
    'dialog.close': 'ctrl+q',
    'session.rename': 'e',
    'session.delete': 'x',
    'confirm.yes': 'alt+y',
    'confirm.no': 'alt+n',
  };

  it('in the list hints, the rename hints and problem, and the delete question', async () => {
    const { waitFor, type, ui } = await mount([], bindings);
    t!.app.db.sessions.create({ title: 'Old' });
    await type(CTRL_S);
    const list = await waitFor((f) => f.includes('Switch Session'));
    expect(list).toContain('tab open · e rename · x delete · ctrl+q close');
    await type('e');
    await waitFor((f) => f.includes('Rename Session'));
    await type(...Array<string>(3).fill(BACKSPACE), '\t');
    const rename = await waitFor((f) => f.includes('A title cannot be empty'));
    // the problem wraps inside the frame: its rows joined
    const rows = rename.split('\n').map((row) => row.replace(/^\s*│ ?|\s*│\s*$/g, '').trim());
    expect(rows.join(' ')).toContain('A title cannot be empty: type one, or ctrl+q to keep the old one');
    expect(rename).toContain('tab save · ctrl+q cancel');
    await type('\u0011'); // ctrl+q: back to the list
    await waitFor((f) => f.includes('Switch Session'));
    await type('x');
    const question = await waitFor((f) => f.includes('Delete Session'));
    expect(question).toContain('Yes (alt+y)');
    expect(question).toContain('No (alt+n)');
    expect(ui.lastFrame()).not.toContain('(y)');
  });
});

describe('the "no cut result" message names the page-up key in effect', () => {
  it('rebound to alt+k', async () => {
    const { store, waitFor, type } = await mount([{ text: 'No tools used.' }], { 'messages.page_up': 'alt+k' });
    await type('hi', '\r');
    await waitFor((f) => f.includes('No tools used.') && !store.getSnapshot().busy);
    await type(CTRL_X);
    await waitFor((f) => f.includes('No cut tool result'));
    expect(store.getSnapshot().status?.text).toBe('No cut tool result on screen: scroll to one (alt+k) first');
  });
});

describe('an unknown command names the commands key in effect', () => {
  it('rebound to alt+c; unbound: only /', async () => {
    t = await tui.start([]);
    const { store } = tui.render({ keymap: keymapOf({ 'command.list': 'alt+c' }) });
    await tick();
    const ctx = { services: t.services, store, custom: [] } as unknown as CommandContext;
    runCommand('user:nope', ctx);
    expect(store.getSnapshot().status?.text).toBe('No command user:nope: / or alt+c lists them');
    store.keymap = keymapOf({ 'command.list': 'none' });
    runCommand('user:nope', ctx);
    expect(store.getSnapshot().status?.text).toBe('No command user:nope: / lists them');
  });
});

const showDialog = dialogPerTest();

/** Renders `node` under `keymap` with input, and gives its frame once drawn. */
async function frameOf(node: React.ReactElement, keymap: Keymap): Promise<string> {
  return (await showDialog(node, { keymap })).frame();
}

describe('dialog hint rows name the keys in effect', () => {
  it('the arguments dialog', async () => {
    const keymap = keymapOf({ 'field.next': 'ctrl+n', 'dialog.select': 'ctrl+r', 'dialog.close': 'none' });
    const frame = await frameOf(
      <ArgumentsDialog title="user:x" names={['A']} onSubmit={() => {}} onClose={() => {}} width={80} height={20} />,
      keymap,
    );
    expect(frame).toContain('ctrl+n next field · ctrl+r run');
    expect(frame).not.toContain('cancel');
  });

  it('the logs page', async () => {
    const frame = await frameOf(
      <LogsPage entries={[]} onBack={() => {}} width={60} height={10} />,
      keymapOf({ 'logs.back': 'alt+b' }),
    );
    expect(frame).toContain('Logs (0) · ↑↓ select · alt+b back');
  });

  it('the file picker', async () => {
    const keymap = keymapOf({
      'file_picker.open': 'o',
      'file_picker.parent': 'u',
      'file_picker.type': 'p',
      'dialog.close': 'ctrl+q',
    });
    const cwd = mkdtempSync(join(tmpdir(), 'opencode-picker-'));
    const frame = await frameOf(<FilePickerDialog cwd={cwd} onPick={() => {}} onClose={() => {}} width={80} />, keymap);
    expect(frame).toContain('↑↓ move · o open · u up · p type a path · ctrl+q close');
  });

  it('the quit question', async () => {
    const frame = await frameOf(
      <QuitDialog onQuit={() => {}} onClose={() => {}} />,
      keymapOf({ 'confirm.yes': 'alt+y', 'confirm.no': 'none' }),
    );
    expect(frame).toContain('Yes (alt+y)');
    expect(frame).toMatch(/No(?! \()/);
  });
});

describe('the external editor message names the send key in effect', () => {
  const saved = { outcome: 'saved', text: 'fix it' } as const;
  it.each([
    [{ submit: 'enter' }, 'the edited message is in the input box: enter sends it'],
    [{ submit: 'ctrl+s' }, 'the edited message is in the input box: ctrl+s sends it'],
    [{ submit: undefined }, 'the edited message is in the input box'],
  ])('%o → %s', (keys, text) => {
    expect(externalEditMessage(saved, keys)).toEqual({ text, level: 'info' });
  });
});

describe('hints of an unbound action name no key (they named the default before)', () => {
  it('the pulse: no "to interrupt" without session.interrupt', () => {
    expect(pulseText({ label: 'Running bash: npm test', startedAt: 0 }, 5_000, undefined)).toBe(
      'Running bash: npm test · 5s',
    );
    expect(pulseText({ label: 'Running bash: npm test', startedAt: 0 }, 5_000, 'ctrl+g')).toBe(
      'Running bash: npm test · 5s · ctrl+g to interrupt',
    );
  });

  it('the queue line: only the parts whose action has a key', () => {
    const queue = [{ id: 1, text: 'one', attachments: [] }];
    expect(queueLines(queue, false, { clear: 'ctrl+g' })).toEqual([
      'queued  one',
      '  sent when the reply ends; ctrl+g ctrl+g cancels and clears',
    ]);
    expect(queueLines(queue, true, { recall: 'alt+k' })).toEqual([
      'queued  one',
      '  held after the cancel: enter sends, alt+k edits the last',
    ]);
    expect(queueLines(queue, false, {})).toEqual(['queued  one', '  sent when the reply ends']);
  });

  it('the pager and the models dialog', async () => {
    const pager = await frameOf(
      <PagerPage title="Bash  ls" text="a" onBack={() => {}} width={80} height={10} />,
      keymapOf({ 'pager.back': 'none' }),
    );
    expect(pager.split('\n')[0]).toBe('Bash  ls · lines 1–1 of 1 · ↑↓ pgup pgdown scroll');
    const providers = [{ id: 'openai', name: 'OpenAI', models: [{ id: 'gpt-5', name: 'GPT-5' }] }];
    const models = await frameOf(
      <ModelsDialog providers={providers} currentModelId="gpt-5" onSelect={() => {}} onClose={() => {}} />,
      keymapOf({ 'dialog.select': 'tab', 'model.select_global': 'none' }),
    );
    expect(models).toContain('tab: this project');
    expect(models).not.toContain('global');
  });
});
