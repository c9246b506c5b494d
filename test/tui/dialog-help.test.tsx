import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fitText } from '../../src/tui/components/DialogFrame.js';
import { HelpDialog, helpRows } from '../../src/tui/dialogs/HelpDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { BINDINGS, BINDING_SCOPES, formatKeys } from '../../src/tui/keybindings.js';
import { buildKeymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';

const TITLES = BINDING_SCOPES.filter((s) => BINDINGS.some((b) => b.scope === s.scope)).map((s) => s.title);
const LAST = BINDINGS[BINDINGS.length - 1]!.description;

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
    // the keys column is as wide as the longest keys (at most 28), the descriptions whole on 100 columns
    const keysColumns = Math.min(28, Math.max(...BINDINGS.map((b) => formatKeys(b.keys).length)) + 1);
    for (const b of BINDINGS) {
      const row = `│ ${fitText(formatKeys(b.keys), keysColumns - 1, true)} ${b.description}`;
      expect(
        lines.some((l) => l.startsWith(row)),
        row,
      ).toBe(true);
    }
    const headings = TITLES.map((h) => lines.findIndex((l) => l.startsWith(`│ ${h} `)));
    expect(headings.every((i) => i > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(d.frame()).toContain('Keyboard Shortcuts');
    expect(d.frame()).not.toContain('↓ more');
  });

  it('has one row per binding plus the headings and the gaps between groups', () => {
    const rows = helpRows(BINDINGS);
    expect(rows.filter((r) => r.kind === 'binding')).toHaveLength(BINDINGS.length);
    expect(rows.filter((r) => r.kind === 'heading').map((r) => (r.kind === 'heading' ? r.text : ''))).toEqual(TITLES);
    expect(rows.filter((r) => r.kind === 'blank')).toHaveLength(TITLES.length - 1);
  });

  it('scrolls when the screen is short, and esc or ? closes', async () => {
    const d = show(20);
    await settle();
    expect(d.frame()).toContain('Quit (asks first');
    expect(d.frame()).toContain('↓ more');
    expect(d.frame()).not.toContain(LAST);
    d.stdin.write('\u001b[F'); // end
    await settle();
    expect(d.frame()).toContain(LAST);
    expect(d.frame()).toContain('↑ more');
    expect(d.frame()).not.toContain('Quit (asks first');
    expect(d.frame().split('\n')).toHaveLength(18); // two rows short of the screen
    d.stdin.write('?');
    await settle();
    expect(d.onClose).toHaveBeenCalledTimes(1);
    d.stdin.write('\u001b');
    await settle();
    await settle();
    expect(d.onClose).toHaveBeenCalledTimes(2);
  });

  it('shows the keys in effect: a rebound action its new keys, an unbound one none', async () => {
    const { keymap } = buildKeymap([
      { file: '/p/.opencode.json', bindings: { 'session.new': ['ctrl+b', 'alt+n'], 'app.logs': 'none' } },
    ]);
    const r = render(
      <KeymapContext.Provider value={keymap}>
        <InputProvider>
          <HelpDialog onClose={vi.fn()} width={100} height={200} />
        </InputProvider>
      </KeymapContext.Provider>,
    );
    unmount = r.unmount;
    await settle();
    const lines = (r.lastFrame() ?? '').split('\n');
    // the descriptions start in one column, after the keys column
    const column = lines.find((l) => l.includes('Quit (asks first'))!.indexOf('Quit (asks first');
    const newSession = lines.filter((l) => l.includes('New session'));
    expect(newSession).toHaveLength(1);
    expect(newSession[0]).toMatch(/^│ ctrl\+b, alt\+n +New session +│$/);
    expect(newSession[0]!.indexOf('New session')).toBe(column);
    const logs = lines.filter((l) => l.includes('Show the logs page'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^│ none +Show the logs page +│$/);
    expect(logs[0]!.indexOf('Show the logs page')).toBe(column);
  });
});
