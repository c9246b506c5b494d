/**
 * The config's fixed lists, without zod: the TUI's first frame and the profile logic need them, and
 * the schema (`schema.ts`, which builds on them and re-exports them) loads zod's ~750 kB chunk, which
 * the TUI's start leaves until after its first frame (issue 16).
 */

/** Colour themes the TUI ships (reference §8). */
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

/** A theme name, one of {@link THEMES}. */
export type Theme = (typeof THEMES)[number];

/**
 * Files read into the system prompt when present, relative to the cwd; a trailing `/` means "every file
 * under this directory". The original's list (reference §8) plus `AGENTS.md`.
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

/** The agent kinds that take settings (reference §0). */
export const AGENT_KINDS = ['coder', 'task', 'title', 'summarizer'] as const;
