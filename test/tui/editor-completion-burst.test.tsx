/**
 * Completion lists opened by text that arrives in one read (`@src` typed ahead, by a
 * fast typist or pasted opened nothing), and the editor's `/` command list.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { CommandItem } from '../../src/tui/commands.js';
import { Editor } from '../../src/tui/components/Editor.js';
import { completionOpenedBy } from '../../src/tui/input/completion-trigger.js';
import { editorWith } from '../../src/tui/input/editor-state.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { popupRows } from '../support/popup-rows.js';

const tick = (ms = 40) => new Promise((r) => setTimeout(r, ms));
const FILES = ['src/', 'src/index.ts', 'src/tui/Editor.tsx', 'README.md'];
const COMMANDS: CommandItem[] = [
  { id: 'new', name: 'new', title: 'New Session', description: 'Start a new session' },
  { id: 'models', name: 'models', title: 'Select Model', description: 'Choose the model' },
  { id: 'compact', name: 'compact', title: 'Compact Session', description: 'Summarise this session' },
  {
    id: 'project:review',
    name: 'project:review',
    title: 'project:review',
    description: 'from .opencode/commands/review.md',
  },
];

function setup() {
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
        listFiles={async () => FILES}
        listCommands={async () => COMMANDS}
        onCommand={onCommand}
      />
    </InputProvider>,
  );
  const write = async (...reads: string[]) => {
    for (const read of reads) {
      app.stdin.write(read);
      await tick();
    }
  };
  const frame = () => app.lastFrame() ?? '';
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await tick(20);
    if (!check()) throw new Error(`timed out; last frame:\n${frame()}`);
  };
  return { ...app, onSubmit, onCommand, write, frame, waitFor };
}

describe('completionOpenedBy', () => {
  const rows: Array<
    [before: string, inserted: string, commands: boolean, opens: ReturnType<typeof completionOpenedBy>]
  > = [
    ['', '@', true, { kind: 'file', at: 0 }],
    ['look at ', '@src', true, { kind: 'file', at: 8 }],
    ['', 'look at @src', true, { kind: 'file', at: 8 }],
    ['me', '@host', true, undefined],
    ['', 'mail me@host', true, undefined],
    ['', '/mo', true, { kind: 'command', at: 0 }],
    ['', '/', true, { kind: 'command', at: 0 }],
    ['', '/mo', false, undefined],
    ['say ', '/mo', true, undefined],
    ['', '/etc/hosts is', true, undefined],
    ['', '@a\nb', true, undefined],
  ];
  it.each(rows)('%j + %j (commands: %s) opens %j', (before, inserted, commands, opens) => {
    const start = editorWith(before);
    const after = editorWith(before + inserted);
    expect(completionOpenedBy(start, after, commands)).toEqual(opens);
  });

  it('an @ typed earlier whose list was closed stays closed as more letters come', () => {
    expect(completionOpenedBy(editorWith('@sr'), editorWith('@src'), true)).toBeUndefined();
  });
});

describe('completion from one read', () => {
  it('`@src` in one read opens the file completion filtered by `src`, as typing it does', async () => {
    const { write, frame } = setup();
    await tick();
    await write('look at @src');
    await tick(100);
    expect(popupRows(frame())).toEqual(['▸ src/', '  src/index.ts', '  src/tui/Editor.tsx']);
    await write('\t');
    expect(frame()).toContain('> look at src/');
    expect(popupRows(frame())).toEqual([]);
  });

  it('a bracketed paste of `@READ` opens it too', async () => {
    const { write, frame } = setup();
    await tick();
    await write('\u001b[200~@READ\u001b[201~');
    await tick(100);
    expect(popupRows(frame())).toEqual(['▸ README.md']);
  });
});

describe('the / command list', () => {
  it('/ at the start lists the commands; typing filters; enter runs the selected one and empties the input', async () => {
    const { write, frame, onCommand, onSubmit } = setup();
    await tick();
    await write('/');
    await tick(100);
    expect(popupRows(frame()).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '▸ /new Start a new session',
      '/models Choose the model',
      '/compact Summarise this session',
      '/project:review from .opencode/commands/review.md',
    ]);
    await write('m', 'o');
    expect(popupRows(frame()).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual(['▸ /models Choose the model']);
    await write('\r');
    expect(onCommand.mock.calls).toEqual([['models']]);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame()).toBe(`${'─'.repeat(60)}\n>`);
  });

  it('a /command in one read opens the list too; ↓ and tab put the name in the input', async () => {
    const { write, frame, onCommand } = setup();
    await tick();
    await write('/rev');
    await tick(100);
    expect(popupRows(frame()).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '▸ /project:review from .opencode/commands/review.md',
    ]);
    await write('\u007f', '\u007f', '\u007f', 'c', 'o', 'm');
    await write('\t');
    expect(frame()).toContain('> /compact');
    await write('\r');
    expect(onCommand.mock.calls).toEqual([['compact']]);
  });

  it('space closes the list and the text is a prompt: `/etc/hosts is empty` is sent', async () => {
    const { write, frame, onCommand, onSubmit, waitFor } = setup();
    await tick();
    await write('/etc/hosts');
    await tick(100);
    expect(popupRows(frame())).toEqual(['No matching commands (enter sends the text)']);
    await write(' is empty');
    // with the list open the letters of one read are separate presses, one per turn: wait for the last
    await waitFor(() => frame().endsWith('> /etc/hosts is empty'));
    expect(popupRows(frame())).toEqual([]);
    await write('\r');
    expect(onSubmit.mock.calls).toEqual([['/etc/hosts is empty', []]]);
    expect(onCommand).not.toHaveBeenCalled();
  });

  it('esc closes the list and keeps the text; / later in the text opens nothing', async () => {
    const { write, frame } = setup();
    await tick();
    await write('/mo');
    await tick(100);
    expect(popupRows(frame())).toHaveLength(1);
    await write('\u001b');
    expect(popupRows(frame())).toEqual([]);
    expect(frame()).toContain('> /mo');
    await write('\u007f', '\u007f', '\u007f', 'a', ' ', '/');
    await tick(100);
    expect(popupRows(frame())).toEqual([]);
  });
});
