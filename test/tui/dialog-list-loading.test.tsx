/**
 * A list dialog whose items are still loading (ListDialog's `loading`): it says so, and the keys
 * that reach it meanwhile, typed filter included, wait and then act on the loaded list. The commands
 * dialog shows the list last known until its custom commands are read; a filter for a custom command
 * typed with ctrl+k matched nothing among the built-ins and its enter was lost.
 */
import { describe, expect, it, vi } from 'vitest';
import { CommandsDialog } from '../../src/tui/dialogs/CommandsDialog.js';
import { ModelsDialog, type ModelProvider } from '../../src/tui/dialogs/ModelsDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { dialogPerTest, KEYS, settle } from '../support/render-dialog.js';

const show = dialogPerTest();
const noop = () => {};
const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

/** The dialog's rows between its top and bottom border, trimmed. */
const rows = (frame: string) => {
  const lines = frame.split('\n');
  const top = lines.findIndex((l) => l.includes('╭'));
  const bottom = lines.findIndex((l) => l.includes('╰'));
  return lines.slice(top + 1, bottom).map((l) => l.replace(/^\s*│ ?/, '').replace(/\s*│\s*$/, ''));
};

const BUILT_INS = [
  { id: 'new', title: 'New Session', description: 'Start a new session' },
  { id: 'compact', title: 'Compact Session', description: 'Summarise this session' },
];
const WITH_CUSTOM = [
  ...BUILT_INS,
  { id: 'project:review', name: 'project:review', title: 'project:review', description: 'from review.md' },
];

describe('commands dialog while its custom commands load', () => {
  it('shows the built-ins and that more are loading; a filter and enter typed meanwhile run the custom command', async () => {
    const onRun = vi.fn();
    const dialog = (commands: typeof WITH_CUSTOM, loading: boolean) => (
      <CommandsDialog commands={commands} loading={loading} onRun={onRun} onClose={noop} width={80} height={24} />
    );
    const d = await show(dialog(BUILT_INS, true));
    expect(rows(d.frame()).map((row) => row.replace(/ {2,}/g, '  '))).toEqual([
      'Commands',
      '> type to filter',
      '  New Session  /new',
      '  Compact Session  /compact',
      'Loading custom commands…',
      'Start a new session',
    ]);
    d.stdin.write('rev');
    await settle();
    d.stdin.write(KEYS.enter);
    await settle();
    expect(onRun).not.toHaveBeenCalled();
    d.rerender(<InputProvider>{dialog(WITH_CUSTOM, false)}</InputProvider>);
    await until(() => expect(onRun.mock.calls).toEqual([['project:review']]));
  });
});

describe('models dialog before its list has loaded', () => {
  const providers: ModelProvider[] = [
    { id: 'a', name: 'A', models: ['a0', 'a1'].map((id) => ({ id, name: `Model ${id}` })) },
    { id: 'b', name: 'B', models: ['b0', 'b1', 'b2'].map((id) => ({ id, name: `Model ${id}` })) },
  ];

  it("says it is loading; → ↓ g typed meanwhile save the next provider's second model, from the current provider on", async () => {
    const onSelect = vi.fn();
    const dialog = (list: ModelProvider[] | undefined) => (
      <ModelsDialog providers={list} currentModelId="b2" onSelect={onSelect} onClose={noop} width={80} height={24} />
    );
    const d = await show(dialog(undefined));
    expect(rows(d.frame())).toEqual(['Select Model', '', 'Loading models…', 'enter: this project · g: global']);
    d.stdin.write(KEYS.right);
    await settle();
    d.stdin.write(KEYS.down);
    await settle();
    d.stdin.write('g');
    await settle();
    expect(onSelect).not.toHaveBeenCalled();
    // opened on the current model's provider (B): → wraps to A, ↓ from its first row
    d.rerender(<InputProvider>{dialog(providers)}</InputProvider>);
    await until(() => expect(onSelect.mock.calls).toEqual([['a1', { global: true }]]));
  });

  it('esc closes it at once while it loads', async () => {
    const onClose = vi.fn();
    const d = await show(
      <ModelsDialog providers={undefined} onSelect={noop} onClose={onClose} width={80} height={24} />,
    );
    d.stdin.write(KEYS.down);
    await settle();
    d.stdin.write(KEYS.esc);
    await until(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('an empty list once loaded says so', async () => {
    const d = await show(<ModelsDialog providers={[]} onSelect={noop} onClose={noop} width={80} height={24} />);
    expect(rows(d.frame())).toEqual([
      'Select Model',
      'No providers',
      '',
      'No models',
      'enter: this project · g: global',
    ]);
  });
});
