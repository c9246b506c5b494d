import { Chalk } from 'chalk';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THEME_COLOUR_KEYS } from '../../src/tui/theme.js';
import { ansiToHex, themeFileJsonSchema } from '../../src/tui/theme-file.js';
import {
  listThemes,
  loadTheme,
  terminalBackground,
  themeSourceLabel,
  type ThemePlaces,
} from '../../src/tui/theme-loader.js';
import { THEMES } from '../../src/tui/themes.js';
import { themeFolders, type ThemeFolders } from '../support/theme-folders.js';

let folders: ThemeFolders;
let root: string;
let places: ThemePlaces;
let projectDir: string;
let userDir: string;

beforeEach(() => {
  folders = themeFolders();
  ({ root, places, projectDir, userDir } = folders);
});
afterEach(() => folders.remove());

const put = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, `${name}.json`), text);
  return join(dir, `${name}.json`);
};

describe('theme files: colours as written', () => {
  it.each([
    ['#RRGGBB, upper or lower case', '"#FF9E64"', '#ff9e64'],
    ['ANSI 0 (system black)', '0', '#000000'],
    ['ANSI 9 (bright red)', '9', '#ff0000'],
    ['ANSI 208 (cube 5,2,0)', '208', '#ff8700'],
    ['ANSI 16 (cube origin)', '16', '#000000'],
    ['ANSI 231 (cube white)', '231', '#ffffff'],
    ['ANSI 244 (grey ramp)', '244', '#808080'],
    ['a def', '"pink"', '#ff79c6'],
    ['another key of this file', '"accent"', '#123456'],
    ['a key of the theme it extends', '"error"', THEMES.tokyonight.error],
    ['a def that refers to another def', '"rose"', '#ff79c6'],
    ['dark and light variants (dark terminal)', '{ "dark": "#010101", "light": "#fefefe" }', '#010101'],
    ['only a light variant: used on either background', '{ "light": "#fefefe" }', '#fefefe'],
  ])('%s', (_what, value, expected) => {
    put(
      userDir,
      'mine',
      `{
      // JSONC: comments and trailing commas are fine
      "extends": "tokyonight",
      "defs": { "pink": "#ff79c6", "rose": "pink", },
      "theme": { "accent": "#123456", "primary": ${value} },
    }`,
    );
    const loaded = loadTheme('mine', places, 'dark');
    expect(loaded.problem).toBeUndefined();
    expect(loaded.theme.primary).toBe(expected);
    // what the file leaves out is the base's
    expect(loaded.theme.text).toBe(THEMES.tokyonight.text);
    expect(loaded.theme.name).toBe('mine');
  });

  it('a light terminal gets the light variants', () => {
    put(
      userDir,
      'mine',
      '{ "defs": { "fg": { "dark": "#eeeeee", "light": "#111111" } }, "theme": { "text": "fg", "primary": { "dark": 1, "light": 4 } } }',
    );
    expect(loadTheme('mine', places, 'light').theme).toMatchObject({ text: '#111111', primary: '#0000ee' });
    expect(loadTheme('mine', places, 'dark').theme).toMatchObject({ text: '#eeeeee', primary: '#cd0000' });
  });

  it('without "extends" starts from opencode', () => {
    put(userDir, 'mine', '{ "theme": { "primary": "#00ff00" } }');
    const { theme } = loadTheme('mine', places, 'dark');
    expect({ ...theme, cacheKey: undefined }).toEqual({
      ...THEMES.opencode,
      name: 'mine',
      primary: '#00ff00',
      cacheKey: undefined,
    });
  });

  it('every ANSI number becomes a #rrggbb', () => {
    for (let n = 0; n < 256; n++) expect(ansiToHex(n), String(n)).toMatch(/^#[0-9a-f]{6}$/);
    expect(ansiToHex(232)).toBe('#080808');
    expect(ansiToHex(255)).toBe('#eeeeee');
    expect(ansiToHex(52)).toBe('#5f0000');
  });
});

describe('theme files: where they come from', () => {
  it('the project wins over the user, the user over the built-in', () => {
    const userNeon = put(userDir, 'neon', '{ "theme": { "primary": "#111111" } }');
    const projectNeon = put(projectDir, 'neon', '{ "theme": { "primary": "#222222" } }');
    const userDracula = put(userDir, 'dracula', '{ "extends": "dracula", "theme": { "primary": "#333333" } }');
    put(userDir, 'zeta', '{}');
    expect(loadTheme('neon', places).theme.primary).toBe('#222222');
    expect(loadTheme('neon', places).source).toEqual({ kind: 'project', file: projectNeon });
    // a file that extends its own name starts from the next place down: here the built-in
    const dracula = loadTheme('dracula', places);
    expect(dracula.source).toEqual({ kind: 'user', file: userDracula });
    expect(dracula.theme).toMatchObject({ primary: '#333333', text: THEMES.dracula.text });

    const entries = listThemes(places);
    expect(entries.map((e) => e.name)).toEqual([
      'opencode',
      'catppuccin',
      'dracula',
      'flexoki',
      'gruvbox',
      'monokai',
      'onedark',
      'tokyonight',
      'tron',
      'neon',
      'zeta',
    ]);
    expect(entries.map(themeSourceLabel)).toEqual([
      'built-in',
      'built-in',
      'user, over built-in',
      'built-in',
      'built-in',
      'built-in',
      'built-in',
      'built-in',
      'built-in',
      'project, over user',
      'user',
    ]);
    expect(entries.find((e) => e.name === 'neon')!.shadows).toEqual([{ kind: 'user', file: userNeon }]);
  });

  it('$XDG_CONFIG_HOME/opencode/themes is read first, then ~/.config/opencode/themes', () => {
    const xdg = join(root, 'xdg', 'opencode', 'themes');
    mkdirSync(xdg, { recursive: true });
    put(xdg, 'neon', '{ "theme": { "primary": "#444444" } }');
    put(userDir, 'neon', '{ "theme": { "primary": "#111111" } }');
    put(userDir, 'other', '{ "extends": "neon" }');
    const withXdg = { ...places, env: { XDG_CONFIG_HOME: join(root, 'xdg') } };
    expect(loadTheme('neon', withXdg).theme.primary).toBe('#444444');
    expect(loadTheme('other', withXdg).theme.primary).toBe('#444444');
    expect(listThemes(withXdg).map((e) => e.name)).toContain('other');
  });

  it('extends another theme file, which extends a built-in', () => {
    put(userDir, 'base', '{ "extends": "gruvbox", "theme": { "accent": "#0000aa" } }');
    put(projectDir, 'mine', '{ "extends": "base", "theme": { "primary": "accent" } }');
    expect(loadTheme('mine', places).theme).toMatchObject({
      primary: '#0000aa',
      accent: '#0000aa',
      text: THEMES.gruvbox.text,
    });
  });

  it('a file is read each time it is loaded, and its cache key follows its colours', () => {
    put(userDir, 'mine', '{ "theme": { "primary": "#111111" } }');
    const first = loadTheme('mine', places);
    put(userDir, 'mine', '{ "theme": { "primary": "#222222" } }');
    const second = loadTheme('mine', places);
    expect(second.theme.primary).toBe('#222222');
    expect(second.theme.cacheKey).not.toBe(first.theme.cacheKey);
    expect(loadTheme('mine', places).theme.cacheKey).toBe(second.theme.cacheKey);
    expect(loadTheme('dracula', places).theme).toBe(THEMES.dracula);
  });

  it('file names that are not plain names are not themes (they could not be shown safely)', () => {
    put(userDir, 'evil\u001b[31m', '{}');
    put(userDir, '.hidden', '{}');
    expect(listThemes(places).map((e) => e.name)).toEqual([...Object.keys(THEMES)]);
  });
});

describe('theme files: a broken file is one line, and the default theme', () => {
  const fallback = '; using the opencode theme';
  it.each([
    [
      'an unknown key',
      '{ "theme": { "primry": "#ffffff" } }',
      'theme.primry: unknown key (`opencode themes --keys` lists the keys)',
    ],
    [
      'an unknown top-level key',
      '{ "colors": {} }',
      'colors: unknown key (a theme file has "$schema", "extends", "defs", "theme")',
    ],
    [
      'a bad hex colour',
      '{ "theme": { "primary": "#12345" } }',
      'theme.primary: "#12345" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key',
    ],
    [
      'an ANSI number out of range',
      '{ "theme": { "primary": 256 } }',
      'theme.primary: 256 is not an ANSI colour number (0–255); use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key',
    ],
    [
      'a bad variant',
      '{ "theme": { "text": { "dark": "#000000", "dim": "#111111" } } }',
      'theme.text.dim: unknown key (a colour\'s variants are "dark" and "light")',
    ],
    [
      'a reference to nothing',
      '{ "theme": { "primary": "pinkish" } }',
      'theme.primary: "pinkish" is neither a colour nor the name of a def or a theme key; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key',
    ],
    [
      'a reference cycle',
      '{ "defs": { "a": "b", "b": "a" }, "theme": { "primary": "a" } }',
      'theme.primary: the references go round in a circle (theme.primary → defs.a → defs.b → defs.a)',
    ],
    [
      'an unknown base',
      '{ "extends": "solarized" }',
      'extends: "solarized": no such theme (the built-ins: opencode, catppuccin, dracula, flexoki, gruvbox, monokai, onedark, tokyonight, tron; or a theme file of that name)',
    ],
    [
      'invalid JSON',
      '{ "theme": { "primary": #fff } }',
      'invalid JSON at line 1 column 25: unexpected character "#", expected a value',
    ],
    [
      'not an object',
      '[]',
      'a theme file is a JSON object, e.g. {"extends": "opencode", "theme": {"primary": "#ff9e64"}}',
    ],
    [
      'an escape sequence as a value',
      '{ "theme": { "primary": "\\u001b]0;pwned\\u0007" } }',
      'theme.primary: "\\u001b]0;pwned\\u0007" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key',
    ],
  ])('%s', (_what, text, problem) => {
    const file = put(projectDir, 'broken', text);
    const loaded = loadTheme('broken', places);
    expect(loaded.problem).toBe(`${file}: ${problem}${fallback}`);
    expect(loaded.theme).toBe(THEMES.opencode);
    expect(loaded.source).toEqual({ kind: 'project', file });
    // the line is one line, with no control character that could reach the terminal
    expect(loaded.problem).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('the problem names the file it is in, down an extends chain', () => {
    const base = put(userDir, 'base', '{ "theme": { "accent": "#xyzxyz" } }');
    put(projectDir, 'mine', '{ "extends": "base" }');
    expect(loadTheme('mine', places).problem).toBe(
      `${base}: theme.accent: "#xyzxyz" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key${fallback}`,
    );
  });

  it('themes that extend each other in a circle', () => {
    const a = put(userDir, 'a', '{ "extends": "b" }');
    put(userDir, 'b', '{ "extends": "a" }');
    expect(loadTheme('a', places).problem).toBe(
      `${a}: extends: the themes extend each other in a circle (a → b → a)${fallback}`,
    );
  });

  it('an unknown name, or no name', () => {
    expect(loadTheme('solarized', places).problem).toBe(
      `theme "solarized": no such theme (the built-ins: opencode, catppuccin, dracula, flexoki, gruvbox, monokai, onedark, tokyonight, tron; theme files go in ${projectDir} or ${userDir})${fallback}`,
    );
    expect(loadTheme('toString', places).theme).toBe(THEMES.opencode);
    expect(loadTheme(undefined, places)).toEqual({ theme: THEMES.opencode, source: { kind: 'built-in' } });
  });
});

describe('the background key', () => {
  it('the built-ins set none; a file sets it, in either variant, and another key may refer to it', () => {
    expect(Object.values(THEMES).map((t) => t.background)).toEqual(Object.values(THEMES).map(() => undefined));
    put(
      userDir,
      'night',
      '{ "theme": { "background": { "dark": "#102030", "light": 231 }, "selectionBackground": "background" } }',
    );
    expect(loadTheme('night', places, 'dark').theme).toMatchObject({
      background: '#102030',
      selectionBackground: '#102030',
    });
    expect(loadTheme('night', places, 'light').theme).toMatchObject({
      background: '#ffffff',
      selectionBackground: '#ffffff',
    });
    // a file extending it keeps its background
    put(projectDir, 'child', '{ "extends": "night", "theme": { "primary": 9 } }');
    expect(loadTheme('child', places, 'dark').theme).toMatchObject({ background: '#102030', primary: '#ff0000' });
  });

  it('a reference to a background the base leaves unset is one line, and the default theme', () => {
    const file = put(projectDir, 'odd', '{ "extends": "dracula", "theme": { "selectionBackground": "background" } }');
    const loaded = loadTheme('odd', places);
    expect(loaded.problem).toBe(
      `${file}: theme.selectionBackground: "background" is not set by dracula; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key; using the opencode theme`,
    );
    expect(loaded.theme).toBe(THEMES.opencode);
  });
});

describe('theme colours on terminals with fewer colours', () => {
  // the TUI draws every theme colour, built-in or from a file, with chalk's hex(), which reduces it
  // for the terminal's level (ansi-styles: each channel rounded to the 6-step cube, then to 16 colours)
  it.each([
    [3, '#ff8700', '\u001b[38;2;255;135;0mx\u001b[39m'],
    [2, '#ff8700', '\u001b[38;5;214mx\u001b[39m'],
    [1, '#ff8700', '\u001b[93mx\u001b[39m'],
    [2, '#ff0000', '\u001b[38;5;196mx\u001b[39m'],
    [1, '#ff0000', '\u001b[91mx\u001b[39m'],
    [2, '#808080', '\u001b[38;5;244mx\u001b[39m'],
    [1, '#0000ee', '\u001b[94mx\u001b[39m'],
    [1, '#000000', '\u001b[30mx\u001b[39m'],
    [0, '#ff8700', 'x'],
  ] as const)('level %i: %s', (level, hex, expected) => {
    put(userDir, 'mine', `{ "theme": { "primary": ${JSON.stringify(hex)} } }`);
    const { theme } = loadTheme('mine', places);
    expect(new Chalk({ level }).hex(theme.primary)('x')).toBe(expected);
  });
});

describe('terminal background', () => {
  it.each([
    [undefined, 'dark'],
    ['15;0', 'dark'],
    ['0;15', 'light'],
    ['0;7', 'light'],
    ['15;default;0', 'dark'],
    ['0;default;11', 'light'],
    ['0;8', 'dark'],
    ['junk', 'dark'],
  ])('COLORFGBG=%s → %s', (value, expected) => {
    expect(terminalBackground(value === undefined ? {} : { COLORFGBG: value })).toBe(expected);
  });
});

describe('theme file schema', () => {
  it('lists every colour key, and the top-level keys', () => {
    const schema = themeFileJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'extends', 'defs', 'theme']);
    expect(Object.keys(schema.properties.theme!.properties!)).toEqual(Object.keys(THEME_COLOUR_KEYS));
    // every key but `background` is set by every built-in
    for (const theme of Object.values(THEMES)) {
      expect(
        Object.keys(THEME_COLOUR_KEYS)
          .filter((k) => k !== 'background')
          .sort(),
      ).toEqual(
        Object.keys(theme)
          .filter((k) => k !== 'name')
          .sort(),
      );
    }
  });
});

describe('the theme examples of docs/themes.md', () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'themes.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## Themes\n'));
  const blocks = [...section.matchAll(/```jsonc?\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('the extends example changes what it names and keeps the rest of tokyonight', () => {
    put(userDir, 'short', blocks[0]!);
    const loaded = loadTheme('short', places);
    expect(loaded.problem).toBeUndefined();
    expect({ ...loaded.theme, cacheKey: undefined }).toEqual({
      ...THEMES.tokyonight,
      name: 'short',
      primary: '#ff9e64',
      accent: '#ff9e64',
      cacheKey: undefined,
    });
  });

  it('the complete example sets every key, on either background', () => {
    put(userDir, 'full', blocks[1]!);
    const themePart = blocks[1]!.slice(blocks[1]!.indexOf('"theme": {'));
    expect(themePart.match(/^ {4}"(\w+)":/gm)!.map((k) => k.trim().slice(1, -2))).toEqual(
      Object.keys(THEME_COLOUR_KEYS),
    );
    const dark = loadTheme('full', places, 'dark');
    const light = loadTheme('full', places, 'light');
    expect(dark.problem).toBeUndefined();
    expect(light.problem).toBeUndefined();
    expect(dark.theme).toMatchObject({
      text: '#e4e4e4',
      textMuted: '#808080',
      borderFocused: '#ff8700',
      syntaxPunctuation: '#e4e4e4',
    });
    expect(light.theme).toMatchObject({ text: '#1c1c1c', selectionBackground: '#eeeeee', border: '#bcbcbc' });
  });

  it('the README shows the same two examples, the extends one in three lines', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const shown = [...readme.matchAll(/```jsonc?\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(shown).toEqual(expect.arrayContaining([blocks[0], blocks[1]]));
    expect(blocks[0]!.trimEnd().split('\n')).toHaveLength(3);
  });
});
