/**
 * The colours the TUI draws with. A theme is data: one {@link Theme} per name in `themes.ts`
 * (the original's nine: opencode, catppuccin, dracula, flexoki, gruvbox, monokai, onedark,
 * tokyonight, tron; reference §9.2 and the original's `internal/tui/theme`). Colours are `#rrggbb`.
 */
import { THEMES as CONFIG_THEMES, type Theme as ConfigThemeName } from '../config/constants.js';

/** Names of the built-in themes (the config's list), in the order the theme dialog lists them: the default first. */
export const THEME_NAMES: readonly ThemeName[] = ['opencode', ...CONFIG_THEMES.filter((name) => name !== 'opencode')];

export type ThemeName = ConfigThemeName;

/** One theme's palette, `#rrggbb` each. */
export interface Theme {
  name: ThemeName;
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
