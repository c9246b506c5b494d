/**
 * Custom commands: Markdown files whose text is sent as a prompt, listed in the commands dialog
 * (as in the original). Every `*.md` under a `commands` folder, searched recursively:
 * - user commands (id prefix `user:`): `$XDG_CONFIG_HOME/opencode/commands` (default
 *   `~/.config/opencode/commands`) and `~/.opencode/commands`;
 * - project commands (prefix `project:`): `<data dir>/commands` (data dir default `.opencode`).
 * The id is the prefix plus the path below `commands` with `/` → `:` and without `.md`:
 * `git/commit.md` → `user:git:commit`.
 *
 * Fixed from the original's weak points:
 * - missing folders are skipped, never created (the original made all three on every start);
 * - `$HOME`, `$PATH` and the other common shell variables (see {@link SHELL_VARIABLES}) are not
 *   placeholders when the environment has them, so a command that mentions `$HOME` asks nothing;
 * - a value replaces whole names only: `$FOO` does not touch `$FOOBAR` (the original replaced
 *   plain substrings in random map order), and a value is put in literally (no `$&` expansion).
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** One custom command. */
export interface CustomCommand {
  /** e.g. `user:git:commit`, `project:review` */
  id: string;
  /** what the dialog lists: the id */
  title: string;
  /** where it came from, e.g. `from ~/.config/opencode/commands/git/commit.md` */
  description: string;
  /** the file's text: the prompt, with placeholders still in */
  content: string;
  /** the placeholder names the arguments dialog asks for, in order of first use, e.g. `['ISSUE']` */
  placeholders: string[];
}

export interface LoadCustomCommandsOptions {
  /** user config folders, each searched under `commands/`: see {@link userCommandDirs} */
  configDirs: readonly string[];
  /** the project's data folder (config `data.directory`, default `<cwd>/.opencode`), searched under `commands/` */
  dataDir: string;
  /** for `~` in descriptions; default `os.homedir()` */
  home?: string;
  /** decides which shell variables are left alone; default `process.env` */
  env?: NodeJS.ProcessEnv;
}

/**
 * The user config folders in search order: `$XDG_CONFIG_HOME/opencode` (default
 * `~/.config/opencode`), then `~/.opencode`.
 */
export function userCommandDirs(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string[] {
  const xdg = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  return [path.join(xdg, 'opencode'), path.join(home, '.opencode')];
}

/**
 * Loads every command: the user folders' in order, then the project's; within a folder sorted by
 * path. When two user folders have the same id, the first folder's wins (and likewise if a
 * symlink makes a file appear twice). Unreadable files and folders are skipped.
 */
export async function loadCustomCommands(options: LoadCustomCommandsOptions): Promise<CustomCommand[]> {
  const home = options.home ?? os.homedir();
  const env = options.env ?? process.env;
  const sources = [
    ...options.configDirs.map((dir) => ({ dir: path.join(dir, 'commands'), prefix: 'user' })),
    { dir: path.join(options.dataDir, 'commands'), prefix: 'project' },
  ];
  const commands: CustomCommand[] = [];
  const seen = new Set<string>();
  for (const { dir, prefix } of sources) {
    for (const relative of await markdownFiles(dir)) {
      const id = `${prefix}:${relative.replace(/\.md$/i, '').split(path.sep).join(':')}`;
      if (seen.has(id)) continue;
      const file = path.join(dir, relative);
      let content: string;
      try {
        content = await readFile(file, 'utf8');
      } catch {
        continue;
      }
      seen.add(id);
      commands.push({
        id,
        title: id,
        description: `from ${tildePath(file, home)}`,
        content,
        placeholders: findPlaceholders(content, env),
      });
    }
  }
  return commands;
}

/** How deep below `commands/` files are looked for (a symlink loop ends here). */
const MAX_DEPTH = 8;

/** Paths (relative to `dir`, sorted) of the `*.md` files below it; `[]` when it does not exist. */
async function markdownFiles(dir: string, depth = 0): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    // a symlink counts as what it points to; readdir tells which only for real entries
    const isDirectory =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await readdir(full).then(
          () => true,
          () => false,
        )));
    if (isDirectory) {
      if (depth < MAX_DEPTH) found.push(...(await markdownFiles(full, depth + 1)).map((f) => path.join(entry.name, f)));
    } else if (/\.md$/i.test(entry.name)) {
      found.push(entry.name);
    }
  }
  return found;
}

/** `file` with the home folder written as `~`. */
function tildePath(file: string, home: string): string {
  const relative = path.relative(home, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return file;
  return `~/${relative.split(path.sep).join('/')}`;
}

/**
 * Shell variables that are left alone, not asked for, when the environment sets them: a command
 * text that says "look in $HOME" means the variable. A name here that the environment lacks is a
 * placeholder like any other.
 */
export const SHELL_VARIABLES: ReadonlySet<string> = new Set([
  'HOME',
  'PATH',
  'USER',
  'LOGNAME',
  'PWD',
  'OLDPWD',
  'SHELL',
  'TERM',
  'LANG',
  'TMPDIR',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'HOSTNAME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'GOPATH',
  'JAVA_HOME',
]);

/** A placeholder: `$` and an upper-case name (the original's `\$[A-Z][A-Z0-9_]*`). */
const PLACEHOLDER = /\$([A-Z][A-Z0-9_]*)/g;

/**
 * The distinct placeholder names in `content`, in order of first use, without the
 * {@link SHELL_VARIABLES} that `env` sets. `Fix $ISSUE in $HOME` → `['ISSUE']`.
 */
export function findPlaceholders(content: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const names = new Set<string>();
  for (const match of content.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (SHELL_VARIABLES.has(name) && env[name] !== undefined) continue;
    names.add(name);
  }
  return [...names];
}

/**
 * `content` with each `$NAME` that `values` has replaced by its value, as is. Whole names only:
 * with `{ FOO: 'x' }`, `$FOO.` becomes `x.` but `$FOOBAR` stays. Names not in `values` stay as written.
 */
export function fillPlaceholders(content: string, values: Readonly<Record<string, string>>): string {
  return content.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}
