import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArgumentsDialog } from '../../src/tui/dialogs/ArgumentsDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';

const settle = () => new Promise((r) => setTimeout(r, 30));
const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show() {
  const onSubmit = vi.fn<(values: Record<string, string>) => void>();
  const onClose = vi.fn();
  const r = render(
    <InputProvider>
      <ArgumentsDialog
        title="user:git:commit"
        names={['ISSUE', 'BRANCH']}
        onSubmit={onSubmit}
        onClose={onClose}
        width={100}
        height={30}
      />
    </InputProvider>,
  );
  unmount = r.unmount;
  const type = async (...chunks: string[]) => {
    for (const c of chunks) {
      r.stdin.write(c);
      await settle();
    }
  };
  return { ...r, onSubmit, onClose, type, frame: () => r.lastFrame() ?? '' };
}

describe('arguments dialog', () => {
  it('fills two fields from typing and a paste, and submits them by name', async () => {
    const d = show();
    await settle();
    expect(d.frame()).toContain('Command Arguments user:git:commit');
    await d.type('1', '2', '3', '4', '\u007f', 'x');
    expect(d.frame()).toMatch(/│ 123x +│/);
    await d.type('\t', paste('fix/parser\nbug'), 'j', 'k');
    expect(d.frame()).toMatch(/│ fix\/parser bugjk +│/);
    await d.type('\r');
    await vi.waitFor(() => expect(d.onSubmit.mock.calls).toEqual([[{ ISSUE: '123x', BRANCH: 'fix/parser bugjk' }]]));
  });

  it('moves back with shift+tab, wrapping round, and submits empty fields as empty strings', async () => {
    const d = show();
    await settle();
    await d.type('\u001b[Z', 'main', '\u001b[Z', 'a b');
    await d.type('\r');
    // on a loaded machine the letters of a read (one per turn) and an Enter read close after them
    // (held as a possible paste, paste-burst.ts) can take longer than one settle
    await vi.waitFor(() => expect(d.onSubmit.mock.calls).toEqual([[{ ISSUE: 'a b', BRANCH: 'main' }]]));
  });

  it('esc cancels', async () => {
    const d = show();
    await settle();
    await d.type('\u001b');
    await settle();
    expect(d.onClose).toHaveBeenCalledTimes(1);
    expect(d.onSubmit).not.toHaveBeenCalled();
  });
});
