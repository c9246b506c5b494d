/**
 * The `/` list after its filter changed: the row it marks is the command enter runs. A move made
 * before the filter changed must not leave the list's drawn selection behind the one keys act on.
 */
import { render } from 'ink-testing-library';
import { expect, it, vi } from 'vitest';
import type { CommandItem } from '../../src/tui/commands.js';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { popupRows } from '../support/popup-rows.js';

const tick = (ms = 40) => new Promise((r) => setTimeout(r, ms));
const COMMANDS: CommandItem[] = [
  { id: 'new', name: 'new', title: 'New Session', description: 'Start a new session' },
  { id: 'models', name: 'models', title: 'Select Model', description: 'Choose the model' },
  { id: 'sessions', name: 'sessions', title: 'Switch Session', description: 'Open another session' },
];
const DOWN = '\u001b[B';

it('↓, then a letter that filters, then ↓: the marked row is the second match, and enter runs it', async () => {
  const onCommand = vi.fn();
  const app = render(
    <InputProvider>
      <Editor
        onSubmit={vi.fn()}
        cwd="/"
        history={[]}
        width={60}
        focus
        listFiles={async () => []}
        listCommands={async () => COMMANDS}
        onCommand={onCommand}
      />
    </InputProvider>,
  );
  const rows = () => popupRows(app.lastFrame() ?? '').map((r) => r.replace(/\s+/g, ' ').trim());
  app.stdin.write('/');
  for (let i = 0; i < 100 && rows().length < 3; i++) await tick(20);
  app.stdin.write(DOWN);
  await tick();
  expect(rows()).toEqual(['/new Start a new session', '▸ /models Choose the model', '/sessions Open another session']);
  app.stdin.write('s'); // models and sessions match; the list starts over at its first row
  await tick();
  const filtered = rows();
  expect(filtered.map((r) => r.startsWith('▸'))).toEqual([true, false]);
  app.stdin.write(DOWN);
  await tick();
  expect(rows()).toEqual([filtered[0]!.replace(/^▸ /, ''), `▸ ${filtered[1]}`]);
  const marked = filtered[1]!.split(' ')[0]!.slice(1);
  app.stdin.write('\r');
  await tick();
  expect(onCommand.mock.calls).toEqual([[marked]]);
  app.unmount();
});
