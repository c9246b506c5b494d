/**
 * The built-in themes (the original's `internal/tui/theme`: dark variants). `opencode` is the default.
 */
import type { Theme, ThemeName } from './theme.js';

const opencode: Theme = {
  name: 'opencode',
  primary: '#fab283',
  secondary: '#5c9cf5',
  accent: '#9d7cd8',
  error: '#e06c75',
  warning: '#f5a742',
  success: '#7fd88f',
  info: '#56b6c2',
  text: '#eeeeee',
  textMuted: '#808080',
  border: '#4b4c5c',
  borderFocused: '#fab283',
  selectionBackground: '#3c3c3c',
  diffAdded: '#7fd88f',
  diffRemoved: '#e06c75',
  diffContext: '#a0a0a0',
  diffAddedBackground: '#303a30',
  diffRemovedBackground: '#3a3030',
  diffLineNumber: '#888888',
  markdownHeading: '#9d7cd8',
  markdownLink: '#fab283',
  markdownCode: '#7fd88f',
  markdownBlockQuote: '#e5c07b',
  markdownListItem: '#fab283',
  syntaxComment: '#808080',
  syntaxKeyword: '#5c9cf5',
  syntaxFunction: '#fab283',
  syntaxVariable: '#e06c75',
  syntaxString: '#7fd88f',
  syntaxNumber: '#d19a66',
  syntaxType: '#e5c07b',
  syntaxOperator: '#56b6c2',
  syntaxPunctuation: '#eeeeee',
};

/** Every built-in theme by name. */
export const THEMES: Record<ThemeName, Theme> = {
  opencode,
  // the other eight are filled in by the themes work; until then they fall back to opencode
  catppuccin: { ...opencode, name: 'catppuccin' },
  dracula: { ...opencode, name: 'dracula' },
  flexoki: { ...opencode, name: 'flexoki' },
  gruvbox: { ...opencode, name: 'gruvbox' },
  monokai: { ...opencode, name: 'monokai' },
  onedark: { ...opencode, name: 'onedark' },
  tokyonight: { ...opencode, name: 'tokyonight' },
  tron: { ...opencode, name: 'tron' },
};

/** The theme a config value names; unknown names fall back to `opencode`. */
export function themeByName(name: string | undefined): Theme {
  return (name && (THEMES as Record<string, Theme>)[name]) || opencode;
}
