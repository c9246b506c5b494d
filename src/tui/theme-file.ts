/**
 * A theme file as a person writes it, checked and resolved to a {@link Theme}. Pure: the files are
 * found and read by `theme-loader.ts`. The shape (JSONC):
 *
 * ```jsonc
 * {
 *   "extends": "tokyonight",           // a built-in or another theme file; default "opencode"
 *   "defs": { "pink": "#ff79c6" },     // named colours the theme may refer to
 *   "theme": {
 *     "primary": "pink",               // a reference to a def or another theme key
 *     "accent": 208,                   // an ANSI colour number, 0–255
 *     "text": { "dark": "#eeeeee", "light": "#222222" }
 *   }
 * }
 * ```
 *
 * A theme file is data from the project, so nothing in it reaches the terminal as text: colours are
 * only ever `#rrggbb` after this module, and the problem lines escape what they quote.
 */
import { THEME_NAME_PATTERN } from '../config/constants.js';
import { THEME_COLOUR_KEYS, type Theme, type ThemeColourKey } from './theme.js';

/** A colour as written: `#RRGGBB`, an ANSI number, a reference, or per-background variants. */
export type ColourValue = string | number | { dark?: string | number; light?: string | number };

/** A theme file after its shape is checked (colours not yet resolved). */
export interface ThemeFileSpec {
  extends?: string;
  defs: Record<string, ColourValue>;
  theme: Partial<Record<ThemeColourKey, ColourValue>>;
}

/** Which variant of `{ "dark", "light" }` values applies: the terminal's background. */
export type Background = 'dark' | 'light';

/** A problem in a theme file: `key` is the path of the offending key (`theme.primary`), or '' for the file. */
export class ThemeFileError extends Error {
  constructor(
    readonly key: string,
    readonly problem: string,
  ) {
    super(key ? `${key}: ${problem}` : problem);
    this.name = 'ThemeFileError';
  }
}

/** The top-level keys a theme file may have, with what each is for. */
const TOP_LEVEL_KEYS: Record<string, string> = {
  $schema: 'the JSON Schema, for editors (ignored)',
  extends: 'the theme this one starts from',
  defs: 'named colours',
  theme: 'the colours, by key',
};

/** A theme name, as a file name (`NAME.json`) and in `extends` and `tui.theme`. */
export const THEME_NAME = THEME_NAME_PATTERN;

const HEX = /^#[0-9a-fA-F]{6}$/;
/** A name a reference may use: a def or a theme key (letters, digits, `_`, `-`, `.`). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const DO = 'use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key';

/** The xterm defaults of the 16 system colours (xterm's `XTerm-col.ad`); 16–255 follow from the 6×6×6 cube and the grey ramp. */
const SYSTEM_COLOURS = [
  '#000000',
  '#cd0000',
  '#00cd00',
  '#cdcd00',
  '#0000ee',
  '#cd00cd',
  '#00cdcd',
  '#e5e5e5',
  '#7f7f7f',
  '#ff0000',
  '#00ff00',
  '#ffff00',
  '#5c5cff',
  '#ff00ff',
  '#00ffff',
  '#ffffff',
];
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

/** The `#rrggbb` of ANSI colour `n` (0–255) in xterm's palette. */
export function ansiToHex(n: number): string {
  const hex = (v: number) => v.toString(16).padStart(2, '0');
  if (n < 16) return SYSTEM_COLOURS[n]!;
  if (n >= 232) {
    const grey = 8 + (n - 232) * 10;
    return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
  }
  const i = n - 16;
  return `#${hex(CUBE_LEVELS[Math.floor(i / 36)]!)}${hex(CUBE_LEVELS[Math.floor(i / 6) % 6]!)}${hex(CUBE_LEVELS[i % 6]!)}`;
}

/**
 * A value quoted in a problem line: JSON, so control characters are escaped (C1 ones too), and cut
 * at 40 characters so a line stays one line.
 */
export function quote(value: unknown): string {
  let text = JSON.stringify(value) ?? String(value);
  text = text.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one colour as written (not its references). @throws {ThemeFileError} */
function checkSingle(key: string, value: unknown): string | number {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value <= 255) return value;
    throw new ThemeFileError(key, `${quote(value)} is not an ANSI colour number (0–255); ${DO}`);
  }
  if (typeof value === 'string' && (HEX.test(value) || NAME.test(value))) return value;
  throw new ThemeFileError(key, `${quote(value)} is not a colour; ${DO}`);
}

/** Checks one colour value, variants included. @throws {ThemeFileError} */
function checkColour(key: string, value: unknown): ColourValue {
  if (!isRecord(value)) return checkSingle(key, value);
  const out: { dark?: string | number; light?: string | number } = {};
  for (const [variant, inner] of Object.entries(value)) {
    if (variant !== 'dark' && variant !== 'light') {
      throw new ThemeFileError(`${key}.${variant}`, `unknown key (a colour's variants are "dark" and "light")`);
    }
    out[variant] = checkSingle(`${key}.${variant}`, inner);
  }
  if (out.dark === undefined && out.light === undefined)
    throw new ThemeFileError(key, `${quote(value)} has neither "dark" nor "light"`);
  return out;
}

/**
 * Checks a parsed theme file's shape and every colour's form.
 * @throws {ThemeFileError} at the first unknown key or bad value.
 */
export function checkThemeFile(data: unknown): ThemeFileSpec {
  if (!isRecord(data))
    throw new ThemeFileError(
      '',
      'a theme file is a JSON object, e.g. {"extends": "opencode", "theme": {"primary": "#ff9e64"}}',
    );
  for (const key of Object.keys(data)) {
    if (!Object.hasOwn(TOP_LEVEL_KEYS, key)) {
      throw new ThemeFileError(
        key,
        `unknown key (a theme file has ${Object.keys(TOP_LEVEL_KEYS)
          .map((k) => `"${k}"`)
          .join(', ')})`,
      );
    }
  }
  const spec: ThemeFileSpec = { defs: {}, theme: {} };
  if (data.extends !== undefined) {
    if (typeof data.extends !== 'string' || !THEME_NAME.test(data.extends)) {
      throw new ThemeFileError('extends', `${quote(data.extends)} is not a theme name`);
    }
    spec.extends = data.extends;
  }
  for (const part of ['defs', 'theme'] as const) {
    const section = data[part];
    if (section === undefined) continue;
    if (!isRecord(section)) throw new ThemeFileError(part, `${quote(section)} is not an object of colours`);
    for (const [key, value] of Object.entries(section)) {
      if (part === 'theme' && !Object.hasOwn(THEME_COLOUR_KEYS, key)) {
        throw new ThemeFileError(`theme.${key}`, 'unknown key (`opencode themes --keys` lists the keys)');
      }
      if (part === 'defs' && !NAME.test(key))
        throw new ThemeFileError(
          `defs.${key}`,
          'a def name is letters, digits, "_", "-" or "." and starts with a letter or "_"',
        );
      (spec[part] as Record<string, ColourValue>)[key] = checkColour(`${part}.${key}`, value);
    }
  }
  return spec;
}

/**
 * Resolves a checked file over `base` (the theme it extends) for one background: every key the file
 * sets becomes `#rrggbb`; the rest are the base's. A reference names a def first, then another
 * theme key (this file's, else the base's).
 * @throws {ThemeFileError} for a reference to nothing or a reference cycle.
 */
export function resolveTheme(name: string, spec: ThemeFileSpec, base: Theme, background: Background): Theme {
  const done = new Map<string, string>();
  const resolve = (section: 'defs' | 'theme', key: string, chain: string[]): string => {
    const path = `${section}.${key}`;
    const known = done.get(path);
    if (known) return known;
    if (chain.includes(path)) {
      throw new ThemeFileError(chain[0]!, `the references go round in a circle (${[...chain, path].join(' → ')})`);
    }
    const written = (spec[section] as Record<string, ColourValue>)[key]!;
    const single = typeof written === 'object' ? (written[background] ?? written.dark ?? written.light)! : written;
    let hex: string;
    if (typeof single === 'number') hex = ansiToHex(single);
    else if (HEX.test(single)) hex = single.toLowerCase();
    else if (Object.hasOwn(spec.defs, single)) hex = resolve('defs', single, [...chain, path]);
    else if (Object.hasOwn(spec.theme, single)) hex = resolve('theme', single, [...chain, path]);
    else if (Object.hasOwn(THEME_COLOUR_KEYS, single)) {
      const inherited = base[single as ThemeColourKey];
      // only `background` may be absent: the built-ins leave the terminal's own background
      if (inherited === undefined) throw new ThemeFileError(path, `${quote(single)} is not set by ${base.name}; ${DO}`);
      hex = inherited;
    } else
      throw new ThemeFileError(
        path,
        `${quote(single)} is neither a colour nor the name of a def or a theme key; ${DO}`,
      );
    done.set(path, hex);
    return hex;
  };
  const theme: Theme = { ...base, name };
  delete theme.cacheKey;
  for (const key of Object.keys(spec.theme) as ThemeColourKey[]) theme[key] = resolve('theme', key, []);
  // defs nobody refers to are still checked, so a mistake there is found when it is written
  for (const key of Object.keys(spec.defs)) resolve('defs', key, []);
  return theme;
}

/**
 * The JSON Schema (draft 2020-12) of a theme file, for editors (`opencode schema --theme`), built
 * from the same key table the checks use.
 */
export function themeFileJsonSchema(): Record<string, unknown> {
  const single = {
    anyOf: [
      { type: 'string', pattern: HEX.source, description: 'a colour, "#RRGGBB"' },
      { type: 'integer', minimum: 0, maximum: 255, description: 'an ANSI colour number (xterm palette)' },
      { type: 'string', pattern: NAME.source, description: 'the name of a def or another theme key' },
    ],
  };
  const colour = {
    anyOf: [
      ...single.anyOf,
      {
        type: 'object',
        properties: {
          dark: { ...single, description: 'on a dark background' },
          light: { ...single, description: 'on a light background' },
        },
        additionalProperties: false,
        description: 'one colour for each terminal background',
      },
    ],
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'OpenCode theme',
    type: 'object',
    properties: {
      $schema: { type: 'string', description: TOP_LEVEL_KEYS.$schema },
      extends: {
        type: 'string',
        pattern: THEME_NAME.source,
        default: 'opencode',
        description:
          'The theme this one starts from: a built-in or another theme file. Keys left out keep its colours.',
      },
      defs: {
        type: 'object',
        propertyNames: { pattern: NAME.source },
        additionalProperties: colour,
        description: 'Named colours the theme keys may refer to.',
      },
      theme: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(THEME_COLOUR_KEYS).map(([key, what]) => [key, { ...colour, description: what }]),
        ),
        additionalProperties: false,
        description: 'The colours, by key.',
      },
    },
    additionalProperties: false,
  };
}
