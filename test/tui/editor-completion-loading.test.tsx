/**
 * Keys that reach the `/` and `@` lists before their candidates have loaded (the custom commands
 * are read from disk, the project's files listed by ripgrep): ↓, tab and enter wait for the list
 * and then act on it. Before, the ↓ was lost, tab closed the list, and enter went on to the editor,
 * which sent `/mo` as a prompt instead of running /models. The lists here resolve when the test
 * says (the Editor's own props; the rest is the real editor and input router).
 */
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { CommandItem } from '../../src/tui/commands.js';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { popupRows } from '../support/popup-rows.js';

const tick = (ms = 40) => new Promise((r) => setTimeout(r, ms));
const FILES = ['src/', 'src/index.ts', 'src/tui/Editor.tsx', 'README.md'];
const COMMANDS: CommandItem[] = [
  { id: 'new', name: 'new', title: 'New Session', description: 'Start a new session' },
  { id: 'models', name: 'models', title: 'Select Model', description: 'Choose the model' },
  { id: 'compact', name: 'compact', title: 'Compact Session', description: 'Summarise this session' },
];

/** A list whose promise resolves when `resolve` is called. */
function later<T>(value: T) {
  let resolve!: () => void;
  const promise = new Promise<T>((r) => (resolve = () => r(value)));
  return { list: () => promise, resolve };
}

function setup() {
  const files = later(FILES);
  const commands = later<readonly CommandItem[]>(COMMANDS);
  const onSubmit = vi.fn();
  const onCommand = vi.fn();
  const app = render(
    <InputProvider>
      <Editor
        onSubmit={onSubmit}
        cwd="/"
        history={[]}
        width={60}
        focus
        listFiles={files.list}
        listCommands={commands.list}
        onCommand={onCommand}
      />
    </InputProvider>,
  );
  /** Writes each read in turn; a pause after each, so an Enter is a key of its own (paste-burst.ts). */
  const write = async (...reads: string[]) => {
    for (const read of reads) {
      app.stdin.write(read);
      await tick();
    }
  };
  const frame = () => app.lastFrame() ?? '';
  return { ...app, files, commands, onSubmit, onCommand, write, frame };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

describe('the / list: keys before the commands have loaded', () => {
  it('/mo then enter run /models once the commands are there; nothing is sent as a prompt', async () => {
    const { write, frame, commands, onCommand, onSubmit } = setup();
    await tick();
    await write('/mo', '\r');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(popupRows(frame())).toEqual(['Loading commands…']);
    commands.resolve();
    await until(() => expect(onCommand.mock.calls).toEqual([['models']]));
    expect(onSubmit).not.toHaveBeenCalled();
    await until(() => expect(frame()).toBe(`${'─'.repeat(60)}\n>`));
  });

  it("/ ↓ ↓ tab put the third command's name in the input", async () => {
    const { write, frame, commands } = setup();
    await tick();
    await write('/', '\u001b[B', '\u001b[B', '\t');
    expect(frame()).toContain('> /');
    commands.resolve();
    await until(() => expect(frame()).toContain('> /compact'));
  });
});

describe('the @ list: keys before the files have loaded', () => {
  it('letters still reach the editor at once; ↓ and tab then wait, and take the second match', async () => {
    const { write, frame, files } = setup();
    await tick();
    await write('look at @', 's', 'r', 'c');
    expect(frame()).toContain('> look at @src');
    expect(popupRows(frame())).toEqual(['Loading files…']);
    await write('\u001b[B', '\t');
    files.resolve();
    await until(() => expect(frame()).toContain('> look at src/index.ts'));
    expect(popupRows(frame())).toEqual([]);
  });

  it('esc closes the loading list at once and keeps the text; the ↓ before it is dropped', async () => {
    const { write, frame, files, onSubmit } = setup();
    await tick();
    await write('@src', '\u001b[B', '\u001b');
    expect(popupRows(frame())).toEqual([]);
    expect(frame()).toContain('> @src');
    files.resolve();
    await tick(100);
    expect(popupRows(frame())).toEqual([]);
    expect(frame()).toContain('> @src');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
