/**
 * Theme names: a file that extends its own name with nothing of that name below it, the theme files
 * whose names are not theme names (skipped, each named with the reason), and the def names the
 * theme file schema allows.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { themeFileJsonSchema } from '../../src/tui/theme-file.js';
import { listThemes, loadTheme, skippedThemeFiles, type ThemePlaces } from '../../src/tui/theme-loader.js';
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

const NAME_RULE =
  'skipped: a theme file\'s name (before ".json") is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; rename the file to use it';

describe('a file that extends its own name', () => {
  it('with no user file or built-in of that name below it: says so, not "no such theme"', () => {
    const file = join(projectDir, 'neon.json');
    writeFileSync(file, '{ "extends": "neon", "theme": { "primary": 9 } }');
    const loaded = loadTheme('neon', places);
    expect(loaded.problem).toBe(
      `${file}: extends: "neon" is this file's own name, and there is no theme of that name below this file to start from (a user theme file or a built-in); extend another theme or leave "extends" out; using the opencode theme`,
    );
    expect(loaded.theme).toBe(THEMES.opencode);
  });

  it('with a user file of that name below it: starts from that file', () => {
    writeFileSync(join(projectDir, 'neon.json'), '{ "extends": "neon", "theme": { "primary": 9 } }');
    writeFileSync(join(userDir, 'neon.json'), '{ "extends": "dracula" }');
    const loaded = loadTheme('neon', places);
    expect(loaded.problem).toBeUndefined();
    expect(loaded.theme).toMatchObject({ primary: '#ff0000', text: THEMES.dracula.text });
  });
});

describe('theme files whose names are not theme names', () => {
  it('are not listed, and each is named with what a name may hold', () => {
    writeFileSync(join(projectDir, 'bad name.json'), '{}');
    writeFileSync(join(userDir, '-dash.json'), '{}');
    writeFileSync(join(userDir, 'bell\u0007.json'), '{}');
    writeFileSync(join(userDir, 'good.json'), '{}');
    writeFileSync(join(userDir, 'notes.txt'), 'not a theme');
    expect(listThemes(places).map((e) => e.name)).toEqual([...Object.keys(THEMES), 'good']);
    expect(skippedThemeFiles(places)).toEqual([
      `${join(projectDir, 'bad name.json')}: ${NAME_RULE}`,
      `${join(userDir, '-dash.json')}: ${NAME_RULE}`,
      `${join(userDir, 'bell\\u0007.json')}: ${NAME_RULE}`,
    ]);
  });

  it('none: no lines', () => {
    writeFileSync(join(userDir, 'good.json'), '{}');
    expect(skippedThemeFiles(places)).toEqual([]);
    expect(skippedThemeFiles({ ...places, cwd: join(root, 'nowhere') })).toEqual([]);
  });
});

describe('the theme file schema', () => {
  it('allows only def names a reference can use', () => {
    const schema = themeFileJsonSchema() as {
      properties: { defs: { propertyNames?: { pattern: string } } };
    };
    const pattern = new RegExp(schema.properties.defs.propertyNames!.pattern);
    for (const name of ['pink', '_x', 'Blue.2', 'a-b']) expect(pattern.test(name), name).toBe(true);
    for (const name of ['9bad', '-x', '.x', 'a b', '']) expect(pattern.test(name), name).toBe(false);
  });
});
