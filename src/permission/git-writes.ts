/**
 * What git writes, for `write-targets.ts`: `--output` of log, diff, show, …; each
 * subcommand that creates files or folders (a table, with an example per row: clone, init, archive,
 * bundle, format-patch, worktree, submodule, config, and the commands that rewrite the repository's
 * own config: remote add, branch -u, push -u, …); and the folders of
 * `-C`, `--git-dir` and `--work-tree`. Sources: git's documentation of each subcommand. Pure.
 */
import { basename as pathBasename } from 'node:path';
import { attachedWord, hasOption, optionValues, parseOptions, type OptionSpec, type ParsedOptions } from './getopt.js';
import type { CommandArg } from './safe-command-types.js';
import { isGitConfigRead, parseGitGlobals } from './safe-commands.js';
import type { ShellWord } from './shell-parse.js';
import {
  expansionsBeforeEndOfOptions,
  literalWord as word,
  unknownPlace,
  type CommandWrites,
  type WriterContext,
  type WriteTarget,
} from './write-target-types.js';

const GIT_SUBCOMMAND_TARGETS: Readonly<
  Record<string, { spec: OptionSpec; example: string; targets: (parsed: ParsedOptions, home: string) => WriteTarget[] }>
> = {
  clone: {
    example: 'git clone url /tmp/x (default: a folder named after the repository, in the working directory)',
    spec: {
      shortWithValue: 'objuc',
      long: [
        'bare',
        'mirror',
        'recurse-submodules',
        'no-checkout',
        'quiet',
        'verbose',
        'progress',
        'single-branch',
        'no-tags',
        'shallow-submodules',
        'local',
        'shared',
        'dissociate',
        'sparse',
        'also-filter-submodules',
        'remote-submodules',
      ],
      longWithValue: [
        'origin',
        'branch',
        'upload-pack',
        'reference',
        'reference-if-able',
        'separate-git-dir',
        'depth',
        'shallow-since',
        'shallow-exclude',
        'config',
        'template',
        'jobs',
        'filter',
        'server-option',
        'bundle-uri',
        'ref-format',
      ],
    },
    targets: (parsed) => {
      const [repository, directory] = parsed.positionals;
      const derived = repository?.literal
        ? word(pathBasename(repository.value.replace(/\/+$/, '').replace(/:+$/, '')).replace(/\.git$/, '') || '.')
        : undefined;
      const target = directory ?? derived ?? unknownPlace('(the folder git clone creates)').word;
      return [
        { word: target, via: 'other', container: true },
        ...optionValues(parsed, '--separate-git-dir').map((w) => ({ word: w, via: 'other' as const })),
      ];
    },
  },
  init: {
    example: 'git init /tmp/x (default: the working directory)',
    spec: {
      shortWithValue: 'b',
      long: [
        'bare',
        'quiet',
        'template',
        'separate-git-dir',
        'object-format',
        'ref-format',
        'initial-branch',
        'shared',
      ],
      longWithValue: ['template', 'separate-git-dir', 'object-format', 'ref-format', 'initial-branch'],
    },
    targets: (parsed) => [
      { word: parsed.positionals[0] ?? word('.'), via: 'other' },
      ...optionValues(parsed, '--separate-git-dir').map((w) => ({ word: w, via: 'other' as const })),
    ],
  },
  archive: {
    example: 'git archive -o /tmp/a.tar HEAD',
    spec: {
      shortWithValue: 'o',
      long: [
        'format',
        'prefix',
        'output',
        'add-file',
        'add-virtual-file',
        'worktree-attributes',
        'mtime',
        'remote',
        'exec',
        'list',
        'verbose',
      ],
      longWithValue: ['format', 'prefix', 'output', 'add-file', 'add-virtual-file', 'mtime', 'remote', 'exec'],
    },
    targets: (parsed) => optionValues(parsed, '-o', '--output').map((w) => ({ word: w, via: 'git --output' })),
  },
  bundle: {
    example: 'git bundle create /tmp/repo.bundle --all',
    spec: { long: ['progress', 'all', 'quiet', 'version'] },
    targets: (parsed) =>
      parsed.positionals[0]?.value === 'create' && parsed.positionals[1]
        ? [{ word: parsed.positionals[1], via: 'other' }]
        : [],
  },
  'format-patch': {
    example: 'git format-patch -o /tmp/patches HEAD~3 (default: the working directory)',
    spec: {
      shortWithValue: 'ov',
      long: [
        'output-directory',
        'output',
        'stdout',
        'numbered',
        'start-number',
        'subject-prefix',
        'cover-letter',
        'in-reply-to',
        'to',
        'cc',
        'from',
        'signature',
        'suffix',
      ],
      longWithValue: [
        'output-directory',
        'output',
        'start-number',
        'subject-prefix',
        'in-reply-to',
        'to',
        'cc',
        'suffix',
      ],
    },
    targets: (parsed) => {
      if (hasOption(parsed, '--stdout')) return [];
      const output = optionValues(parsed, '-o', '--output-directory', '--output');
      return (output.length ? output : [word('.')]).map((w) => ({ word: w, via: 'other' as const }));
    },
  },
  worktree: {
    example: 'git worktree add /tmp/w main, git worktree move w /tmp/w',
    spec: {
      shortWithValue: 'bB',
      long: ['force', 'detach', 'checkout', 'lock', 'reason', 'orphan', 'track', 'guess-remote', 'quiet'],
      longWithValue: ['reason'],
    },
    targets: (parsed) => {
      const [action, ...rest] = parsed.positionals;
      if (action?.value === 'add' && rest[0]) return [{ word: rest[0], via: 'other', container: true }];
      if (action?.value === 'move' && rest[1]) return [{ word: rest[1], via: 'other' }];
      if (action?.value === 'remove' && rest[0]) return [{ word: rest[0], via: 'other' }];
      return [];
    },
  },
  submodule: {
    example: 'git submodule add url /tmp/x',
    spec: {
      shortWithValue: 'b',
      long: ['branch', 'force', 'name', 'reference', 'depth', 'quiet'],
      longWithValue: ['branch', 'name', 'reference', 'depth'],
    },
    targets: (parsed) => {
      const [action, , path] = parsed.positionals;
      return action?.value === 'add' && path ? [{ word: path, via: 'other' }] : [];
    },
  },
  config: {
    example:
      'git config --global user.name x (~/.gitconfig), git config --file /tmp/c x y, git config --system x y (/etc/gitconfig)',
    spec: {
      shortWithValue: 'f',
      long: ['global', 'system', 'local', 'worktree', 'file', 'blob'],
      longWithValue: ['file', 'blob'],
    },
    targets: (parsed, home) => {
      const files = optionValues(parsed, '-f', '--file');
      if (files.length) return files.map((w) => ({ word: w, via: 'other' as const }));
      if (hasOption(parsed, '--global')) return [{ word: word(`${home}/.gitconfig`), via: 'other' }];
      if (hasOption(parsed, '--system')) return [{ word: word('/etc/gitconfig'), via: 'other' }];
      // the repository's own: its config can run programs (core.fsmonitor, core.hooksPath, aliases)
      return [repositoryConfig(hasOption(parsed, '--worktree') ? '.git/config.worktree' : '.git/config')];
    },
  },
  remote: {
    example: 'git remote add origin url, git remote set-url origin url (.git/config)',
    spec: {
      shortWithValue: 'tm',
      long: ['verbose', 'fetch', 'tags', 'no-tags', 'mirror', 'push', 'add', 'delete', 'all'],
    },
    targets: (parsed) => (REMOTE_CONFIG_ACTIONS.has(parsed.positionals[0]?.value ?? '') ? [repositoryConfig()] : []),
  },
  branch: {
    example: 'git branch -u origin/main, git branch -m old new (.git/config: the upstream, the branch section)',
    spec: {
      shortWithValue: 'u',
      long: ['set-upstream-to', 'unset-upstream', 'move', 'copy', 'edit-description', 'track'],
      longWithValue: ['set-upstream-to'],
    },
    targets: (parsed) => (hasOption(parsed, ...BRANCH_CONFIG_OPTIONS) ? [repositoryConfig()] : []),
  },
  push: {
    example: 'git push -u origin main (.git/config: the upstream)',
    spec: { long: ['set-upstream'] },
    targets: (parsed) => (hasOption(parsed, '-u', '--set-upstream') ? [repositoryConfig()] : []),
  },
};

/** `git remote` actions that rewrite the repository's config. */
const REMOTE_CONFIG_ACTIONS = new Set(['add', 'rename', 'remove', 'rm', 'set-url', 'set-branches']);

/** `git branch` options that write the branch's section of the config (its upstream, its name, its description). */
const BRANCH_CONFIG_OPTIONS = [
  '-u',
  '--set-upstream-to',
  '--unset-upstream',
  '-m',
  '-M',
  '--move',
  '-c',
  '-C',
  '--copy',
  '--edit-description',
  '-t',
  '--track',
];

/** A write to the repository's own config file (relative to where git runs). */
function repositoryConfig(file = '.git/config'): WriteTarget {
  return { word: word(file), via: 'other' };
}

const gitSubcommands = new Map(Object.entries(GIT_SUBCOMMAND_TARGETS));

/**
 * git subcommands that update the work tree: what they check out may hold symbolic links (a branch
 * with `notes -> ~/.bashrc`), so a path under the work tree written later in the same line is not
 * known (`git checkout b && echo x >> notes`).
 */
const GIT_WORK_TREE_UPDATES = new Set([
  'checkout',
  'switch',
  'reset',
  'merge',
  'pull',
  'rebase',
  'cherry-pick',
  'revert',
  'apply',
  'am',
  'restore',
  'stash',
  'read-tree',
  'checkout-index',
  'sparse-checkout',
  'bisect',
]);

/** git subcommands that only read, but for their `--output` file: they write nothing else. */
const GIT_READING_SUBCOMMANDS = new Set([
  'log',
  'show',
  'diff',
  'whatchanged',
  'shortlog',
  'blame',
  'grep',
  'status',
  'ls-files',
  'ls-tree',
  'rev-list',
  'rev-parse',
  'cat-file',
  'describe',
  'range-diff',
  'diff-tree',
  'diff-files',
  'diff-index',
  'show-ref',
  'for-each-ref',
  'name-rev',
  'merge-base',
  'check-ignore',
  'count-objects',
  'version',
  'help',
]);

/** Every git subcommand: `--output` (log, diff, show, …); then the subcommand's own targets; and `-C`, `--git-dir`, `--work-tree`. */
export function gitTargets(words: readonly ShellWord[], context: WriterContext): CommandWrites {
  const args: CommandArg[] = words.map((w) => ({ value: w.value, literal: w.literal }));
  const git = parseGitGlobals(args);
  const globals = words.slice(0, git.subcommandIndex);
  const directory: ShellWord[] = [];
  const targets: WriteTarget[] = [];
  for (let i = 0; i < globals.length; i++) {
    const w = globals[i]!;
    const [name, attached] =
      w.value.startsWith('--') && w.value.includes('=')
        ? [w.value.slice(0, w.value.indexOf('=')), w.value.slice(w.value.indexOf('=') + 1)]
        : [w.value, undefined];
    const value =
      attached !== undefined
        ? attachedWord(w, attached)
        : name === '-C' || name === '--git-dir' || name === '--work-tree'
          ? globals[i + 1]
          : undefined;
    if (name === '-C' && value) directory.push(value);
    if ((name === '--git-dir' || name === '--work-tree') && value) targets.push({ word: value, via: 'other' });
    if (
      ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'].includes(name) &&
      attached === undefined
    )
      i++;
  }
  const rest = words.slice(git.subcommandIndex + 1);
  const sub = git.subcommand;
  const row = sub !== undefined ? gitSubcommands.get(sub) : undefined;
  if (sub === 'config' && isGitConfigRead(rest.map((w) => w.value))) {
    return { onlyTargets: true, targets, ...(directory.length && { directory }) };
  }
  if (row) targets.push(...row.targets(parseOptions(rest, row.spec), context.home));
  const stashKeeps =
    sub === 'stash' && !['pop', 'apply', 'branch'].includes(rest.find((w) => !w.value.startsWith('-'))?.value ?? '');
  if (sub !== undefined && GIT_WORK_TREE_UPDATES.has(sub) && !stashKeeps) {
    const workTree = targets.find((t) => t.via === 'other' && globals.includes(t.word)) ?? {
      word: word('.'),
      via: 'other' as const,
    };
    targets.push({ ...workTree, container: true });
  } else {
    // --output (and its abbreviations) of log, diff, show, … : `git log --out=x`
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      if (w.value === '--') break;
      const eq = w.value.indexOf('=');
      const name = eq === -1 ? w.value : w.value.slice(0, eq);
      if (name.startsWith('--') && name.length > 3 && 'output'.startsWith(name.slice(2))) {
        const value = eq !== -1 ? attachedWord(w, w.value.slice(eq + 1)) : rest[++i];
        if (value) targets.push({ word: value, via: 'git --output' });
      }
    }
  }
  if (sub !== undefined && (GIT_READING_SUBCOMMANDS.has(sub) || sub === 'format-patch' || sub === 'archive')) {
    // `git log "$X"` with X=--output=/tmp/x
    targets.push(
      ...expansionsBeforeEndOfOptions(rest).map((w) =>
        unknownPlace(`${w.text} (may be an option naming a file to write)`),
      ),
    );
  }
  const onlyTargets = sub !== undefined && GIT_READING_SUBCOMMANDS.has(sub) && !targets.some((t) => t.via === 'other');
  return { onlyTargets, targets, ...(directory.length && { directory }) };
}
