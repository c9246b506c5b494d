/**
 * The built-in themes: the dark variants of the original's `internal/tui/theme` (opencode-ai/opencode),
 * which take their colours from each scheme's published palette (Catppuccin Mocha, Dracula, Flexoki
 * 400-series on black, Gruvbox dark, Monokai Pro, Atom One Dark, Tokyo Night Moon, Tron). `opencode` is
 * the default.
 *
 * Where the original left a colour at its default (catppuccin's and onedark's diff text were the dim
 * `#478247`/`#7c4444` of the default style), the scheme's own green and red are used instead, so
 * added and removed lines read as the scheme means them to. `selectionBackground` (the original has
 * none; it drew selections with the primary colour) is the scheme's selection or current-line colour.
 */
import type { Theme, ThemeName } from './theme.js';

/** The original's default (`opencode.go`) */
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

/** Catppuccin Mocha (catppuccin.com/palette) */
const catppuccin: Theme = {
  name: 'catppuccin',
  primary: '#89b4fa', // blue
  secondary: '#cba6f7', // mauve
  accent: '#fab387', // peach
  error: '#f38ba8', // red
  warning: '#fab387', // peach
  success: '#a6e3a1', // green
  info: '#89b4fa', // blue
  text: '#cdd6f4', // text
  textMuted: '#a6adc8', // subtext0
  border: '#4b4c5c',
  borderFocused: '#89b4fa',
  selectionBackground: '#313244', // surface0
  diffAdded: '#a6e3a1',
  diffRemoved: '#f38ba8',
  diffContext: '#a0a0a0',
  diffAddedBackground: '#303a30',
  diffRemovedBackground: '#3a3030',
  diffLineNumber: '#888888',
  markdownHeading: '#cba6f7', // mauve
  markdownLink: '#89dceb', // sky
  markdownCode: '#a6e3a1',
  markdownBlockQuote: '#f9e2af', // yellow
  markdownListItem: '#89b4fa',
  syntaxComment: '#7f849c', // overlay1
  syntaxKeyword: '#f5c2e7', // pink
  syntaxFunction: '#a6e3a1',
  syntaxVariable: '#89dceb',
  syntaxString: '#f9e2af',
  syntaxNumber: '#94e2d5', // teal
  syntaxType: '#89dceb',
  syntaxOperator: '#f5c2e7',
  syntaxPunctuation: '#cdd6f4',
};

/** Dracula (draculatheme.com/contribute: the official palette) */
const dracula: Theme = {
  name: 'dracula',
  primary: '#bd93f9', // purple
  secondary: '#ff79c6', // pink
  accent: '#8be9fd', // cyan
  error: '#ff5555', // red
  warning: '#ffb86c', // orange
  success: '#50fa7b', // green
  info: '#8be9fd',
  text: '#f8f8f2', // foreground
  textMuted: '#6272a4', // comment
  border: '#44475a', // current line
  borderFocused: '#bd93f9',
  selectionBackground: '#44475a', // selection
  diffAdded: '#50fa7b',
  diffRemoved: '#ff5555',
  diffContext: '#6272a4',
  diffAddedBackground: '#2c3b2c',
  diffRemovedBackground: '#3b2c2c',
  diffLineNumber: '#6272a4',
  markdownHeading: '#ff79c6',
  markdownLink: '#bd93f9',
  markdownCode: '#50fa7b',
  markdownBlockQuote: '#f1fa8c', // yellow
  markdownListItem: '#bd93f9',
  syntaxComment: '#6272a4',
  syntaxKeyword: '#ff79c6',
  syntaxFunction: '#50fa7b',
  syntaxVariable: '#ffb86c',
  syntaxString: '#f1fa8c',
  syntaxNumber: '#bd93f9',
  syntaxType: '#8be9fd',
  syntaxOperator: '#ff79c6',
  syntaxPunctuation: '#f8f8f2',
};

/** Flexoki dark (stephango.com/flexoki: the 400 accents on black) */
const flexoki: Theme = {
  name: 'flexoki',
  primary: '#4385be', // blue-400
  secondary: '#8b7ec8', // purple-400
  accent: '#da702c', // orange-400
  error: '#d14d41', // red-400
  warning: '#d0a215', // yellow-400
  success: '#879a39', // green-400
  info: '#3aa99f', // cyan-400
  text: '#b7b5ac', // base-300 (tx)
  textMuted: '#575653', // base-700 (tx-3)
  border: '#282726', // base-900 (ui)
  borderFocused: '#4385be',
  selectionBackground: '#343331', // base-850 (ui-2)
  diffAdded: '#879a39',
  diffRemoved: '#d14d41',
  diffContext: '#575653',
  diffAddedBackground: '#1d2419',
  diffRemovedBackground: '#241919',
  diffLineNumber: '#575653',
  markdownHeading: '#d0a215',
  markdownLink: '#3aa99f',
  markdownCode: '#879a39',
  markdownBlockQuote: '#3aa99f',
  markdownListItem: '#4385be',
  syntaxComment: '#575653',
  syntaxKeyword: '#879a39',
  syntaxFunction: '#da702c',
  syntaxVariable: '#4385be',
  syntaxString: '#3aa99f',
  syntaxNumber: '#8b7ec8',
  syntaxType: '#d0a215',
  syntaxOperator: '#878580', // base-500 (tx-2)
  syntaxPunctuation: '#878580',
};

/** Gruvbox dark (github.com/morhetz/gruvbox: the bright accents) */
const gruvbox: Theme = {
  name: 'gruvbox',
  primary: '#83a598', // bright blue
  secondary: '#d3869b', // bright purple
  accent: '#fe8019', // bright orange
  error: '#fb4934', // bright red
  warning: '#fabd2f', // bright yellow
  success: '#b8bb26', // bright green
  info: '#83a598',
  text: '#ebdbb2', // fg1
  textMuted: '#a89984', // fg4
  border: '#504945', // bg2
  borderFocused: '#83a598',
  selectionBackground: '#3c3836', // bg1
  diffAdded: '#b8bb26',
  diffRemoved: '#fb4934',
  diffContext: '#a89984',
  diffAddedBackground: '#3c4c3c',
  diffRemovedBackground: '#4c3c3c',
  diffLineNumber: '#a89984',
  markdownHeading: '#fabd2f',
  markdownLink: '#83a598',
  markdownCode: '#b8bb26',
  markdownBlockQuote: '#8ec07c', // bright aqua
  markdownListItem: '#83a598',
  syntaxComment: '#928374', // gray
  syntaxKeyword: '#fb4934',
  syntaxFunction: '#b8bb26',
  syntaxVariable: '#83a598',
  syntaxString: '#fabd2f',
  syntaxNumber: '#d3869b',
  syntaxType: '#d79921', // yellow
  syntaxOperator: '#8ec07c',
  syntaxPunctuation: '#ebdbb2',
};

/** Monokai Pro (monokai.pro: the "Pro" filter) */
const monokai: Theme = {
  name: 'monokai',
  primary: '#78dce8', // cyan
  secondary: '#ab9df2', // purple
  accent: '#fc9867', // orange
  error: '#ff6188', // red
  warning: '#fc9867',
  success: '#a9dc76', // green
  info: '#ab9df2',
  text: '#fcfcfa',
  textMuted: '#727072', // comment
  border: '#403e41',
  borderFocused: '#78dce8',
  selectionBackground: '#5b595c',
  diffAdded: '#a9dc76',
  diffRemoved: '#ff6188',
  diffContext: '#a0a0a0',
  diffAddedBackground: '#3a4a35',
  diffRemovedBackground: '#4a3439',
  diffLineNumber: '#888888',
  markdownHeading: '#ab9df2',
  markdownLink: '#78dce8',
  markdownCode: '#a9dc76',
  markdownBlockQuote: '#ffd866', // yellow
  markdownListItem: '#78dce8',
  syntaxComment: '#727072',
  syntaxKeyword: '#ff6188',
  syntaxFunction: '#a9dc76',
  syntaxVariable: '#fcfcfa',
  syntaxString: '#ffd866',
  syntaxNumber: '#ab9df2',
  syntaxType: '#ab9df2',
  syntaxOperator: '#78dce8',
  syntaxPunctuation: '#fcfcfa',
};

/** Atom One Dark (github.com/atom/atom: packages/one-dark-syntax) */
const onedark: Theme = {
  name: 'onedark',
  primary: '#61afef', // blue
  secondary: '#c678dd', // purple
  accent: '#d19a66', // orange
  error: '#e06c75', // red
  warning: '#d19a66',
  success: '#98c379', // green
  info: '#61afef',
  text: '#abb2bf',
  textMuted: '#5c6370', // comment
  border: '#3b4048',
  borderFocused: '#61afef',
  selectionBackground: '#3e4451',
  diffAdded: '#98c379',
  diffRemoved: '#e06c75',
  diffContext: '#a0a0a0',
  diffAddedBackground: '#303a30',
  diffRemovedBackground: '#3a3030',
  diffLineNumber: '#888888',
  markdownHeading: '#c678dd',
  markdownLink: '#61afef',
  markdownCode: '#98c379',
  markdownBlockQuote: '#e5c07b', // yellow
  markdownListItem: '#61afef',
  syntaxComment: '#5c6370',
  syntaxKeyword: '#c678dd',
  syntaxFunction: '#61afef',
  syntaxVariable: '#e06c75',
  syntaxString: '#98c379',
  syntaxNumber: '#d19a66',
  syntaxType: '#e5c07b',
  syntaxOperator: '#56b6c2', // cyan
  syntaxPunctuation: '#abb2bf',
};

/** Tokyo Night, moon style (github.com/folke/tokyonight.nvim: extras/palette) */
const tokyonight: Theme = {
  name: 'tokyonight',
  primary: '#82aaff', // blue
  secondary: '#c099ff', // magenta
  accent: '#ff966c', // orange
  error: '#ff757f', // red
  warning: '#ff966c',
  success: '#c3e88d', // green
  info: '#82aaff',
  text: '#c8d3f5', // fg
  textMuted: '#636da6', // comment
  border: '#3b4261', // fg_gutter
  borderFocused: '#82aaff',
  selectionBackground: '#2f334d', // bg_visual
  diffAdded: '#4fd6be', // teal
  diffRemoved: '#c53b53', // red1
  diffContext: '#828bb8', // fg_dark
  diffAddedBackground: '#20303b',
  diffRemovedBackground: '#37222c',
  diffLineNumber: '#545c7e', // dark3
  markdownHeading: '#c099ff',
  markdownLink: '#82aaff',
  markdownCode: '#c3e88d',
  markdownBlockQuote: '#ffc777', // yellow
  markdownListItem: '#82aaff',
  syntaxComment: '#636da6',
  syntaxKeyword: '#c099ff',
  syntaxFunction: '#82aaff',
  syntaxVariable: '#ff757f',
  syntaxString: '#c3e88d',
  syntaxNumber: '#ff966c',
  syntaxType: '#ffc777',
  syntaxOperator: '#86e1fc', // cyan
  syntaxPunctuation: '#c8d3f5',
};

/** Tron: the original's neon-on-navy scheme (no outside palette) */
const tron: Theme = {
  name: 'tron',
  primary: '#00d9ff', // cyan
  secondary: '#007fff', // blue
  accent: '#ff9000', // orange
  error: '#ff3333',
  warning: '#ff9000',
  success: '#00ff8f',
  info: '#00d9ff',
  text: '#caf0ff',
  textMuted: '#4d6b87',
  border: '#1a2633',
  borderFocused: '#00d9ff',
  selectionBackground: '#1a2633',
  diffAdded: '#00ff8f',
  diffRemoved: '#ff3333',
  diffContext: '#4d6b87',
  diffAddedBackground: '#0a2a1a',
  diffRemovedBackground: '#2a0a0a',
  diffLineNumber: '#4d6b87',
  markdownHeading: '#00d9ff',
  markdownLink: '#007fff',
  markdownCode: '#00ff8f',
  markdownBlockQuote: '#ffcc00', // yellow
  markdownListItem: '#007fff',
  syntaxComment: '#4d6b87',
  syntaxKeyword: '#00d9ff',
  syntaxFunction: '#00ff8f',
  syntaxVariable: '#ff9000',
  syntaxString: '#ffcc00',
  syntaxNumber: '#007fff',
  syntaxType: '#b73fff', // purple
  syntaxOperator: '#ff00a0', // pink
  syntaxPunctuation: '#caf0ff',
};

/** Every built-in theme by name. */
export const THEMES: Record<ThemeName, Theme> = {
  opencode,
  catppuccin,
  dracula,
  flexoki,
  gruvbox,
  monokai,
  onedark,
  tokyonight,
  tron,
};

/** The theme a config value names; unknown names fall back to `opencode`. */
export function themeByName(name: string | undefined): Theme {
  return (name && Object.hasOwn(THEMES, name) ? THEMES[name as ThemeName] : undefined) ?? opencode;
}
