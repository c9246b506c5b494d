/**
 * The read-only table's git rows (`safe-commands.ts` holds the rest): git's read-only subcommands, and
 * the listing forms of the ones that also change things (`git branch` lists, `git branch -D` deletes),
 * with git's global options before the subcommand.
 *
 * The log family (`log`, `show`, `stash list`, `reflog`, `rev-list`, …) takes `--output=FILE`, which
 * writes the file: every row of it denies that option.
 */
import { splitLong } from './getopt.js';
import type { CommandArg, SafeCommand } from './safe-command-types.js';

const VERSION_ONLY = (args: readonly string[]) =>
  args.length === 1 && ['--version', '-v', '-V', '-version', 'version'].includes(args[0]!);

export const SAFE_GIT_COMMANDS: readonly SafeCommand[] = [
  { command: 'git', example: 'git --version', check: VERSION_ONLY },
  { command: 'git status', example: 'git status --short' },
  { command: 'git log', example: 'git log --oneline -5 (not --output=file)', deniedFlags: ['--output'] },
  { command: 'git show', example: 'git show HEAD:src/a.ts', deniedFlags: ['--output'] },
  { command: 'git diff', example: 'git diff HEAD~1', deniedFlags: ['--output'] },
  { command: 'git whatchanged', example: 'git whatchanged -5', deniedFlags: ['--output'] },
  {
    command: 'git branch',
    example: 'git branch -a, git branch --list "feat*" (not -D, -m, -u or a new name)',
    check: gitBranchLists,
  },
  { command: 'git tag', example: 'git tag -l "v1*" (not -d or a new tag)', check: gitTagLists },
  {
    command: 'git remote',
    example:
      'git remote -v, git remote get-url origin, git remote show -n origin (not add/set-url; show without -n uses the network)',
    check: gitRemoteLists,
  },
  {
    command: 'git config',
    example: 'git config --get user.name, git config --list (not a set)',
    check: isGitConfigRead,
  },
  {
    command: 'git stash',
    example: 'git stash list, git stash show -p (bare `git stash` stashes; not --output=file)',
    deniedFlags: ['--output'],
    check: (a) => a[0] === 'list' || a[0] === 'show',
  },
  {
    command: 'git reflog',
    example: 'git reflog -10 (not expire/delete or --output=file)',
    deniedFlags: ['--output'],
    check: (a) => a[0] !== 'expire' && a[0] !== 'delete',
  },
  { command: 'git worktree', example: 'git worktree list', check: (a) => a[0] === 'list' },
  { command: 'git submodule', example: 'git submodule status', check: (a) => a[0] === 'status' },
  { command: 'git ls-files', example: 'git ls-files src' },
  { command: 'git ls-tree', example: 'git ls-tree HEAD' },
  { command: 'git rev-parse', example: 'git rev-parse HEAD' },
  { command: 'git rev-list', example: 'git rev-list --count HEAD (not --output=file)', deniedFlags: ['--output'] },
  { command: 'git blame', example: 'git blame -L 10,20 a.ts' },
  {
    command: 'git grep',
    example: 'git grep -n TODO (not -O, which opens a program)',
    deniedFlags: ['-O', '--open-files-in-pager'],
    shortValueFlags: 'eABCm',
  },
  { command: 'git shortlog', example: 'git shortlog -sn (not --output=file)', deniedFlags: ['--output'] },
  { command: 'git describe', example: 'git describe --tags' },
  { command: 'git cat-file', example: 'git cat-file -p HEAD' },
  { command: 'git merge-base', example: 'git merge-base main HEAD' },
  { command: 'git name-rev', example: 'git name-rev HEAD' },
  { command: 'git show-ref', example: 'git show-ref --tags' },
  { command: 'git for-each-ref', example: 'git for-each-ref refs/heads' },
  { command: 'git count-objects', example: 'git count-objects -v' },
  { command: 'git check-ignore', example: 'git check-ignore -v dist' },
  { command: 'git version', example: 'git version' },
];

const GIT_VALUE_GLOBALS = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'];
const GIT_READ_ONLY_GLOBALS = new Set([
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--no-replace-objects',
  '--bare',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
  '--version',
  '-v',
]);

/**
 * git's options before the subcommand (`git -C sub --no-pager log`): where the subcommand is, the
 * `-C` directories, and whether they are all harmless (`-c core.pager=…` and `--exec-path=` can run
 * any program).
 */
export function parseGitGlobals(args: readonly CommandArg[]): {
  subcommand?: string;
  subcommandIndex: number;
  directories: CommandArg[];
  readOnly: boolean;
} {
  const directories: CommandArg[] = [];
  let readOnly = true;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.value.startsWith('-') || !arg.literal) break;
    const [flag, attached] = splitLong(arg.value);
    if (!GIT_READ_ONLY_GLOBALS.has(flag)) readOnly = false;
    if (GIT_VALUE_GLOBALS.includes(flag) && attached === undefined) {
      const value = args[++i];
      if (flag === '-C' && value) directories.push(value);
    } else if (flag === '-C' && attached !== undefined) directories.push({ value: attached, literal: arg.literal });
  }
  const sub = args[i];
  if (sub && !sub.literal) readOnly = false;
  return { subcommand: sub?.value, subcommandIndex: i, directories, readOnly };
}

// listing flags; --color, --column and --abbrev take their optional value only attached (`--color=always`)
const BRANCH_LIST_FLAGS =
  /^-[arvli]+$|^--(all|remotes|verbose|list|show-current|column|no-column|color|no-color|ignore-case|omit-empty|abbrev|no-abbrev)$/;
const TAG_LIST_FLAGS = /^-[li]+$|^-n\d*$|^--(list|column|no-column|color|no-color|ignore-case|omit-empty)$/;
// filters that take the next word as their value (git's PARSE_OPT_LASTARG_DEFAULT or a required value)
const REF_FILTERS = ['--merged', '--no-merged', '--contains', '--no-contains', '--points-at', '--sort', '--format'];

/** `git branch` and `git tag` list when every flag is a listing flag, and take patterns only with `--list`. */
function listsRefs(args: readonly string[], listFlags: RegExp): boolean {
  let list = false;
  let patterns = 0;
  for (let i = 0; i < args.length; i++) {
    const [flag, attached] = splitLong(args[i]!);
    if (flag === '--') {
      patterns += args.length - i - 1;
      break;
    }
    if (REF_FILTERS.includes(flag)) {
      const next = args[i + 1];
      if (attached === undefined && next !== undefined && !next.startsWith('-')) i++;
    } else if (listFlags.test(flag)) {
      if (/^-[a-z]*l|^--list$/.test(flag)) list = true;
    } else if (flag.startsWith('-')) return false;
    else patterns++;
  }
  return patterns === 0 || list;
}

function gitBranchLists(args: readonly string[]): boolean {
  return listsRefs(args, BRANCH_LIST_FLAGS);
}

function gitTagLists(args: readonly string[]): boolean {
  return listsRefs(args, TAG_LIST_FLAGS);
}

function gitRemoteLists(args: readonly string[]): boolean {
  if (args.every((a) => a === '-v' || a === '--verbose')) return true;
  if (args[0] === 'get-url') return true;
  return args[0] === 'show' && args.includes('-n');
}

const CONFIG_READS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
];
const CONFIG_LOOKUP_FLAGS = [
  '--global',
  '--system',
  '--local',
  '--worktree',
  '--show-origin',
  '--show-scope',
  '--includes',
  '--no-includes',
  '-z',
  '--null',
  '--bool',
  '--int',
  '--path',
  '--bool-or-int',
  '--type',
  '--name-only',
];
const CONFIG_WRITES = [
  '--add',
  '--unset',
  '--unset-all',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '-e',
  '--edit',
];

/** Whether `git config …` (its arguments after `config`) only reads: `--get`, `--list`, `get`, `list`. */
export function isGitConfigRead(args: readonly string[]): boolean {
  const flags = args.map((a) => splitLong(a)[0]);
  if (flags.some((f) => CONFIG_WRITES.includes(f))) return false;
  if (flags.some((f) => CONFIG_READS.includes(f))) return true;
  const positionals = args.filter((a) => !a.startsWith('-'));
  if (positionals[0] === 'get' || positionals[0] === 'list') return true; // git 2.46+: git config get/list
  // `git config user.name`: one name and no value reads it
  return positionals.length === 1 && flags.every((f) => CONFIG_LOOKUP_FLAGS.includes(f) || f === positionals[0]);
}
