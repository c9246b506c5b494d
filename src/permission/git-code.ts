/**
 * git that runs code: `git -c alias.x='!rm x' x`, `-c core.fsmonitor=…`,
 * `--config-env`, `--exec-path=`, subcommand options that carry a command (`rebase -x`,
 * `submodule foreach`), and `git config` setting a key that later git commands run. Which keys
 * are harmless comes from git-config(1): colours, names, formats; any key that names a program,
 * pager, editor, hook path, filter or alias is not.
 */
import { opaqueReason } from './opaque-code.js';
import type { CommandArg } from './safe-command-types.js';
import { splitLong } from './safe-commands.js';

/**
 * `git -c` keys whose values are never run: colours, names, output formats. Any other key may be
 * (`core.pager`, `core.fsmonitor`, `core.sshCommand`, `alias.*` with `!`, `diff.*.textconv`, …).
 */
const HARMLESS_GIT_CONFIG = [
  /^color\./,
  /^column\./,
  /^advice\./,
  /^i18n\./,
  /^user\.(name|email)$/,
  /^author\.(name|email)$/,
  /^committer\.(name|email)$/,
  /^core\.(quotepath|autocrlf|safecrlf|eol|abbrev|filemode|ignorecase|precomposeunicode|whitespace)$/,
  /^log\.(date|decorate|abbrevcommit|follow|showroot|showsignature|mailmap|graphcolors|initialdecorationset|excludedecoration)$/,
  /^diff\.(noprefix|mnemonicprefix|relative|renames|renamelimit|algorithm|colormoved|colormovedws|context|interhunkcontext|indentheuristic|suppressblankempty|statgraphwidth|dirstat|wserrorhighlight)$/,
  /^status\.(short|branch|showstash|showuntrackedfiles|relativepaths|aheadbehind|renames|renamelimit|displaycommentprefix)$/,
  /^(branch|tag)\.sort$/,
  /^init\.defaultbranch$/,
  /^format\.pretty$/,
  /^pretty\.[^.]+$/,
  /^grep\.(linenumber|patterntype|extendedregexp|column|fullname)$/,
  /^blame\.(date|coloring|showemail|blankboundary|showroot)$/,
  /^merge\.conflictstyle$/,
  /^gc\.auto$/,
  /^maintenance\.auto$/,
  /^protocol\.version$/,
];

/** Whether setting git config `key` (case-insensitive) can never make git run a program. */
export function isHarmlessGitConfig(key: string): boolean {
  const lower = key.toLowerCase();
  return HARMLESS_GIT_CONFIG.some((pattern) => pattern.test(lower));
}

/** git subcommands whose options carry a command git runs: `git rebase -x 'make test'`. */
const GIT_COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rebase: ['-x', '--exec'], // git rebase -x 'rm x' HEAD~3
  'submodule foreach': [''], // git submodule foreach 'rm x': its argument
  'bisect run': [''], // git bisect run ./test.sh
  difftool: ['-x', '--extcmd'], // git difftool -x 'rm x'
  'filter-branch': [
    '--tree-filter',
    '--index-filter',
    '--msg-filter',
    '--env-filter',
    '--parent-filter',
    '--commit-filter',
    '--tag-name-filter',
  ],
  'filter-repo': [''],
  mergetool: ['--tool', '-t'],
  'ls-remote': ['--upload-pack', '-u'],
  clone: ['--upload-pack', '-u', '--template', '-c', '--config'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  push: ['--receive-pack', '--exec'],
  archive: ['--exec', '--remote'],
  'send-email': ['--sendmail-cmd', '--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd'],
  grep: ['-O', '--open-files-in-pager'],
  config: ['-e', '--edit'],
};

/** How git is run: its subcommand after the global options, and why it is opaque, if it is. */
export interface GitInvocation {
  /** index of the subcommand in the arguments */
  subcommandIndex: number;
  /** `-C`, `--git-dir`, `--work-tree` values, in order */
  directories: { option: string; arg: CommandArg }[];
  opaque?: string;
}

/**
 * git's global options (git(1)): `-c key=value` and `--config-env key=VAR` with a key not on the
 * harmless list, `--exec-path=DIR`, and subcommand options that carry a command are opaque code.
 * Directory options are returned for the caller to judge (it knows the project).
 */
export function gitInvocation(
  args: readonly CommandArg[],
  written = ['git', ...args.map((a) => a.value)].join(' '),
): GitInvocation {
  const directories: GitInvocation['directories'] = [];
  let opaque: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.value.startsWith('-')) break;
    if (!arg.literal)
      return {
        subcommandIndex: i,
        directories,
        opaque: opaqueReason(`${written} (an option only known when it runs)`),
      };
    const [option, attached] = splitLong(arg.value);
    if (option === '-c' || (option.startsWith('-c') && !option.startsWith('--'))) {
      const setting = option === '-c' ? args[++i] : { value: arg.value.slice(2), literal: true };
      const key = setting?.value.split('=', 1)[0] ?? '';
      if (!setting?.literal || !isHarmlessGitConfig(key))
        opaque ??= opaqueReason(`${written} (-c ${key} can run a program)`);
    } else if (option === '--config-env') {
      const setting = attached !== undefined ? { value: attached, literal: true } : args[++i];
      const key = setting?.value.split('=', 1)[0] ?? '';
      if (!setting?.literal || !isHarmlessGitConfig(key))
        opaque ??= opaqueReason(`${written} (--config-env ${key} can run a program)`);
    } else if (option === '--exec-path') {
      if (attached !== undefined)
        opaque ??= opaqueReason(`${written} (--exec-path runs git's programs from another folder)`);
    } else if (option === '-C' || option === '--git-dir' || option === '--work-tree') {
      const value = attached !== undefined ? { value: attached, literal: arg.literal } : args[++i];
      if (value) directories.push({ option, arg: value });
    } else if (
      option === '--namespace' ||
      option === '--super-prefix' ||
      option === '--list-cmds' ||
      option === '--attr-source'
    ) {
      if (attached === undefined) i++;
    }
  }
  if (!opaque) {
    const sub = args[i]?.value;
    const second = args[i + 1]?.value;
    const key = sub && second && GIT_COMMAND_OPTIONS[`${sub} ${second}`] ? `${sub} ${second}` : sub;
    const options = key ? GIT_COMMAND_OPTIONS[key] : undefined;
    if (options && Object.hasOwn(GIT_COMMAND_OPTIONS, key!)) {
      const rest = args.slice(i + 1).map((a) => splitLong(a.value)[0]);
      if (
        options.includes('') ||
        rest.some(
          (r) => options.includes(r) || options.some((o) => o.length === 2 && !r.startsWith('--') && r.startsWith(o)),
        )
      ) {
        opaque = opaqueReason(`${written} (git ${key} runs a command it is given)`);
      }
    }
    if (sub && /^alias\./i.test(sub)) opaque = opaqueReason(written);
    if (sub === 'config') {
      const key = gitConfigSetKey(args.slice(i + 1).map((a) => a.value));
      if (key !== undefined && !isHarmlessGitConfig(key))
        opaque = opaqueReason(`${written} (sets ${key}, which can make later git commands run a program)`);
    }
  }
  return { subcommandIndex: i, directories, ...(opaque !== undefined && { opaque }) };
}

const CONFIG_VALUE_OPTIONS = ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value'];
const CONFIG_NOT_SETTING = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
  '--unset',
  '--unset-all',
  '--remove-section',
];

/**
 * The key `git config …` sets (`git config core.pager x`, `git config set alias.x …`, `--add`,
 * `--rename-section old alias`), or undefined when it only reads or removes.
 */
function gitConfigSetKey(args: readonly string[]): string | undefined {
  const positionals: string[] = [];
  let renames = false;
  for (let i = 0; i < args.length; i++) {
    const [option, attached] = splitLong(args[i]!);
    if (CONFIG_VALUE_OPTIONS.includes(option)) {
      if (attached === undefined) i++;
    } else if (CONFIG_NOT_SETTING.includes(option)) return undefined;
    else if (option === '--rename-section') renames = true;
    else if (!option.startsWith('-')) positionals.push(args[i]!);
  }
  const [first, second, third] = positionals;
  if (renames) return second !== undefined ? `${second}.` : undefined;
  if (first === 'set') return second;
  if (first === 'rename-section') return third !== undefined ? `${third}.` : undefined;
  if (first === 'get' || first === 'list' || first === 'unset' || first === 'remove-section') return undefined;
  return second !== undefined ? first : undefined;
}
