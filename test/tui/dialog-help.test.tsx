import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fitText } from '../../src/tui/components/DialogFrame.js';
import { HelpDialog, helpRows } from '../../src/tui/dialogs/HelpDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { BINDINGS, formatKeys } from '../../src/tui/keybindings.js';

const settle = () => new Promise((r) => setTimeout(r, 30));

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(height: number, onClose = vi.fn()) {
  const r = render(
    <InputProvider>
      <HelpDialog onClose={onClose} width={100} height={height} />
    </InputProvider>,
  );
  unmount = r.unmount;
  return { ...r, onClose, frame: () => r.lastFrame() ?? '' };
}

describe('help dialog', () => {
  it('lists every binding of the table, keys then description, under its scope heading', async () => {
    const d = show(200);
    await settle();
    const lines = d.frame().split('\n');
    for (const b of BINDINGS) {
      const row = `│ ${fitText(formatKeys(b.keys), 27, true)} ${b.description}`;
      expect(lines.some((l) => l.startsWith(row)), row).toBe(true);
    }
    const headings = ['Global', 'Chat', 'Editor', 'Messages', 'Dialogs'].map((h) => lines.findIndex((l) => l.startsWith(`│ ${h} `)));
    expect(headings.every((i) => i > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(d.frame()).toContain('Keyboard Shortcuts');
    expect(d.frame()).not.toContain('↓ more');
  });

  it('has one row per binding plus the headings and the gaps between groups', () => {
    const rows = helpRows(BINDINGS);
    expect(rows.filter((r) => r.kind === 'binding')).toHaveLength(BINDINGS.length);
    expect(rows.filter((r) => r.kind === 'heading').map((r) => (r.kind === 'heading' ? r.text : ''))).toEqual([
      'Global',
      'Chat',
      'Editor',
      'Messages',
      'Dialogs',
    ]);
    expect(rows.filter((r) => r.kind === 'blank')).toHaveLength(4);
  });

  it('scrolls when the screen is short, and esc or ? closes', async () => {
    const d = show(20);
    await settle();
    expect(d.frame()).toContain('Quit (asks first)');
    expect(d.frame()).toContain('↓ more');
    expect(d.frame()).not.toContain('Logs page: back to the chat');
    d.stdin.write('\u001b[F'); // end
    await settle();
    expect(d.frame()).toContain('Logs page: back to the chat');
    expect(d.frame()).toContain('↑ more');
    expect(d.frame()).not.toContain('Quit (asks first)');
    expect(d.frame().split('\n')).toHaveLength(18); // two rows short of the screen
    d.stdin.write('?');
    await settle();
    expect(d.onClose).toHaveBeenCalledTimes(1);
    d.stdin.write('\u001b');
    await settle();
    await settle();
    expect(d.onClose).toHaveBeenCalledTimes(2);
  });
});
