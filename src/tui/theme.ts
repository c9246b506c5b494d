/**
 * The colours the TUI draws with. A theme is data: one {@link Theme} per name in `themes.ts`
 * (the original's nine: opencode, catppuccin, dracula, flexoki, gruvbox, monokai, onedark,
 * tokyonight, tron; the original's `internal/tui/theme`), or a theme file a person writes
 * (`theme-file.ts`, `theme-loader.ts`). Colours are `#rrggbb`; chalk reduces them to the nearest of
 * 256 or 16 colours on terminals with fewer.
 */
import { THEMES as CONFIG_THEMES, type Theme as ConfigThemeName } from '../config/constants.js';

/** Names of the built-in themes (the config's list), in the order the theme dialog lists them: the default first. */
export const THEME_NAMES: readonly ThemeName[] = ['opencode', ...CONFIG_THEMES.filter((name) => name !== 'opencode')];

export type ThemeName = ConfigThemeName;

/** One theme's palette, `#rrggbb` each. */
export interface Theme {
  /** a built-in's name, or a theme file's name (its file name without `.json`) */
  name: string;
  /**
   * What the rendered-line caches key on; absent: `name`. A theme file's colours can change while
   * the TUI runs (it is read again when chosen), so its key carries a fingerprint of the colours.
   */
  cacheKey?: string;
  /** logo, the user's `>` prompt, selected items */
  primary: string;
  secondary: string;
  /** tool names, highlights */
  accent: string;
  error: string;
  warning: string;
  success: string;
  info: string;
  text: string;
  /** thinking text, hints, timestamps */
  textMuted: string;
  /**
   * The screen's background, painted behind everything; absent: the terminal's own background shows
   * (the built-ins set none, so they look right on any terminal scheme).
   */
  background?: string;
  /** dialogs' and the editor's border */
  border: string;
  borderFocused: string;
  /** the background of a selected item / button */
  selectionBackground: string;
  diffAdded: string;
  diffRemoved: string;
  diffContext: string;
  diffAddedBackground: string;
  diffRemovedBackground: string;
  diffLineNumber: string;
  markdownHeading: string;
  markdownLink: string;
  markdownCode: string;
  markdownBlockQuote: string;
  markdownListItem: string;
  syntaxComment: string;
  syntaxKeyword: string;
  syntaxFunction: string;
  syntaxVariable: string;
  syntaxString: string;
  syntaxNumber: string;
  syntaxType: string;
  syntaxOperator: string;
  syntaxPunctuation: string;
}

/** The colour keys of a theme: every field but `name` and `cacheKey`. */
export type ThemeColourKey = Exclude<keyof Theme, 'name' | 'cacheKey'>;

/**
 * Every colour key a theme file may set, with what it colours (the theme file's schema and
 * `opencode themes` are built from this table).
 */
export const THEME_COLOUR_KEYS: Readonly<Record<ThemeColourKey, string>> = {
  primary: 'the logo, the prompt marker, selected items',
  secondary: 'the model badge, attachments, second-level highlights',
  accent: 'tool names and highlights',
  error: 'errors',
  warning: 'warnings',
  success: 'success marks',
  info: 'information messages',
  text: 'ordinary text',
  textMuted: 'muted text: thinking, hints, timestamps',
  background: "the screen's background (default: none, the terminal's own shows)",
  border: "dialogs' and the editor's border",
  borderFocused: 'the border of the focused editor or dialog',
  selectionBackground: 'the background of a selected item or button',
  diffAdded: 'added lines in a diff',
  diffRemoved: 'removed lines in a diff',
  diffContext: 'unchanged lines in a diff',
  diffAddedBackground: 'the background (highlight) of added lines',
  diffRemovedBackground: 'the background (highlight) of removed lines',
  diffLineNumber: "a diff's line numbers and hunk headers",
  markdownHeading: 'markdown headings',
  markdownLink: 'markdown links',
  markdownCode: 'markdown inline code',
  markdownBlockQuote: 'markdown block quotes',
  markdownListItem: 'markdown list markers',
  syntaxComment: 'code: comments',
  syntaxKeyword: 'code: keywords',
  syntaxFunction: 'code: function names',
  syntaxVariable: 'code: variables',
  syntaxString: 'code: strings',
  syntaxNumber: 'code: numbers',
  syntaxType: 'code: type names',
  syntaxOperator: 'code: operators',
  syntaxPunctuation: 'code: punctuation',
};
