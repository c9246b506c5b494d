/**
 * End to end in a real terminal (tmux, 120×40): a theme file the person wrote. The TUI draws with its
 * colours (`capture-pane -e` shows them as the terminal received them); a file edited while the TUI
 * runs shows its new colours when chosen again in the theme dialog, which says where each theme comes
 * from; a broken theme file is one line on the status bar and the TUI runs with the default theme.
 *
 * Run alone: `npx vitest run test/e2e/tui-custom-theme.test.ts` (needs tmux and a built dist/).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { CODER_MODEL_NAME, OPENCODE, startTerminal, tuiEnv, tuiProject, type Terminal } from '../support/tmux.js';

const exec = promisify(execFile);

let fake: FakeProvider;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  fake = await startFakeProvider([]);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await fake?.close();
});

/** A project whose config names `theme`, with `themes` as its `.opencode/themes/NAME.json` files. */
function project(theme: string, themes: Record<string, string>): string {
  const dir = tuiProject({ '.opencode.json': JSON.stringify({ tui: { theme } }) });
  mkdirSync(join(dir, '.opencode', 'themes'), { recursive: true });
  for (const [name, text] of Object.entries(themes))
    writeFileSync(join(dir, '.opencode', 'themes', `${name}.json`), text);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The TUI in `dir` on a truecolor terminal (COLORTERM=truecolor: chalk writes 24-bit colours), once
 * the screen shows `readyText`.
 */
async function tui(dir: string, readyText: string | RegExp = CODER_MODEL_NAME): Promise<Terminal> {
  const env = tuiEnv(fake.anthropicBaseURL, { COLORTERM: 'truecolor' });
  const terminal = await startTerminal({ command: OPENCODE, cwd: dir, env });
  cleanups.push(async () => {
    await terminal.kill();
    rmSync(env.HOME!, { recursive: true, force: true });
  });
  await terminal.waitFor(readyText, 20_000);
  return terminal;
}

/** The screen with its colours, as SGR sequences (`capture-pane -e`). */
async function colouredScreen(terminal: Terminal): Promise<string> {
  const { stdout } = await exec('tmux', ['-S', terminal.socket, 'capture-pane', '-p', '-e']);
  return stdout;
}

/** Waits until the coloured screen contains `sgr`. */
async function waitForColour(terminal: Terminal, sgr: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = await colouredScreen(terminal);
    if (screen.includes(sgr)) return screen;
    if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(sgr)} on the screen:\n${JSON.stringify(screen)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The background each row of a `capture-pane -e` screen shows: the one in effect at the row's first
 * character, or at its start for an empty row ('' for the terminal's own).
 */
function rowBackgrounds(screen: string): string[] {
  let bg = '';
  return screen
    .replace(/\n$/, '')
    .split('\n')
    .map((row) => {
      let first: string | undefined;
      for (const part of row.split(/(\u001b\[[0-9;]*m)/)) {
        const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
        if (!sgr) {
          if (part !== '' && first === undefined) first = bg;
          continue;
        }
        const codes = sgr[1]!.split(';');
        for (let i = 0; i < codes.length; i++) {
          const code = codes[i]!;
          if (code === '0' || code === '' || code === '49') bg = '';
          else if (code === '48') {
            bg = codes.slice(i, i + 5).join(';');
            i += 4;
          } else if (code === '38') i += 4;
        }
      }
      return first ?? bg;
    });
}

const MAGENTA = '38;2;255;0;255';
const GREEN = '38;2;0;255;0';

describe('a theme file in the TUI', () => {
  it('draws with its colours, and with its new colours when chosen again after an edit', async () => {
    const dir = project('neon', { neon: '{ "extends": "tokyonight", "theme": { "primary": "#ff00ff" } }' });
    const terminal = await tui(dir);
    // the logo and the prompt marker are the primary colour
    const before = await waitForColour(terminal, MAGENTA);
    expect(before).not.toContain(GREEN);
    // tokyonight's muted text shows through what the file left out
    expect(before).toContain('38;2;99;109;166');

    writeFileSync(
      join(dir, '.opencode', 'themes', 'neon.json'),
      '{ "extends": "tokyonight", "theme": { "primary": 46 } }',
    );
    await terminal.press('C-t');
    const dialog = await terminal.waitFor('Select Theme');
    expect(dialog).toMatch(/│ ✓ neon +project │/);
    expect(dialog).toMatch(/│ {3}dracula +built-in │/);
    await terminal.press('Enter');
    await terminal.waitForGone('Select Theme');
    // ANSI 46 is xterm's #00ff00
    const after = await waitForColour(terminal, GREEN);
    expect(after).not.toContain(MAGENTA);

    // broken while the TUI runs: chosen again, it says why and the default theme draws
    writeFileSync(
      join(dir, '.opencode', 'themes', 'neon.json'),
      '{ "extends": "tokyonight", "theme": { "primary": "accent", "accent": "primary" } }',
    );
    await terminal.press('C-t');
    await terminal.waitFor('Select Theme');
    await terminal.press('Enter');
    await terminal.waitFor(
      /neon\.json:\s+theme\.primary:\s+the\s+references\s+go\s+round\s+in\s+a\s+circle\s+\(theme\.primary\s+→\s+theme\.accent\s+→\s+theme\.primary\);\s+using\s+the\s+opencode\s+theme/,
    );
    const fallback = await waitForColour(terminal, '38;2;250;178;131');
    expect(fallback).not.toContain(GREEN);
  });

  it("paints its background behind the screen; the built-ins leave the terminal's own", async () => {
    const dir = project('night', { night: '{ "extends": "opencode", "theme": { "background": "#102030" } }' });
    const terminal = await tui(dir);
    const screen = await waitForColour(terminal, '48;2;16;32;48');
    // tmux writes an attribute once and lets it run on across rows, so each row's background is
    // followed through the SGR sequences: every row is painted but the editor's top border (borders
    // are drawn on the terminal's own background) and the status bar, whose badges have their own
    const rows = rowBackgrounds(screen);
    expect(rows.length).toBe(40);
    expect(rows.filter((bg) => bg === '48;2;16;32;48').length).toBeGreaterThanOrEqual(37);
    expect(rows.slice(0, 30).every((bg) => bg === '48;2;16;32;48')).toBe(true);
    // the primary colour still draws on it
    expect(screen).toContain('38;2;250;178;131');

    // a built-in paints none: the same rows show the terminal's own background
    const plain = await tui(project('opencode', {}));
    expect(rowBackgrounds(await colouredScreen(plain)).slice(0, 30)).toEqual(Array.from({ length: 30 }, () => ''));
  });

  it('a broken theme file: one line on the status bar naming the file, key and value; the default theme', async () => {
    const dir = project('broken', { broken: '{ "theme": { "primary": "#ff00f" } }' });
    const file = join(dir, '.opencode', 'themes', 'broken.json');
    // the status bar's message lasts ten seconds: looked for from the start
    const line = `${file}: theme.primary: "#ff00f" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key; using the opencode theme`;
    // the status bar wraps a long message at spaces onto rows above it
    const wrapped = new RegExp(line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
    const terminal = await tui(dir, wrapped);
    const screen = await terminal.screen();
    expect(screen).toContain(CODER_MODEL_NAME);
    // the opencode theme's primary (#fab283) draws the logo
    await waitForColour(terminal, '38;2;250;178;131');
  });
});
