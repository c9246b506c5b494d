/**
 * Recording one simple command of a shell analysis (`shell-analysis.ts`) once its wrappers are seen
 * through: whether it is read-only by the safe table, why it is opaque code (an interpreter
 * one-liner, git that can run a program, a program this line wrote first), the program it runs for
 * the identity check, the copies it makes, and its writes (`shell-findings.ts`).
 */
import { join, resolve } from 'node:path';
import { variableBuiltinCode } from './bash-evaluation.js';
import { awkProgram, commandOptionCode, interpreterCode, opaqueReason, opaqueRunner } from './opaque-code.js';
import { COMMAND_ARITY } from './arity.js';
import { gitInvocation } from './git-code.js';
import { inputNamedWrite } from './input-writers.js';
import { systemChange } from './system-changes.js';
import type { CommandArg } from './safe-command-types.js';
import { isReadOnlyCommand } from './safe-commands.js';
import type { ShellWord } from './shell-parse.js';
import { ShellFindings } from './shell-findings.js';
import {
  basename,
  expandTilde,
  expandTildeValue,
  isWithin,
  plainWord,
  type Directory,
  type Invocation,
} from './shell-scope.js';

const AWK_NAMES = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** Builtins bash runs itself: no file on PATH to identify (a path like `/bin/echo` is still checked). */
const SHELL_BUILTINS = new Set([
  'cd',
  'echo',
  'printf',
  'pwd',
  'test',
  '[',
  'true',
  'false',
  ':',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'unset',
  'set',
  'shopt',
  'read',
  'mapfile',
  'readarray',
  'eval',
  'source',
  '.',
  'trap',
  'exit',
  'return',
  'shift',
  'let',
  'type',
  'command',
  'builtin',
  'hash',
  'alias',
  'unalias',
  'pushd',
  'popd',
  'dirs',
  'wait',
  'jobs',
  'kill',
  'getopts',
  'umask',
  'ulimit',
  'history',
  'fc',
  'bg',
  'fg',
  'disown',
  'suspend',
  'times',
  'enable',
  'help',
  'caller',
  'complete',
  'compgen',
  'compopt',
  'bind',
  'logout',
  'break',
  'continue',
]);

/** The target of a write whose files come from xargs' input. */
const XARGS_TARGETS = '(files read by xargs)';

/** Folders of the system's own programs: `/usr/bin/ls` is ls, but `./ls` or `bin/cat` is whatever the project holds. */
const SYSTEM_PROGRAM_DIRS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;

/** Whether a command word is a path to a file that is not one of the system's programs (`./ls -la`): never read-only by its name. */
function runsFileOutsideSystem(word: ShellWord | undefined): boolean {
  return word !== undefined && word.value.includes('/') && !SYSTEM_PROGRAM_DIRS.test(word.value);
}

/** Programs whose first word names a subcommand that rules tell apart (`npm install`, `docker run`): from the arity table. */
const PROGRAMS_WITH_SUBCOMMANDS = new Set(
  COMMAND_ARITY.filter((a) => a.arity >= 2 && !a.prefix.includes(' ')).map((a) => a.prefix),
);

/**
 * A subcommand held in a variable (`g=push; git $g`, `npm "$verb"`): a rule on `git push*` cannot see
 * it, so the command is judged as code the analysis cannot see.
 */
function variableSubcommand(name: string, args: readonly CommandArg[], text: string): string | undefined {
  if (!PROGRAMS_WITH_SUBCOMMANDS.has(name)) return undefined;
  const first = args.find((a) => !a.literal || !a.value.startsWith('-'));
  return first && !first.literal ? opaqueReason(`${text} (its subcommand is only known when it runs)`) : undefined;
}

/** git's subcommand held in a variable, or one that writes files named by its input (`git stash pop`, `git apply`). */
function gitSubcommandCode(args: readonly CommandArg[], text: string): string | undefined {
  const index = gitInvocation(args, text).subcommandIndex;
  const sub = args[index];
  if (!sub) return undefined;
  if (!sub.literal) return opaqueReason(`${text} (the git subcommand is only known when it runs)`);
  return inputNamedWrite(`git ${sub.value}`, args.slice(index + 1), text);
}

/** {@link ShellFindings} that records one simple command at a time (see {@link CommandRecorder.record}). */
export abstract class CommandRecorder extends ShellFindings {
  /** files this line writes, copies or links before running them (`ln -s "$(which curl)" k && ./k`): path → the source's name when known */
  private readonly madeHere = new Map<string, string | undefined>();

  /** Records a simple command: banned check, read-only check, `cd`, and the files it writes. */
  protected record(name: string, argWords: ShellWord[], invocation: Invocation): void {
    const args = argWords.map((w) => expandTilde(w, this.home));
    const commandArgs: CommandArg[] = argWords.map((w, i) => ({ value: args[i]!, literal: w.literal }));
    const text = [name, ...argWords.map((w) => w.text)].join(' ');
    const opaque = invocation.opaque ?? this.opaqueCode(name, commandArgs, invocation, text);
    const awk = AWK_NAMES.has(name) ? awkProgram(commandArgs, text) : undefined;
    const readOnly =
      opaque === undefined &&
      invocation.safeEnv &&
      !invocation.privileged &&
      !runsFileOutsideSystem(invocation.words[0]) &&
      (isReadOnlyCommand(name, commandArgs, { extraArgsUnknown: invocation.appendsArguments }) ||
        (awk?.readOnly === true && !invocation.appendsArguments));
    this.commands.push({
      name,
      args,
      text,
      wrappers: invocation.wrappers,
      readOnly,
      ...(opaque !== undefined && { opaque }),
    });
    this.programUse(name, invocation);
    const index = this.commands.length - 1;
    const written = this.writes.length;
    if (awk) this.awkWrites(awk, invocation.dir);
    this.trackCopies(name, argWords, invocation.dir);
    this.checkBanned(name);
    const change = systemChange(name, args, text);
    if (change) this.alwaysAsks.push(change);
    if (!readOnly) this.everyCommandReadOnly = false;
    this.directory.noteCommand(name, args);
    this.directory.change(name, argWords, invocation.dir, this.home, (w) => this.resolvePath(w, invocation.dir));
    // find . | xargs rm: the files xargs appends are a word we can't know
    const appended = invocation.appendsArguments ? [{ ...plainWord(XARGS_TARGETS), literal: false }] : [];
    this.commandWrites(name, [...argWords, ...appended], invocation.dir, readOnly);
    for (const write of this.writes.slice(written)) write.command ??= index;
  }

  /**
   * Why a command is opaque code: an interpreter one-liner or a program read from
   * input, a runner we don't follow, git that can run a program, a builtin that sets a code-running
   * variable or evaluates a subscript, or a program this line wrote, copied or linked.
   */
  private opaqueCode(name: string, args: CommandArg[], invocation: Invocation, text: string): string | undefined {
    const runner =
      opaqueRunner(name, args) ?? (args[0] ? opaqueRunner(`${name} ${args[0].value}`, args.slice(1)) : undefined);
    if (runner) return opaqueReason(`${text} (${runner})`);
    const code =
      interpreterCode(name, args, invocation.appendsArguments, text) ??
      variableBuiltinCode(name, args, text) ??
      commandOptionCode(name, args, text);
    if (code) return code;
    if (name === 'git') return this.gitOpaque(args, invocation.dir, text) ?? gitSubcommandCode(args, text);
    const subcommand = variableSubcommand(name, args, text) ?? inputNamedWrite(name, args, text);
    if (subcommand) return subcommand;
    const word = invocation.words[0];
    if (word?.literal && word.value.includes('/') && invocation.dir.path !== undefined) {
      const path = resolve(invocation.dir.path, expandTilde(word, this.home));
      if (this.madeHere.has(path) || this.writes.some((w) => w.path === path)) {
        const source = this.madeHere.get(path);
        if (source) this.checkBanned(source);
        return opaqueReason(`${text} (runs a program this command writes, copies or links first)`);
      }
    }
    return undefined;
  }

  /**
   * git reads the configuration of the repository it runs in, and that can run programs
   * (`core.fsmonitor`, `core.pager`): git run in another repository than the one the line starts in,
   * or with `--git-dir` elsewhere than its `.git`, is opaque code; so are `-c` settings that can run
   * a program (see {@link gitInvocation}).
   */
  private gitOpaque(args: CommandArg[], dir: Directory, text: string): string | undefined {
    const git = gitInvocation(args, text);
    if (git.opaque) return git.opaque;
    let where = dir.path;
    for (const { option, arg } of git.directories) {
      if (!arg.literal || where === undefined)
        return opaqueReason(`${text} (${option} names a repository only known when it runs)`);
      const path = resolve(where, expandTildeValue(arg.value, this.home));
      const ownGitDir = option === '--git-dir' && path === join(this.startDir, '.git');
      if (!isWithin(this.startDir, path) || (option === '--git-dir' && !ownGitDir)) {
        return opaqueReason(`${text} (${option} ${arg.value}: another repository's configuration can run programs)`);
      }
      if (option === '-C') where = path;
    }
    if (where === undefined || !isWithin(this.startDir, where)) {
      return opaqueReason(`${text} (runs in another repository, whose configuration can run programs)`);
    }
    return undefined;
  }

  /** Remembers a program run by name or path, for the identity check (a renamed copy of curl). */
  private programUse(name: string, invocation: Invocation): void {
    const word = invocation.words[0];
    if (!word?.literal) return;
    const invokedAs = expandTilde(word, this.home);
    if (!invokedAs.includes('/') && SHELL_BUILTINS.has(name)) return;
    const command = this.commands.length - 1; // recorded just before
    this.programs.push({
      name,
      invokedAs,
      command,
      ...(invocation.dir.path !== undefined && { dir: invocation.dir.path }),
    });
  }

  /** `cp`/`ln`/`install`/`mv SOURCE DEST`: DEST is that program now (`ln -s /usr/bin/curl k && ./k`). */
  private trackCopies(name: string, words: ShellWord[], dir: Directory): void {
    if (!['cp', 'ln', 'install', 'mv'].includes(name) || dir.path === undefined) return;
    const operands = words.filter((w) => !w.value.startsWith('-'));
    if (operands.length < 2) return;
    const destination = operands.at(-1)!;
    if (!destination.literal) return;
    const path = resolve(dir.path, expandTilde(destination, this.home));
    const sources = operands.slice(0, -1);
    const source = sources.length === 1 && sources[0]!.literal ? basename(sources[0]!.value) : undefined;
    this.madeHere.set(path, source);
    for (const s of sources) if (s.literal) this.madeHere.set(join(path, basename(s.value)), basename(s.value));
  }
}
