import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { FilePickerDialog, listPickerEntries } from '../../src/tui/dialogs/FilePickerDialog.js';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

function tree(): string {
  const dir = tempDir('project');
  writeTree(dir, {
    'zeta.png': 'x',
    'Alpha.JPG': 'x',
    'notes.txt': 'x',
    '.hidden.png': 'x',
    'pics/inner/deep.webp': 'x',
    'pics/cat.jpeg': 'x',
    'pics/b.png': 'x',
    'docs/readme.md': 'x',
  });
  return dir;
}

/** The listing rows of the frame (between the path line and the hint), without the border. */
function rows(frame: string): string[] {
  return frame
    .split('\n')
    .slice(3, -2)
    .map((l) => l.replace(/^│ /, '').replace(/\s*│$/, ''));
}

async function type(stdin: { write(s: string): void; lastFrame?: () => string | undefined }, keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick(10);
    // a run of letters typed into the dialog arrives one per turn of the event loop: wait for all
    if (stdin.lastFrame && k.length > 1 && /^[ -~]+$/.test(k)) {
      for (let waited = 0; waited < 5_000 && !stdin.lastFrame()?.includes(k); waited += 10) await tick(10);
    }
  }
  await tick();
}

function setup(cwd: string) {
  const onPick = vi.fn();
  const onClose = vi.fn();
  const app = render(
    <InputProvider>
      <FilePickerDialog cwd={cwd} onPick={onPick} onClose={onClose} width={50} />
    </InputProvider>,
  );
  return { ...app, onPick, onClose };
}

describe('file picker', () => {
  it('lists folders first, then images, hidden entries and other files left out', () => {
    expect(listPickerEntries(tree())).toEqual([
      { name: 'docs', isDir: true },
      { name: 'pics', isDir: true },
      { name: 'Alpha.JPG', isDir: false },
      { name: 'zeta.png', isDir: false },
    ]);
  });

  it('moves with j/k, goes into a folder with l, picks with enter, goes up with h', async () => {
    const dir = tree();
    const { stdin, lastFrame, onPick } = setup(dir);
    await tick();
    expect(rows(lastFrame()!)).toEqual(['> docs/', '  pics/', '  Alpha.JPG', '  zeta.png']);
    await type(stdin, ['j', 'l']);
    expect(lastFrame()!.split('\n')[2]).toContain(`${join(dir, 'pics').slice(-20)}`);
    expect(rows(lastFrame()!)).toEqual(['> inner/', '  b.png', '  cat.jpeg']);
    await type(stdin, ['j', 'j', 'k', '\r']);
    expect(onPick.mock.calls).toEqual([[join(dir, 'pics', 'b.png')]]);
    await type(stdin, ['h']);
    expect(rows(lastFrame()!)).toEqual(['  docs/', '> pics/', '  Alpha.JPG', '  zeta.png']);
  });

  it('i types a path: a folder is entered, a file picked, a missing one reported; esc closes', async () => {
    const dir = tree();
    const { stdin, lastFrame, onPick, onClose } = setup(dir);
    await tick();
    await type({ write: (k) => stdin.write(k), lastFrame }, ['i', 'pics/inner', '\r']);
    expect(rows(lastFrame()!)).toEqual(['> deep.webp']);
    await type({ write: (k) => stdin.write(k), lastFrame }, ['i', 'nope.png', '\r']);
    expect(lastFrame()).toContain('no such file: nope.png');
    await type({ write: (k) => stdin.write(k), lastFrame }, [
      '\u007f',
      '\u007f',
      '\u007f',
      '\u007f',
      '\u007f',
      '\u007f',
      '\u007f',
      '\u007f',
      '../../zeta.png',
      '\r',
    ]);
    expect(onPick.mock.calls).toEqual([[join(dir, 'zeta.png')]]);
    expect(onClose).not.toHaveBeenCalled();
    stdin.write('\u001b');
    await tick(80);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('takes every key and paste while open: the editor under it gets none', async () => {
    const dir = tree();
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(
      <InputProvider>
        <FilePickerDialog cwd={dir} onPick={() => {}} onClose={() => {}} width={50} />
        <Editor onSubmit={onSubmit} cwd={dir} history={[]} width={50} focus listFiles={async () => []} />
      </InputProvider>,
    );
    await tick();
    await type(stdin, ['x', 'y', '\r', '\u001b[200~pasted\u001b[201~']);
    expect(onSubmit).not.toHaveBeenCalled();
    const frame = lastFrame()!;
    expect(frame.split('\n').slice(-1)[0]).toBe('>');
    expect(frame).toContain('path: pasted');
  });
});

describe('file picker: keys in one read', () => {
  it.each([
    ['j l j enter: into pics/, down to b.png, picked', ['j', 'l', 'j', '\r'], ['pics', 'b.png']],
    ['j → ↓ ↓ →: the arrows do the same', ['j', '\u001b[C', '\u001b[B', '\u001b[B', '\u001b[C'], ['pics', 'cat.jpeg']],
    [
      'j l l ↓ enter: two folders down, the only image',
      ['j', 'l', 'l', '\u001b[B', '\r'],
      ['pics', 'inner', 'deep.webp'],
    ],
    [
      'j l h ↓ enter: in and out again, the row under pics/ is Alpha.JPG',
      ['j', 'l', 'h', '\u001b[B', '\r'],
      ['Alpha.JPG'],
    ],
    ['i pics/b.png enter: typed as a path, not moves', ['i', 'pics/b.png', '\r'], ['pics', 'b.png']],
  ])('%s', async (_name, keys, picked) => {
    const dir = tree();
    const { stdin, onPick } = setup(dir);
    await tick();
    stdin.write(keys.join(''));
    await vi.waitFor(() => expect(onPick.mock.calls).toEqual([[join(dir, ...picked)]]), {
      timeout: 5_000,
      interval: 20,
    });
  });

  it('l and ↓ in one write: the new folder listed, its second row selected', async () => {
    const dir = tree();
    const { stdin, lastFrame } = setup(dir);
    await tick();
    stdin.write('j\u001b[C\u001b[B');
    await vi.waitFor(() => expect(rows(lastFrame()!)).toEqual(['  inner/', '> b.png', '  cat.jpeg']), {
      timeout: 5_000,
      interval: 20,
    });
  });
});
