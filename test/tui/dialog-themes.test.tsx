import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThemesDialog } from '../../src/tui/dialogs/ThemesDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { THEME_NAMES, type Theme } from '../../src/tui/theme.js';
import { THEMES, themeByName } from '../../src/tui/themes.js';

const settle = () => new Promise((r) => setTimeout(r, 30));

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('themes', () => {
  it('has nine palettes, every field a #rrggbb colour', () => {
    expect(Object.keys(THEMES)).toEqual([...THEME_NAMES]);
    const fields = Object.keys(THEMES.opencode).filter((k) => k !== 'name');
    expect(fields).toHaveLength(32);
    for (const name of THEME_NAMES) {
      const theme = THEMES[name];
      expect(theme.name).toBe(name);
      expect(Object.keys(theme).sort()).toEqual(Object.keys(THEMES.opencode).sort());
      for (const field of fields) expect(theme[field as keyof Theme], `${name}.${field}`).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it('are nine different palettes', () => {
    const palettes = THEME_NAMES.map((name) => {
      const { name: _ignored, ...colours } = THEMES[name];
      return JSON.stringify(colours);
    });
    expect(new Set(palettes).size).toBe(9);
    // and each differs from every other in its main colours, not in one stray field
    const mains = THEME_NAMES.map((n) => `${THEMES[n].primary} ${THEMES[n].text} ${THEMES[n].border}`);
    expect(new Set(mains).size).toBe(9);
  });

  it('carry the published colours of their schemes', () => {
    expect(THEMES.catppuccin.primary).toBe('#89b4fa'); // Mocha blue
    expect(THEMES.dracula.primary).toBe('#bd93f9'); // Dracula purple
    expect(THEMES.gruvbox.text).toBe('#ebdbb2'); // gruvbox fg1
    expect(THEMES.onedark.syntaxKeyword).toBe('#c678dd');
    expect(THEMES.tokyonight.text).toBe('#c8d3f5');
    expect(THEMES.flexoki.primary).toBe('#4385be');
    expect(THEMES.monokai.syntaxString).toBe('#ffd866');
    expect(THEMES.tron.primary).toBe('#00d9ff');
  });

  it('falls back to opencode for unknown names, including Object.prototype keys', () => {
    expect(themeByName('dracula')).toBe(THEMES.dracula);
    expect(themeByName('nope')).toBe(THEMES.opencode);
    expect(themeByName('toString')).toBe(THEMES.opencode);
    expect(themeByName(undefined)).toBe(THEMES.opencode);
  });
});

describe('themes dialog', () => {
  it('opens on the current theme and selects with enter', async () => {
    const onSelect = vi.fn();
    const onClose = vi.fn();
    const r = render(
      <InputProvider>
        <ThemesDialog names={THEME_NAMES} current="gruvbox" onSelect={onSelect} onClose={onClose} />
      </InputProvider>,
    );
    unmount = r.unmount;
    await settle();
    expect(r.lastFrame()).toContain('Select Theme');
    expect(r.lastFrame()).toMatch(/│ ✓ gruvbox +│/);
    for (const name of THEME_NAMES) expect(r.lastFrame()).toContain(name);
    r.stdin.write('j');
    await settle();
    r.stdin.write('\r');
    await settle();
    expect(onSelect.mock.calls).toEqual([['monokai']]);
    r.stdin.write('\u001b');
    await settle();
    await settle();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('themes dialog with theme files', () => {
  it('shows where each theme comes from', async () => {
    const r = render(
      <InputProvider>
        <ThemesDialog
          names={['opencode', 'dracula', 'neon']}
          details={{ opencode: 'built-in', dracula: 'user, over built-in', neon: 'project' }}
          current="neon"
          onSelect={() => {}}
          onClose={() => {}}
          width={60}
        />
      </InputProvider>,
    );
    unmount = r.unmount;
    await settle();
    const rows = r.lastFrame()!.split('\n');
    expect(rows.find((row) => row.includes('opencode'))).toMatch(/│ {3}opencode +built-in │/);
    expect(rows.find((row) => row.includes('dracula'))).toMatch(/│ {3}dracula +user, over built-in │/);
    expect(rows.find((row) => row.includes('neon'))).toMatch(/│ ✓ neon +project │/);
  });
});
