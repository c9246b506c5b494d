/**
 * The config's fixed lists, without zod: the TUI's first frame and the profile logic need them, and
 * the schema (`schema.ts`, which builds on them and re-exports them) loads zod's ~750 kB chunk, which
 * the TUI's start leaves until after its first frame.
 */

/** Colour themes the TUI ships (the original's set). */
export const THEMES = [
  'catppuccin',
  'dracula',
  'flexoki',
  'gruvbox',
  'monokai',
  'onedark',
  'opencode',
  'tokyonight',
  'tron',
] as const;

/** A built-in theme's name, one of {@link THEMES}. */
export type Theme = (typeof THEMES)[number];

/**
 * What a theme may be called (`tui.theme`, a theme file's `NAME.json`, `extends`): a plain name, so
 * it can be a file name and be shown in the TUI as it is.
 */
export const THEME_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Files read into the system prompt when present, relative to the cwd; a trailing `/` means "every file
 * under this directory". The original's list plus `AGENTS.md`.
 */
export const DEFAULT_CONTEXT_PATHS: readonly string[] = [
  '.github/copilot-instructions.md',
  '.cursorrules',
  '.cursor/rules/',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'opencode.md',
  'opencode.local.md',
  'OpenCode.md',
  'OpenCode.local.md',
  'OPENCODE.md',
  'OPENCODE.local.md',
  'AGENTS.md',
];

/** The agent kinds that take settings (the original's four). */
export const AGENT_KINDS = ['coder', 'task', 'title', 'summarizer'] as const;
