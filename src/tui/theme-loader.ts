/**
 * Finds and loads themes by name: the project's `.opencode/themes/NAME.json`, then the person's
 * (`$XDG_CONFIG_HOME/opencode/themes/`, `~/.config/opencode/themes/`), then the built-ins; the first
 * place that has the name wins. Files are read each time a theme is chosen, so an edit shows the
 * next time it is picked. A broken file never stops the TUI: the load returns the default theme and
 * one line naming the file, the key and the value.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseJsonText } from '../config/json-text.js';
import { THEME_NAMES, type Theme } from './theme.js';
import { checkThemeFile, quote, resolveTheme, THEME_NAME, ThemeFileError, type Background } from './theme-file.js';
import { THEMES } from './themes.js';

/** The theme used when none is named, and in place of a broken one. */
export const DEFAULT_THEME = 'opencode';

/** Where theme files are looked for: the project's folder, then the person's. */
export interface ThemePlaces {
  /** the project folder (its `.opencode/themes/`) */
  cwd: string;
  /** HOME and XDG_CONFIG_HOME come from here */
  env: NodeJS.ProcessEnv;
  /** overrides HOME */
  home?: string;
}

/** Where a theme comes from: a place's kind and, for a file, its path. */
export interface ThemeSource {
  kind: 'project' | 'user' | 'built-in';
  file?: string;
}

/** One theme name and where it comes from; `shadows`: the places with the same name it hides. */
export interface ThemeEntry {
  name: string;
  source: ThemeSource;
  shadows: ThemeSource[];
}

/** A loaded theme; `problem` (one line) when the file was broken and `theme` is the default instead. */
export interface LoadedTheme {
  theme: Theme;
  source: ThemeSource;
  problem?: string;
}

/** The theme folders in the order they win: project, then the person's. */
export function themeFolders(places: ThemePlaces): { kind: 'project' | 'user'; dir: string }[] {
  const home = places.home ?? places.env.HOME ?? homedir();
  const user = [
    places.env.XDG_CONFIG_HOME ? join(places.env.XDG_CONFIG_HOME, 'opencode', 'themes') : undefined,
    join(home, '.config', 'opencode', 'themes'),
  ];
  const folders: { kind: 'project' | 'user'; dir: string }[] = [
    { kind: 'project', dir: join(places.cwd, '.opencode', 'themes') },
  ];
  for (const dir of new Set(user.filter((d): d is string => d !== undefined))) folders.push({ kind: 'user', dir });
  return folders;
}

/** The NAME of every `NAME.json` file in a folder, allowed or not. */
function jsonNamesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => (d.isFile() || d.isSymbolicLink()) && d.name.endsWith('.json'))
      .map((d) => d.name.slice(0, -'.json'.length))
      .sort();
  } catch {
    return []; // no such folder: no themes there
  }
}

/** Theme names in a folder: `NAME.json` files whose NAME is a plain name (others are never listed, being possibly unprintable). */
function namesIn(dir: string): string[] {
  return jsonNamesIn(dir).filter((name) => THEME_NAME.test(name));
}

/**
 * One line for each `.json` file in the theme folders whose name is not a theme name, so it is not
 * offered: the file (control characters escaped) and what a name may hold.
 */
export function skippedThemeFiles(places: ThemePlaces): string[] {
  const lines: string[] = [];
  for (const folder of themeFolders(places)) {
    for (const name of jsonNamesIn(folder.dir)) {
      if (THEME_NAME.test(name)) continue;
      lines.push(
        printable(
          `${join(folder.dir, `${name}.json`)}: skipped: a theme file's name (before ".json") is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; rename the file to use it`,
        ),
      );
    }
  }
  return lines;
}

/** Every place that has `name`, the winner first. */
function placesOf(name: string, places: ThemePlaces): ThemeSource[] {
  const found: ThemeSource[] = [];
  for (const folder of themeFolders(places)) {
    if (namesIn(folder.dir).includes(name)) found.push({ kind: folder.kind, file: join(folder.dir, `${name}.json`) });
  }
  if ((THEME_NAMES as readonly string[]).includes(name)) found.push({ kind: 'built-in' });
  return found;
}

/** Every theme: the built-ins in their order, then the files' names in alphabetical order. */
export function listThemes(places: ThemePlaces): ThemeEntry[] {
  const names = new Set<string>(THEME_NAMES);
  const fileNames = new Set<string>();
  for (const folder of themeFolders(places)) for (const name of namesIn(folder.dir)) fileNames.add(name);
  for (const name of [...fileNames].sort()) names.add(name);
  return [...names].map((name) => {
    const [source, ...shadows] = placesOf(name, places);
    return { name, source: source!, shadows };
  });
}

/**
 * The terminal's background as the terminal says in `COLORFGBG` ("foreground;background" as ANSI
 * numbers, set by rxvt, Konsole, iTerm2 and others): 7 and 9–15 are light, the rest dark. Without
 * it, dark: the built-in themes are dark ones.
 */
export function terminalBackground(env: NodeJS.ProcessEnv): Background {
  const last = env.COLORFGBG?.split(';').pop();
  const n = last === undefined || last === '' ? NaN : Number(last);
  return n === 7 || (n >= 9 && n <= 15) ? 'light' : 'dark';
}

/**
 * Resolves the theme `name` found in `sources` (winner first). A file that extends its own name
 * extends the next place down (a project's `tokyonight.json` can start from the built-in).
 * @throws {ThemeFileError} with the file named in `file`.
 */
function resolveFrom(
  name: string,
  sources: ThemeSource[],
  places: ThemePlaces,
  background: Background,
  seen: string[],
): Theme {
  const [source, ...below] = sources;
  if (!source) throw new ThemeFileError('extends', `${quote(name)}: no such theme`);
  if (source.kind === 'built-in') return THEMES[name as keyof typeof THEMES];
  const file = source.file!;
  if (seen.includes(file)) {
    throw new LocatedThemeError(
      file,
      new ThemeFileError(
        'extends',
        `the themes extend each other in a circle (${[...seen, file].map(nameOf).join(' → ')})`,
      ),
    );
  }
  try {
    let data: unknown;
    try {
      data = parseJsonText(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ThemeFileError('', (err as Error).message);
    }
    const spec = checkThemeFile(data);
    const baseName = spec.extends ?? DEFAULT_THEME;
    const baseSources = baseName === name ? below : placesOf(baseName, places);
    if (baseSources.length === 0 && baseName === name) {
      throw new ThemeFileError(
        'extends',
        `${quote(baseName)} is this file's own name, and there is no theme of that name below this file to start from (a user theme file or a built-in); extend another theme or leave "extends" out`,
      );
    }
    if (baseSources.length === 0) {
      throw new ThemeFileError(
        'extends',
        `${quote(baseName)}: no such theme (the built-ins: ${THEME_NAMES.join(', ')}; or a theme file of that name)`,
      );
    }
    const base = resolveFrom(baseName, baseSources, places, background, [...seen, file]);
    return resolveTheme(name, spec, base, background);
  } catch (err) {
    if (err instanceof ThemeFileError) throw new LocatedThemeError(file, err);
    throw err;
  }
}

/** A theme file problem with the file it is in (the innermost file of an `extends` chain). */
class LocatedThemeError extends Error {
  constructor(
    readonly file: string,
    readonly problem: ThemeFileError,
  ) {
    super(`${file}: ${problem.message}`);
  }
}

const nameOf = (file: string) => file.replace(/^.*[/\\]/, '').replace(/\.json$/, '');

/** Control characters (C0, DEL, C1) written as `\uXXXX`, so a file name or path cannot drive the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Loads the theme `name` (default {@link DEFAULT_THEME}) from the first place that has it, reading
 * its file (and the files it extends) now. Never throws: an unknown name, a file that cannot be read,
 * bad JSON, an unknown key, a bad colour or a circle of references gives the default theme and
 * `problem`, one line such as
 * `/home/u/.config/opencode/themes/neon.json: theme.primary: "#12345" is not a colour; use "#RRGGBB", …; using the opencode theme`.
 */
export function loadTheme(
  name: string | undefined,
  places: ThemePlaces,
  background = terminalBackground(places.env),
): LoadedTheme {
  const wanted = name || DEFAULT_THEME;
  const fallback = (source: ThemeSource, problem: string): LoadedTheme => ({
    theme: THEMES[DEFAULT_THEME],
    source,
    problem: printable(`${problem}; using the ${DEFAULT_THEME} theme`),
  });
  const sources = THEME_NAME.test(wanted) ? placesOf(wanted, places) : [];
  const source = sources[0];
  if (!source) {
    const dirs = themeFolders(places).map((f) => f.dir);
    return fallback(
      { kind: 'built-in' },
      `theme ${quote(wanted)}: no such theme (the built-ins: ${THEME_NAMES.join(', ')}; theme files go in ${dirs.join(' or ')})`,
    );
  }
  try {
    const theme = resolveFrom(wanted, sources, places, background, []);
    if (source.kind === 'built-in') return { theme, source };
    // the caches of rendered lines key on this: a file edited and chosen again draws with its new colours
    const { name: _name, cacheKey: _key, ...colours } = theme;
    const fingerprint = createHash('sha256').update(JSON.stringify(colours)).digest('hex').slice(0, 12);
    return { theme: { ...theme, cacheKey: `${wanted}:${fingerprint}` }, source };
  } catch (err) {
    if (err instanceof LocatedThemeError) return fallback(source, err.message);
    return fallback(source, `${source.file}: ${(err as Error).message}`);
  }
}

/** Where a theme comes from, in a word or three: `project`, `user`, `built-in`, `project, over built-in`. */
export function themeSourceLabel(entry: ThemeEntry): string {
  const hidden = [...new Set(entry.shadows.map((s) => s.kind))];
  return hidden.length ? `${entry.source.kind}, over ${hidden.join(', ')}` : entry.source.kind;
}
