/**
 * Package managers' forms that install into the person's global or user folders without naming
 * them: `pnpm add -g`, `bun install -g`, `deno install -g`, `npm link`, `uv tool install`. Each
 * writes outside the project, so it asks whatever the rules allow (as `npm install -g` does), and a
 * sandboxed command is offered to run outside the sandbox. Their listing forms (`pnpm list -g`,
 * `bun pm ls -g`, `uv tool list`) write nothing. Also `python3 -m pip …`, which `write-targets.ts`
 * judges as `pip …` (`--user` writes ~/.local).
 *
 * Sources: pnpm's CLI docs (`--global`), bun's docs (`bun add --global`, `bun link`), `deno install
 * --help` (Deno 2: `--global` installs a program, without it the project's dependencies), npm-link(1),
 * uv's `uv tool` docs, `pip install --help` and python(1) (`-m`). Pure.
 */
import type { ShellWord } from './shell-parse.js';

/** One package manager's global writes. */
interface GlobalInstaller {
  program: string;
  /** where it writes, for the reason line */
  place: string;
  /** whether these positional words (verb first) and all words write there */
  writes: (positionals: readonly string[], words: readonly string[]) => boolean;
  example: string;
}

const isGlobal = (words: readonly string[]): boolean => words.some((w) => w === '-g' || w === '--global');
const verbIn =
  (verbs: readonly string[]) =>
  (positionals: readonly string[]): boolean =>
    verbs.includes(positionals[0] ?? '');

/** pnpm's and bun's verbs that change installed packages (the listing verbs are not here). */
const PNPM_WRITES = verbIn([
  'add',
  'install',
  'i',
  'remove',
  'rm',
  'uninstall',
  'un',
  'update',
  'up',
  'upgrade',
  'link',
  'ln',
  'unlink',
  'rebuild',
  'rb',
  'prune',
]);
const BUN_WRITES = verbIn(['add', 'a', 'install', 'i', 'remove', 'rm', 'update', 'link', 'unlink']);

const GLOBAL_INSTALLERS: readonly GlobalInstaller[] = [
  // with -g they install into pnpm's global folder; `pnpm list -g` only lists
  {
    program: 'pnpm',
    place: "pnpm's global folder",
    writes: (p, w) => isGlobal(w) && PNPM_WRITES(p),
    example: 'pnpm add -g x',
  },
  // with -g into ~/.bun/install/global; `bun link` with no package registers this one there
  {
    program: 'bun',
    place: "bun's global folder, ~/.bun",
    writes: (p, w) => (isGlobal(w) && BUN_WRITES(p)) || (p[0] === 'link' && p.length === 1),
    example: 'bun add -g x',
  },
  // Deno 2: `install -g` puts a program in ~/.deno/bin; without -g it adds the project's dependencies
  {
    program: 'deno',
    place: "deno's install root, ~/.deno/bin",
    writes: (p, w) => isGlobal(w) && verbIn(['install', 'i', 'uninstall'])(p),
    example: 'deno install -g jsr:@std/http/file-server',
  },
  // `npm link` links this package into the global folder; `npm link x` also installs x there first
  { program: 'npm', place: "npm's global package folder", writes: verbIn(['link', 'ln']), example: 'npm link' },
  // `uv tool install` puts a tool in uv's tool folder and ~/.local/bin; `update-shell` edits shell start-up files
  {
    program: 'uv',
    place: "uv's tool folder and ~/.local/bin",
    writes: (p) => p[0] === 'tool' && ['install', 'upgrade', 'uninstall', 'update-shell'].includes(p[1] ?? ''),
    example: 'uv tool install ruff',
  },
];

/** Options whose value is the next word, so that it is not taken for the verb (`pnpm -C dir add -g x`). */
const VALUE_OPTIONS = new Set(['-C', '--dir', '--filter', '-F', '--cwd', '--config', '--directory', '--project']);

/** The words that are not options (nor option values), up to `--`. */
function positionalsOf(words: readonly string[]): string[] {
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    if (VALUE_OPTIONS.has(w)) i++;
    else if (!w.startsWith('-')) positionals.push(w);
  }
  return positionals;
}

/** pip's verbs that write nothing (`pip list --user` lists): judged as any program, as before. */
const PIP_READS = new Set(['list', 'show', 'freeze', 'check', 'help', 'inspect', 'search', 'debug', 'hash', 'index']);
const pipWrites = (words: ShellWord[]): ShellWord[] | undefined =>
  PIP_READS.has(positionalsOf(words.map((w) => w.value))[0] ?? '') ? undefined : words;

/**
 * `python3 -m pip …`: the words given to pip (judged as `pip …`, so `--user` is a write of
 * ~/.local and `--target DIR` of DIR), or undefined when the line runs no pip module or only a listing.
 */
export function pythonPipWords(name: string, words: readonly ShellWord[]): ShellWord[] | undefined {
  if (!/^python[\d.]*$/.test(name)) return undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.value;
    if (w === '-m') return words[i + 1]?.value === 'pip' ? pipWrites(words.slice(i + 2)) : undefined;
    if (w === '-mpip') return pipWrites(words.slice(i + 1));
    // python's own options come first; -W, -X and -Q take a value
    if (['-W', '-X', '-Q'].includes(w)) i++;
    else if (!w.startsWith('-')) return undefined;
  }
  return undefined;
}

/**
 * Where `name words…` installs in the person's global or user folders (`pnpm add -g x` → pnpm's
 * global folder), or undefined when it writes none there.
 */
export function globalInstallPlace(name: string, words: readonly ShellWord[]): string | undefined {
  const values = words.map((w) => w.value);
  const positionals = positionalsOf(values);
  return GLOBAL_INSTALLERS.find((row) => row.program === name && row.writes(positionals, values))?.place;
}
