import { render } from 'ink-testing-library';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { Editor, type EditorHandle } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import type { ExternalEditorRunner, ExternalEditResult } from '../../src/tui/input/external-editor.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const noFiles = async () => [];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const BORDER = '─'.repeat(50);

function setup(extra: { runExternalEditor?: ExternalEditorRunner; disabled?: boolean } = {}) {
  const onSubmit = vi.fn();
  const onMessage = vi.fn();
  const ref = createRef<EditorHandle>();
  const app = render(
    <InputProvider>
      <Editor
        ref={ref}
        onSubmit={onSubmit}
        onMessage={onMessage}
        cwd="/"
        history={[]}
        width={50}
        focus
        listFiles={noFiles}
        {...extra}
      />
    </InputProvider>,
  );
  return { ...app, onSubmit, onMessage, ref };
}

async function type(stdin: { write(s: string): void }, keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick(10);
  }
  await tick();
}

describe('editor attachments', () => {
  it('shows chips, refuses a 6th, removes one with ctrl+r digit and all with ctrl+r r, sends them', async () => {
    const dir = tempDir();
    const names = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png', 'f.png'];
    writeTree(dir, Object.fromEntries([...names.map((n) => [n, PNG]), ['notes.txt', 'x']]));
    const { ref, lastFrame, onMessage, stdin, onSubmit } = setup();
    await tick();
    expect(await ref.current!.attachFile(join(dir, 'notes.txt'))).toBe(false);
    expect(onMessage.mock.calls).toEqual([['not an image: notes.txt; attach .jpg, .jpeg, .png or .webp', 'error']]);
    for (const n of names.slice(0, 5)) expect(await ref.current!.attachFile(join(dir, n))).toBe(true);
    expect(await ref.current!.attachFile(join(dir, 'f.png'))).toBe(false);
    expect(onMessage.mock.calls[1]).toEqual(['too many attachments: the limit is 5', 'warn']);
    await tick();
    expect(lastFrame()).toBe(`[1] a.png  [2] b.png  [3] c.png  [4] d.png\n[5] e.png\n${BORDER}\n>`);
    await type(stdin, ['\u0012', '2']);
    expect(lastFrame()).toBe(`[1] a.png  [2] c.png  [3] d.png  [4] e.png\n${BORDER}\n>`);
    await type(stdin, ['h', 'i', '\r']);
    expect(onSubmit.mock.calls[0]![0]).toBe('hi');
    expect(onSubmit.mock.calls[0]![1].map((p: { name: string }) => p.name)).toEqual([
      'a.png',
      'c.png',
      'd.png',
      'e.png',
    ]);
    expect(onSubmit.mock.calls[0]![1][0]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PNG.toString('base64'),
      name: 'a.png',
    });
    expect(lastFrame()).toBe(`${BORDER}\n>`);
    await ref.current!.attachFile(join(dir, 'a.png'));
    await ref.current!.attachFile(join(dir, 'b.png'));
    await type(stdin, ['\u0012', 'r']);
    expect(lastFrame()).toBe(`${BORDER}\n>`);
  });
});

describe('editor ctrl+e', () => {
  it('puts what the editor saved into the input box and sends nothing; enter then sends it', async () => {
    const run = vi.fn(async (t: string): Promise<ExternalEditResult> => ({ outcome: 'saved', text: `${t} and more` }));
    const { stdin, onSubmit, onMessage, lastFrame } = setup({ runExternalEditor: run });
    await tick();
    await type(stdin, ['d', 'r', 'a', 'f', 't', '\u0005']);
    expect(run.mock.calls).toEqual([['draft']]);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).toBe(`${BORDER}\n> draft and more`);
    expect(onMessage.mock.calls).toEqual([['the edited message is in the input box: enter sends it', 'info']]);
    await type(stdin, ['\r']);
    expect(onSubmit.mock.calls).toEqual([['draft and more', []]]);
  });

  it('keeps the draft and sends nothing when the editor quits without saving, fails, or cannot start', async () => {
    const results: Array<ExternalEditResult | Error> = [
      { outcome: 'unchanged' },
      { outcome: 'failed', exitCode: 1, signal: null },
      new Error('editor not found or not executable: nvim; set $VISUAL or $EDITOR'),
    ];
    const run = async () => {
      const next = results.shift()!;
      if (next instanceof Error) throw next;
      return next;
    };
    const { stdin, onSubmit, onMessage, lastFrame } = setup({ runExternalEditor: run });
    await tick();
    await type(stdin, ['x', '\u0005', '\u0005', '\u0005']);
    expect(onMessage.mock.calls).toEqual([
      ['the editor closed without saving: the draft is unchanged, nothing was sent', 'info'],
      ['the editor exited with code 1: the draft is unchanged, nothing was sent', 'warn'],
      ['editor not found or not executable: nvim; set $VISUAL or $EDITOR; the draft is unchanged', 'error'],
    ]);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).toBe(`${BORDER}\n> x`);
  });

  it('an empty save empties the box, with a warning; nothing is sent', async () => {
    const { stdin, onSubmit, onMessage, lastFrame } = setup({
      runExternalEditor: async () => ({ outcome: 'saved', text: '' }),
    });
    await tick();
    await type(stdin, ['x', '\u0005']);
    expect(onMessage.mock.calls).toEqual([['the editor saved an empty message', 'warn']]);
    expect(lastFrame()).toBe(`${BORDER}\n>`);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
