import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { popupRows } from '../support/popup-rows.js';

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const FILES = [
  'src/',
  'src/tui/',
  'README.md',
  'package.json',
  'src/index.ts',
  'src/tui/Editor.tsx',
  'src/tui/theme.ts',
  'test/editor.test.ts',
];

function setup() {
  const onSubmit = vi.fn();
  const listFiles = vi.fn(async () => FILES);
  const app = render(
    <InputProvider>
      <Editor onSubmit={onSubmit} cwd="/" history={[]} width={50} focus listFiles={listFiles} />
    </InputProvider>,
  );
  return { ...app, onSubmit, listFiles };
}

async function type(stdin: { write(s: string): void }, keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick(10);
  }
  await tick();
}

/** The selected row (marked `▸`). */
function selectedRow(frame: string): string | undefined {
  return popupRows(frame)
    .find((r) => r.startsWith('▸ '))
    ?.slice(2);
}

describe('@ file completion', () => {
  it('opens on @ after a space, filters fuzzily, and tab replaces @query with the path', async () => {
    const { stdin, lastFrame, onSubmit, listFiles } = setup();
    await tick();
    await type(stdin, ['l', 'o', 'o', 'k', ' ', '@']);
    expect(listFiles).toHaveBeenCalledTimes(1);
    // shown as given when nothing is typed, the first selected
    expect(popupRows(lastFrame()!)).toEqual(FILES.map((f, i) => (i === 0 ? '▸ ' : '  ') + f));
    await type(stdin, ['e', 'd', 't']);
    expect(popupRows(lastFrame()!)).toEqual(['▸ src/tui/Editor.tsx', '  test/editor.test.ts']);
    await type(stdin, ['\u001b[B']);
    expect(selectedRow(lastFrame()!)).toBe('test/editor.test.ts');
    await type(stdin, ['\u001b[B']); // wraps back to the first
    expect(selectedRow(lastFrame()!)).toBe('src/tui/Editor.tsx');
    await type(stdin, ['\t']);
    expect(popupRows(lastFrame()!)).toEqual([]);
    expect(lastFrame()!.split('\n').slice(-1)[0]).toBe('> look src/tui/Editor.tsx');
    await type(stdin, ['\r']);
    expect(onSubmit.mock.calls[0]![0]).toBe('look src/tui/Editor.tsx');
  });

  it('enter picks the selected row; down moves the selection', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await tick();
    await type(stdin, ['@', 's', 'r', 'c']);
    expect(popupRows(lastFrame()!)).toEqual([
      '▸ src/',
      '  src/tui/',
      '  src/index.ts',
      '  src/tui/theme.ts',
      '  src/tui/Editor.tsx',
    ]);
    await type(stdin, ['\u001b[B', '\r']);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()!.split('\n').slice(-1)[0]).toBe('> src/tui/');
  });

  it('does not open inside a word; esc closes without changing the text; space closes and types', async () => {
    const { stdin, lastFrame } = setup();
    await tick();
    await type(stdin, ['a', '@']);
    expect(popupRows(lastFrame()!)).toEqual([]);
    await type(stdin, [' ', '@', 'R']);
    expect(popupRows(lastFrame()!)).toEqual(['▸ README.md']); // fzf's smart case: an upper-case letter matches only itself
    stdin.write('\u001b');
    await tick(80);
    expect(popupRows(lastFrame()!)).toEqual([]);
    expect(lastFrame()!.split('\n').slice(-1)[0]).toBe('> a@ @R');
    await type(stdin, [' ', '@', 'p']);
    expect(popupRows(lastFrame()!)).toEqual(['▸ package.json']);
    await type(stdin, [' ']);
    expect(popupRows(lastFrame()!)).toEqual([]);
    expect(lastFrame()!.split('\n').slice(-1)[0]).toBe('> a@ @R @p');
  });
});
