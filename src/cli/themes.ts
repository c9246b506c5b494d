/**
 * `opencode themes`: every theme the TUI offers, where it comes from (built-in, the person's theme
 * folder, the project's) and its file; the theme files that are broken or skipped for their name,
 * one line each on stderr.
 * `--keys` prints the colour keys a theme file may set.
 */
import { THEME_COLOUR_KEYS } from '../tui/theme.js';
import {
  listThemes,
  loadTheme,
  printable,
  skippedThemeFiles,
  themeSourceLabel,
  type ThemePlaces,
} from '../tui/theme-loader.js';
import { alignColumns } from './columns.js';
import type { CliOptions } from './options.js';

/**
 * The table `opencode themes` prints: a `✓` on `current`, the name, its source and file (the winner;
 * a file that hides another place's theme of the same name says so in the source).
 * @returns the table, and the problem line of each theme file that is skipped for its name or broken
 */
export function themesTable(places: ThemePlaces, current: string | undefined): { table: string; problems: string[] } {
  const problems: string[] = skippedThemeFiles(places);
  const rows = [['', 'NAME', 'SOURCE', 'FILE']];
  for (const entry of listThemes(places)) {
    rows.push([
      entry.name === (current ?? 'opencode') ? '✓' : '',
      entry.name,
      themeSourceLabel(entry),
      printable(entry.source.file ?? ''),
    ]);
    if (entry.source.kind === 'built-in') continue;
    const loaded = loadTheme(entry.name, places);
    if (loaded.problem) problems.push(loaded.problem);
  }
  return { table: alignColumns(rows).join('\n'), problems };
}

/** The table of colour keys for `opencode themes --keys`. */
export function themeKeysTable(): string {
  return alignColumns([['KEY', 'COLOURS'], ...Object.entries(THEME_COLOUR_KEYS)]).join('\n');
}

/**
 * `opencode themes`: the table on stdout, a line on stderr for each theme file that is broken or
 * skipped for its name. Exit code 2 when the config cannot be loaded or a theme file has a problem,
 * else 0.
 */
export async function runThemes(opts: Pick<CliOptions, 'cwd'> & { keys?: boolean }): Promise<number> {
  if (opts.keys) {
    process.stdout.write(`${themeKeysTable()}\n`);
    return 0;
  }
  const { loadConfigForCommand } = await import('./load-config.js');
  const { resolve } = await import('node:path');
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { table, problems } = themesTable({ cwd, env: process.env }, loaded.config.tui.theme);
  process.stdout.write(`${table}\n`);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  return problems.length > 0 ? 2 : 0;
}
