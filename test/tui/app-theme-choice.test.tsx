/**
 * Choosing a theme in `ctrl+t` in the whole TUI (ink-testing-library) against a real app: a theme
 * whose file has a problem draws with the default theme and is not saved, so the global config keeps
 * the theme it had; a working theme is saved.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();

describe('ctrl+t', () => {
  it('a broken theme file is applied as the opencode theme and not saved; a working theme is saved', async () => {
    const t = await tui.start([]);
    const globalConfig = join(t.dir, '.home', '.opencode.json');
    writeFileSync(globalConfig, JSON.stringify({ tui: { theme: 'dracula' } }, null, 2));
    const themes = join(t.dir, '.opencode', 'themes');
    mkdirSync(themes, { recursive: true });
    const broken = join(themes, 'broken.json');
    writeFileSync(broken, '{ "theme": { "primary": "#12" } }');
    // the real service, with a record of what it was asked to save (it saves asynchronously)
    const saved: string[] = [];
    const save = t.services.setTheme.bind(t.services);
    t.services.setTheme = (name) => {
      saved.push(name);
      save(name);
    };
    const { store, waitFor, type } = tui.render();

    await type('\u0014'); // ctrl+t
    // the nine built-ins, then the project's file; the current theme (opencode) is the first row
    await waitFor((f) => f.includes('Select Theme') && f.includes('broken'));
    await type('\u001b[F'); // end: the last row, `broken`
    await type('\r');
    await waitFor((f) => !f.includes('Select Theme'));
    expect(store.getSnapshot().status).toMatchObject({
      text: `${broken}: theme.primary: "#12" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key; using the opencode theme; not saved`,
      level: 'error',
    });
    expect(saved).toEqual([]);
    expect(JSON.parse(readFileSync(globalConfig, 'utf8'))).toEqual({ tui: { theme: 'dracula' } });

    // the dialog still marks opencode, the theme in use; a working theme is saved
    await type('\u0014');
    const dialog = await waitFor((f) => f.includes('Select Theme'));
    expect(dialog).toMatch(/│ ✓ opencode +built-in +│/);
    await type('\u001b[B'); // down: catppuccin
    await type('\r');
    await waitFor(() => JSON.parse(readFileSync(globalConfig, 'utf8')).tui.theme === 'catppuccin');
    expect(saved).toEqual(['catppuccin']);
    expect(store.getSnapshot().status).toMatchObject({
      text: 'Theme: catppuccin (saved to the global config)',
      level: 'info',
    });
  });
});
