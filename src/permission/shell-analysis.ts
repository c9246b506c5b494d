/**
 * Shell command analysis (issue #4 §1): what a bash command line would run and write, so that
 * permission rules judge every part of it, not its first word (reference §1.1, §10 item 3).
 *
 * `analyzeCommand` parses the line with a real bash parser (`shell-parse.ts`) and finds every simple
 * command: across `;` `&&` `||` `|` `&` and newlines, in `( )` and `{ }`, in `$( )`, backticks and
 * `<( )`, in here-documents that expand, and in the strings given to `bash -c`, `sh -c`, `eval`,
 * `trap`, `xargs` and `find -exec`. It sees through wrappers (`sudo`, `env`, `timeout`, `nice`, …,
 * and `VAR=value` prefixes) and paths (`/usr/bin/curl` is `curl`). It collects what is written
 * (redirections, `tee`, `sed -i`, `sort -o`, `git --output`, `find -delete`, `rm`/`cp`/`mv`/…), checks
 * the banned list (`banned-commands.ts`) and the read-only table (`safe-commands.ts`).
 *
 * Anything it cannot see through (a syntax error, a command name that is only known at run time,
 * `eval "$x"`) is reported as `unanalysable`, and the caller asks.
 *
 * Opaque code (issue #10 §1) is marked on the command that runs it (`SimpleCommand.opaque`):
 * interpreter one-liners and programs read from input (`opaque-code.ts`), code-running environment
 * (`code-env.ts`), code bash evaluates in arithmetic and subscripts, git that can run a program,
 * wrappers whose command string is not literal (`wrappers.ts`). The policy never lets the read-only
 * list or a wildcard rule allow it.
 *
 * Pure: no file system access, no environment; `cwd` and `home` come from the caller.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { commandPrefix } from './arity.js';
import { bannedCommand } from './banned-commands.js';
import { WorkingDirectory } from './working-directory.js';
import { commandWrites, type WriteVia } from './write-targets.js';
import { codeEnvironmentVariable, storesSubscriptCode } from './code-env.js';
import {
  arithmeticHidesCode,
  assignmentRunsCode,
  awkProgram,
  commandOptionCode,
  expandsPrompt,
  forLoopHidesCode,
  interpreterCode,
  isInputFile,
  opaqueReason,
  opaqueRunner,
  subscriptHidesCode,
  testClauseHidesCode,
  variableBuiltinCode,
  wordHidesCode,
} from './opaque-code.js';
import { gitInvocation } from './git-code.js';
import { PRIVILEGED_WRAPPERS, wrappers, type WrapperSpec } from './wrappers.js';
import {
  FIND_WRITING_ACTIONS,
  isReadOnlyCommand,
  isSafeEnvAssignment,
  splitLong,
  type CommandArg,
} from './safe-commands.js';
import {
  parseShell,
  ShellSyntaxError,
  type ShellCall,
  type ShellScript,
  type ShellStatement,
  type ShellWord,
} from './shell-parse.js';

export interface SimpleCommand {
  /** the real command after wrappers and paths: 'git', 'rm', 'curl' */
  name: string;
  /** argv after the name, as the shell would pass them (quotes removed, `~` expanded; unexpandable parts kept as written, e.g. '$HOME') */
  args: string[];
  /** the command as written, from its name on, wrappers and env prefixes removed: 'git commit -m x' — used for rule matching */
  text: string;
  /** wrappers seen through, e.g. ['sudo', 'timeout'] and env assignments e.g. ['CI=true'] */
  wrappers: string[];
  /**
   * Set by analyzeCommand: this command alone is on the safe table with read-only arguments, taking
   * its wrappers into account (`sudo ls`, `PATH=x ls` and `xargs git branch` are not). Writes by
   * redirection are not part of it; they are in {@link ShellAnalysis.writes}. (Optional so that a
   * command built by hand, e.g. to compute a {@link sessionScope}, needs no value.)
   */
  readOnly?: boolean;
  /**
   * Set when the command runs code the analysis cannot see (issue #10 §1): an interpreter one-liner,
   * a program or script read from input, code-running environment, git configuration that runs a
   * program, code in bash's arithmetic. Why, in plain words: `runs code the check cannot see: python3 -c …`.
   * Never read-only; the policy allows it only by a rule that names the program.
   */
  opaque?: string;
}

/** A program the line runs, as invoked, for checks that need the file system (`program-identity.ts`). */
export interface ProgramUse {
  /** the command name, without its path: `curl`, `k` */
  name: string;
  /** the command word as given, `~` expanded: `curl`, `./bin/k`, `/usr/bin/curl` */
  invokedAs: string;
  /** the directory it runs in, when known */
  dir?: string;
  /** its index in {@link ShellAnalysis.commands} */
  command: number;
}

export interface ShellWrite {
  /** target as written */
  target: string;
  /** absolute if resolvable against cwd (~ expanded with the given home), else undefined */
  path?: string;
  /** how it was found; `argument` and `working directory` are the guesses for programs the table of `write-targets.ts` does not know */
  via: WriteVia;
  /**
   * The one simple command the write belongs to (its index in {@link ShellAnalysis.commands}): the
   * command a redirection hangs on (`echo done > status.txt`), or the writing command itself (`tee
   * log`). Unset when the write cannot be tied to one command (`{ a; b; } > log`). Lets a reason name
   * the part of a compound line that writes (issue 13 §13).
   */
  command?: number;
  /** the redirection as written before its target, for a redirection: `>`, `>>`, `2>`, `&>`, … */
  redirect?: string;
}

export interface ShellAnalysis {
  /** every simple command found, in order, including those inside $( ), backticks, <( ), subshells, groups, bash -c / sh -c / eval strings, xargs, find -exec */
  commands: SimpleCommand[];
  writes: ShellWrite[];
  /** set when the parser could not analyse the command (syntax error such as an unterminated quote, or a construct we can't see through): then the command must ask */
  unanalysable?: string;
  /** the first banned command found, if any (after wrappers and paths; also inside bash -c strings) */
  banned?: { name: string; reason: string };
  /** true only when every simple command is on the safe table with read-only arguments and nothing is written */
  readOnly: boolean;
  /** every program run by name or path (not builtins seen through), for the identity check of `program-identity.ts` */
  programs?: ProgramUse[];
  /**
   * Programs not known to write only their arguments that run in the directory the line starts in
   * (`make`, `npm install`): they may write anywhere in it, which matters when that directory is not
   * the project's (the caller knows; see `command-subject.ts`).
   */
  startDirectoryWriters?: string[];
}

/**
 * Analyses a bash command line. Never throws: what it cannot analyse comes back as `unanalysable`.
 * `cwd` resolves relative write targets (and follows `cd` within the line); `home` expands `~`;
 * `projectDir` (default `cwd`): git run outside it, or writes into a `.git` folder, are opaque code.
 */
export function analyzeCommand(command: string, options: { cwd: string; home: string; projectDir?: string }): ShellAnalysis {
  // git run outside the project reads another repository's configuration (issue 10 §1)
  const analysis = new Analysis(options.home, options.projectDir ?? options.cwd);
  try {
    analysis.source(command, { dir: { path: options.cwd }, wrappers: [], depth: 0 });
  } catch (error) {
    // only a call stack exhausted by absurd nesting gets here; the parts found so far are kept
    analysis.fail(`too complex to analyse: ${error instanceof Error ? error.message : String(error)}`);
  }
  return analysis.result();
}

/**
 * The scope "allow for session" would grant for one simple command: its prefix by the arity table
 * plus ' *', e.g. 'git checkout *', 'npm run test *', 'cargo build *', 'ls *'. A command shorter than
 * its arity (`npm run`, bare `make`, bare `git`) gets only itself, without the wildcard: `npm run *`
 * would cover every script.
 */
export function sessionScope(command: SimpleCommand): string {
  const { words, complete } = commandPrefix(wordsAsWritten(command));
  return complete ? `${words.join(' ')} *` : words.join(' ');
}

/** The command's words as written (quotes kept), so that its scope matches its `text` again. */
function wordsAsWritten(command: SimpleCommand): string[] {
  try {
    const [statement, ...others] = parseShell(command.text).statements;
    const call = statement?.command;
    if (!others.length && call?.kind === 'call' && !call.assignments.length && call.words.length) {
      return call.words.map((w) => w.text);
    }
  } catch {
    // not valid shell on its own: fall back to the parsed words
  }
  return [command.name, ...command.args];
}

// ---- wrappers (the table is in wrappers.ts), shells, builtins

const AWK_NAMES = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** Builtins bash runs itself: no file on PATH to identify (a path like `/bin/echo` is still checked). */
const SHELL_BUILTINS = new Set([
  'cd', 'echo', 'printf', 'pwd', 'test', '[', 'true', 'false', ':', 'export', 'declare', 'typeset', 'local', 'readonly',
  'unset', 'set', 'shopt', 'read', 'mapfile', 'readarray', 'eval', 'source', '.', 'trap', 'exit', 'return', 'shift',
  'let', 'type', 'command', 'builtin', 'hash', 'alias', 'unalias', 'pushd', 'popd', 'dirs', 'wait', 'jobs', 'kill',
  'getopts', 'umask', 'ulimit', 'history', 'fc', 'bg', 'fg', 'disown', 'suspend', 'times', 'enable', 'help', 'caller',
  'complete', 'compgen', 'compopt', 'bind', 'logout', 'break', 'continue',
]);

/** Shells whose `-c` string (or here-document on stdin) is parsed and analysed in turn. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'hush', 'rbash', 'posh', 'yash']);
const SHELL_VALUE_OPTIONS = ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'];

/** Nested `bash -c "eval '…'"` strings deeper than this are unanalysable. */
const MAX_NESTING = 8;

// ---- writes

/** Redirection targets that are not files. */
const OUTPUT_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const WRITING_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

// Which commands write which of their arguments: WRITE_TARGETS in `write-targets.ts`.

/** The target of a write whose files come from xargs' input. */
const XARGS_TARGETS = '(files read by xargs)';

/** Builtins that change only the shell's own state, never a file: no write is assumed for them. */
const SHELL_STATE_BUILTINS = new Set([
  'export', 'unset', 'declare', 'typeset', 'local', 'readonly', 'alias', 'unalias', 'set', 'shopt', 'hash',
  'let', 'read', 'mapfile', 'readarray', 'ulimit', 'umask', 'wait', 'jobs', 'fg', 'bg', 'disown', 'kill',
  'exit', 'return', 'break', 'continue', 'shift', 'getopts', 'enable', 'complete', 'compgen', 'compopt',
  'bind', 'suspend', 'times', 'caller', 'logout', 'cd', 'pushd', 'popd', 'dirs', 'help',
]);

// ---- the walk

/** The shell's current directory: shared within one shell, copied into subshells. `path` unknown after `cd "$x"`. */
interface Directory {
  path?: string;
}

interface Scope {
  dir: Directory;
  /** wrappers around every command in this scope: `time`, or the `bash` of a `bash -c` string */
  wrappers: readonly string[];
  depth: number;
}

/** One command being resolved through its wrappers. */
interface Invocation {
  /** why the command runs code the analysis cannot see (a code-running environment variable set for it) */
  opaque?: string;
  words: ShellWord[];
  wrappers: string[];
  /** every environment assignment leaves it read-only (`LANG=C`), none sets `PATH=` or the like */
  safeEnv: boolean;
  privileged: boolean;
  appendsArguments: boolean;
  /** the directory the command runs in */
  dir: Directory;
  statement?: ShellStatement;
}

class Analysis {
  private readonly commands: SimpleCommand[] = [];
  private readonly writes: ShellWrite[] = [];
  private unanalysable?: string;
  private banned?: { name: string; reason: string };
  /** cleared by any command that is not read-only, and by bare assignments (`PATH=…` persists in the shell) */
  private everyCommandReadOnly = true;

  private readonly programs: ProgramUse[] = [];
  /** CDPATH, cdable_vars and links made by this line: what makes `cd` and paths lead elsewhere */
  private readonly directory = new WorkingDirectory();
  /** programs that may write anywhere in the directory the line starts in */
  private readonly startDirectoryWriters = new Set<string>();
  /** functions declared in this line, walked where they are called */
  private readonly functions = new Map<string, { statements: ShellStatement[]; scope: Scope; called: boolean }>();
  private readonly runningFunctions = new Set<string>();
  /** files this line writes, copies or links before running them (`ln -s "$(which curl)" k && ./k`): path → the source's name when known */
  private readonly madeHere = new Map<string, string | undefined>();

  constructor(
    private readonly home: string,
    /** the directory the line starts in: git run elsewhere reads another repository's configuration */
    private readonly startDir: string,
  ) {}

  result(): ShellAnalysis {
    this.walkUncalledFunctions();
    this.gitMetadataWrites();
    const readOnly = this.everyCommandReadOnly && !this.unanalysable && !this.banned && this.writes.length === 0;
    return {
      commands: this.commands,
      writes: this.writes,
      ...(this.unanalysable !== undefined && { unanalysable: this.unanalysable }),
      ...(this.banned && { banned: this.banned }),
      readOnly,
      programs: this.programs,
      startDirectoryWriters: [...this.startDirectoryWriters],
    };
  }

  /**
   * A write into a repository's `.git` folder (`config`, `hooks/`) is code the next git command runs
   * (`echo '[core] fsmonitor = rm x' >> .git/config`, `cp x.sh .git/hooks/pre-commit`): opaque.
   */
  private gitMetadataWrites(): void {
    for (const write of [...this.writes]) {
      if (write.path === undefined || !isWithin(this.startDir, write.path)) continue;
      if (!/(^|\/)\.git(\/|$)/.test(relative(this.startDir, write.path))) continue;
      const text = `${write.via} ${write.target}`;
      this.recordOpaque('.git', text, opaqueReason(`writes ${write.target} (git's configuration and hooks run programs)`), []);
    }
  }

  /** Records a part that is opaque code on its own: `[[ … ]]`, `(( ))`, `PATH=./bin`, a program named in input. */
  private recordOpaque(name: string, text: string, reason: string, wrappers: readonly string[]): void {
    this.commands.push({ name, args: [], text, wrappers: [...wrappers], readOnly: false, opaque: reason });
    this.everyCommandReadOnly = false;
  }

  /** Parses and walks a command line or a nested `bash -c` / `eval` string. */
  source(source: string, scope: Scope, what = ''): void {
    if (scope.depth > MAX_NESTING) return this.fail(`${what}nested more than ${MAX_NESTING} levels deep`);
    this.directory.noteSource(source);
    let script: ShellScript;
    try {
      script = parseShell(source);
    } catch (error) {
      const message = error instanceof ShellSyntaxError ? error.message : `the shell parser failed: ${String(error)}`;
      this.fail(`${what}${message}`);
      if (scope.depth === 0) this.bannedFirstWord(source);
      return;
    }
    this.script(script, scope);
  }

  fail(reason: string): void {
    this.unanalysable ??= reason;
    this.everyCommandReadOnly = false;
  }

  /**
   * When the line does not parse, the original's check still applies: its first word (after
   * `NAME=value` prefixes and a path) against the banned list, so `curl 'x` is still refused.
   */
  private bannedFirstWord(source: string): void {
    const words = source.trim().split(/\s+/);
    const first = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? '';
    this.checkBanned(basename(first.replace(/['"\\]/g, '')));
  }

  private checkBanned(name: string): void {
    const entry = bannedCommand(name);
    if (entry && !this.banned) this.banned = { name: entry.name, reason: entry.reason };
  }

  private script(script: ShellScript, scope: Scope): void {
    for (const statement of script.statements) this.statement(statement, scope);
  }

  private statement(statement: ShellStatement, outer: Scope): void {
    const scope = statement.background ? subshell(outer) : outer;
    const dirBefore = { ...scope.dir }; // redirections are opened before the command runs (`cd x > log`)
    const command = statement.command;
    // the simple command the statement's redirections write for, when it is exactly one
    let owner: number | undefined;
    if (command?.kind === 'call') owner = this.call(command, statement, scope);
    else if (command) {
      const inner: Scope = command.subshell || command.type === 'CoprocClause' || command.type === 'FuncDecl' ? subshell(scope) : scope;
      const wrapped = command.type === 'TimeClause' ? { ...inner, wrappers: [...inner.wrappers, 'time'] } : inner;
      if (command.text !== undefined) {
        const hides =
          command.type === 'TestClause' ? testClauseHidesCode(command.text)
          : command.type === 'ForClause' ? forLoopHidesCode(command.text)
          : command.type === 'CaseClause' ? false
          : arithmeticHidesCode(command.text);
        const name = command.type === 'TestClause' ? '[[' : command.type === 'ForClause' ? 'for' : '((';
        if (hides) this.recordOpaque(name, command.text, opaqueReason(`${command.text} (bash evaluates array subscripts in it)`), scope.wrappers);
        // `for PATH in ./bin; do ls; done` sets the loop's variable like an assignment
        const loopVariable = command.type === 'ForClause' ? /^(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\b/.exec(command.text)?.[1] : undefined;
        const setsCode = loopVariable !== undefined ? assignmentRunsCode(loopVariable, undefined, `for ${loopVariable}`) : undefined;
        if (setsCode) this.recordOpaque('for', command.text, setsCode, scope.wrappers);
        // `[[ ${x@P} ]]`, `case ${x@P} in`: prompt expansion runs the substitutions the value holds
        else if (expandsPrompt(command.text)) this.recordOpaque(command.type, command.text, opaqueReason(`${command.text} (\${…@P} runs the commands its value holds)`), scope.wrappers);
      }
      if (command.type === 'FuncDecl' && command.name !== undefined) this.declareFunction(command.name, command.statements, scope);
      else for (const child of command.statements) this.statement(command.type === 'TimeClause' ? withoutEndOfOptions(child) : child, wrapped);
      for (const substitution of command.substitutions) this.script(substitution, substitutionScope(scope));
    }
    for (const redirect of statement.redirects) {
      const { op, target } = redirect;
      const duplicatesDescriptor = op === '>&' && target.literal && /^(\d+-?|-)$/.test(target.value);
      if ((WRITING_REDIRECTS.has(op) || (op === '>&' && !duplicatesDescriptor)) && !(target.literal && OUTPUT_SINKS.has(target.value))) {
        const written = this.writes.length;
        this.write(target, dirBefore, 'redirect');
        for (const write of this.writes.slice(written)) {
          write.redirect = `${redirect.fd ?? ''}${op}`;
          if (owner !== undefined) write.command = owner;
        }
      }
      for (const word of [target, ...(redirect.heredoc ? [redirect.heredoc] : [])]) {
        if (!word.literal && expandsPrompt(word.value)) this.recordOpaque(op, word.value, opaqueReason(`${word.value} (\${…@P} runs the commands its value holds)`), scope.wrappers);
        for (const substitution of word.substitutions) this.script(substitution, substitutionScope(scope));
      }
    }
  }

  /** Walks one call; returns the index of its command when it recorded exactly one (redirections are then that command's). */
  private call(call: ShellCall, statement: ShellStatement, scope: Scope): number | undefined {
    let owner: number | undefined;
    const envCode = call.assignments
      .map((a) => assignmentRunsCode(a.name, a.value === undefined ? '' : a.value.literal ? a.value.value : undefined, a.text))
      .find((reason) => reason !== undefined);
    const hidden = [...call.words.map((w) => w.text), ...call.assignments.map((a) => a.text)].find(wordHidesCode);
    for (const assignment of call.assignments) this.directory.noteAssignment(assignment.name);
    const calledFunction = call.words[0]?.literal ? call.words[0].value : undefined;
    if (calledFunction !== undefined && this.functions.has(calledFunction)) this.callFunction(calledFunction, scope);
    if (call.words.length === 0) {
      // `X=1` alone sets a variable in the persistent shell (`PATH=/tmp/evil:$PATH` changes later commands)
      if (call.assignments.length) this.everyCommandReadOnly = false;
      const text = call.assignments.map((a) => a.text).join(' ');
      if (envCode ?? hidden) this.recordOpaque(call.assignments[0]!.name, text, envCode ?? opaqueReason(hidden!), scope.wrappers);
    } else {
      const first = this.commands.length;
      this.invoke({
        ...((envCode ?? hidden) !== undefined && { opaque: envCode ?? opaqueReason(hidden!) }),
        words: call.words,
        wrappers: [...scope.wrappers, ...call.assignments.map((a) => a.text)],
        safeEnv: call.assignments.every((a) => a.value === undefined || a.value.literal ? isSafeEnvAssignment(a.name, a.value?.value ?? '') : false),
        // `sudo bash -c 'ls'`, `su -c 'ls'`: the commands of the string run with the other user's rights
        privileged: scope.wrappers.some((w) => PRIVILEGED_WRAPPERS.has(w)),
        appendsArguments: false,
        dir: scope.dir,
        statement,
      }, scope);
      if (this.commands.length === first + 1) owner = first;
    }
    const nested = [...call.assignments.flatMap((a) => a.substitutions), ...call.words.flatMap((w) => w.substitutions)];
    for (const substitution of nested) this.script(substitution, substitutionScope(scope));
    return owner;
  }

  /** A function declared in this line: walked where it is called, since it runs in the caller's shell and directory. */
  private declareFunction(name: string, statements: ShellStatement[], scope: Scope): void {
    this.functions.set(name, { statements, scope: subshell(scope), called: false });
  }

  /** Walks a function's body where it is called: its `cd` moves the caller, its writes land in the caller's directory. */
  private callFunction(name: string, scope: Scope): void {
    const declared = this.functions.get(name)!;
    declared.called = true;
    if (this.runningFunctions.has(name)) {
      scope.dir.path = undefined; // recursion: where it ends up is not known
      return;
    }
    this.runningFunctions.add(name);
    try {
      for (const statement of declared.statements) this.statement(statement, { ...scope, depth: scope.depth + 1 });
    } finally {
      this.runningFunctions.delete(name);
    }
  }

  /**
   * Functions never called in sight (`export -f f; make` may call them) are still judged: walked
   * where they were declared.
   */
  private walkUncalledFunctions(): void {
    for (const [name, declared] of this.functions) {
      if (declared.called) continue;
      declared.called = true;
      this.runningFunctions.add(name);
      for (const statement of declared.statements) this.statement(statement, declared.scope);
      this.runningFunctions.delete(name);
    }
  }

  /** Sees through wrappers to the real command, then records it or analyses the command it carries. */
  private invoke(invocation: Invocation, scope: Scope): void {
    for (;;) {
      const nameWord = invocation.words[0]!;
      if (!nameWord.literal) return this.fail(`the command name ${nameWord.text} is only known when it runs`);
      const name = basename(expandTilde(nameWord, this.home));
      // `uv run CMD`, `npm exec CMD`: a subcommand that is a wrapper
      const sub = invocation.words[1];
      const subName = sub?.literal ? `${name} ${sub.value}` : undefined;
      const subWrapper = subName !== undefined ? wrappers.get(subName) : undefined;
      const wrapper = subWrapper ?? wrappers.get(name);
      if (!wrapper) return this.dispatch(name, invocation, scope);
      const unwrapped = subWrapper
        ? this.unwrap(subName!, subWrapper, { ...invocation, words: invocation.words.slice(1) }, scope)
        : this.unwrap(name, wrapper, invocation, scope);
      if (!unwrapped) return; // unanalysable, or recorded as a command of its own
      if (wrapper.alsoRecorded) this.record(name, invocation.words.slice(1), invocation);
      invocation = unwrapped;
    }
  }

  /** The invocation inside a wrapper; undefined when the wrapper runs nothing (then recorded) or hides it. */
  private unwrap(name: string, spec: WrapperSpec, invocation: Invocation, scope: Scope): Invocation | undefined {
    if (spec.stringOnly) return void this.unwrapStringOnly(name, spec, invocation, scope);
    const words = invocation.words;
    const assignments: string[] = [];
    let safeEnv = invocation.safeEnv;
    let dir = invocation.dir;
    let noCommand = false;
    let envCode: string | undefined;
    /** xargs' replacement string: words holding it are only known when it runs */
    let replace: string | undefined;
    /** a command string given by option (`flock lock -c 'cmd'`); null: the option had no value */
    let commandString: ShellWord | null | undefined;
    let runsDirectly = false;
    let i = 1;
    const takeValue = (option: string, value: ShellWord | undefined) => {
      if (spec.replaceOptions?.includes(option)) replace = value?.value ?? '{}';
      if (!value) return;
      if (spec.directoryOptions?.includes(option)) dir = { path: value.literal ? this.resolvePath(value, dir) : undefined };
      if (spec.outputOptions?.includes(option)) this.write(value, dir, 'other');
    };
    for (; i < words.length; i++) {
      const word = words[i]!;
      const arg = word.value;
      if (!word.literal && arg.startsWith('-')) return void this.fail(`${name}: option ${word.text} is only known when it runs`);
      if (arg === '--') {
        i++;
        break;
      }
      if (!arg.startsWith('-') || (arg === '-' && !spec.flags.includes('-'))) break;
      if (name === 'nice' && /^-\d+$/.test(arg)) continue; // nice -5 make
      const [option, attached] = arg.startsWith('--') ? splitLong(arg) : [arg, undefined];
      const known = (list?: readonly string[]) => list?.includes(option) ?? false;
      if (known(spec.opaqueOptions)) return void this.fail(`${name} ${option} hides the command it runs`);
      if (known(spec.noCommandOptions)) noCommand = true;
      else if (known(spec.commandStringOptions) && (option.startsWith('--') || option.length === 2)) {
        commandString = (attached !== undefined ? attachedWord(word, attached) : words[++i]) ?? null;
      } else if (known(spec.valueOptions) && option.startsWith('--')) {
        takeValue(option, attached !== undefined ? attachedWord(word, attached) : words[++i]);
      } else if (known(spec.flags)) {
        if (spec.replaceOptions?.includes(option)) replace = attached ?? '{}'; // xargs --replace[=R]
        if (spec.joinsCommand?.unlessOptions.includes(option)) runsDirectly = true;
        continue;
      } else if (!option.startsWith('--')) {
        // a cluster of one-letter options: -iu root, -oL, -n5
        for (let j = 1; j < option.length; j++) {
          const letter = `-${option[j]}`;
          if (spec.opaqueOptions?.includes(letter)) return void this.fail(`${name} ${letter} hides the command it runs`);
          if (spec.noCommandOptions?.includes(letter)) noCommand = true;
          else if (spec.commandStringOptions?.includes(letter)) {
            commandString = (j < option.length - 1 ? attachedWord(word, option.slice(j + 1)) : words[++i]) ?? null;
            break;
          } else if (spec.valueOptions?.includes(letter)) {
            takeValue(letter, j < option.length - 1 ? attachedWord(word, option.slice(j + 1)) : words[++i]);
            break;
          } else if (spec.attachedOptions?.includes(letter)) {
            if (spec.replaceOptions?.includes(letter)) replace = option.slice(j + 1) || '{}'; // xargs -i[R]
            break;
          } else if (!spec.flags.includes(letter)) return void this.fail(`${name}: unknown option ${letter}`);
          if (spec.joinsCommand?.unlessOptions.includes(letter)) runsDirectly = true;
        }
      } else return void this.fail(`${name}: unknown option ${option}`);
    }
    if (spec.assignments) {
      for (; i < words.length && /^[^=]+=/.test(words[i]!.value) /* env takes any NAME=value, even BASH_FUNC_ls%%= */; i++) {
        const [assignName, ...rest] = words[i]!.value.split('=');
        assignments.push(words[i]!.text);
        if (!words[i]!.literal || !isSafeEnvAssignment(assignName!, rest.join('='))) safeEnv = false;
        envCode ??= assignmentRunsCode(assignName!, words[i]!.literal ? rest.join('=') : undefined, words[i]!.text);
      }
    }
    i += spec.operands ?? 0;
    // a command string may follow the operands: flock /tmp/x.lock -c 'make'
    const after = words[i];
    if (commandString === undefined && after?.literal && spec.commandStringOptions?.includes(splitLong(after.value)[0])) {
      const [, attached] = splitLong(after.value);
      commandString = (attached !== undefined ? attachedWord(after, attached) : words[i + 1]) ?? null;
    }
    if (commandString !== undefined) return void this.commandString(name, commandString, { ...invocation, dir }, scope);
    const written = words.map((w) => w.text).join(' ');
    if (!noCommand && invocation.appendsArguments && i >= words.length) {
      // xargs xargs, xargs env, xargs -0 timeout 5: the program comes from the input
      return void this.recordOpaque(name, written, opaqueReason(`${written} (the program it runs is named in its input)`), invocation.wrappers);
    }
    if (spec.joinsCommand && !runsDirectly && !noCommand && i < words.length) {
      // watch joins its arguments and runs them with sh -c
      const rest = words.slice(i);
      if (!rest.every((w) => w.literal)) return void this.recordOpaque(name, written, opaqueReason(written), invocation.wrappers);
      return void this.commandString(name, { ...rest[0]!, text: rest.map((w) => w.text).join(' '), value: rest.map((w) => w.value).join(' ') }, { ...invocation, dir }, scope);
    }
    if (noCommand || i >= words.length) {
      // `echo 'rm x' | sudo -s`: with no command, -s/-i run a shell that reads its input
      if (!noCommand && spec.privileged && words.slice(1, i).some((w) => /^-[A-Za-z]*[si]|^--(shell|login)$/.test(w.value))) {
        return void this.recordOpaque(name, written, opaqueReason(`${written} (runs a shell that reads commands from its input)`), invocation.wrappers);
      }
      if (!noCommand && spec.defaultCommand) {
        const echo: ShellWord = { ...words[0]!, text: spec.defaultCommand, value: spec.defaultCommand };
        return { ...invocation, words: [echo], wrappers: [...invocation.wrappers, name], appendsArguments: true };
      }
      this.record(name, words.slice(1), invocation);
      return undefined;
    }
    let command = words.slice(i);
    let inserted: string | undefined;
    if (replace !== undefined) {
      const marker = replace;
      const head = command[0];
      if (head && SHELLS.has(basename(head.value)) && !head.value.includes(marker) && command.some((w) => w.value.includes(marker))) {
        // xargs -I{} sh -c 'rm {}': the string is analysed, but the input becomes shell code
        inserted = opaqueReason(`${written} (its input is put into the command string)`);
      } else command = command.map((w) => (w.value.includes(marker) ? { ...w, literal: false } : w));
    }
    const opaque = envCode ?? inserted ?? invocation.opaque;
    return {
      ...invocation,
      ...(opaque !== undefined && { opaque }),
      words: command,
      wrappers: [...invocation.wrappers, name, ...assignments],
      safeEnv,
      dir,
      privileged: invocation.privileged || Boolean(spec.privileged),
      appendsArguments: invocation.appendsArguments || Boolean(spec.appendsArguments),
    };
  }

  /**
   * A wrapper that never runs its words as a command (`su`, `runuser`, `script`): only its command
   * string runs, else an interactive shell reading its input (opaque).
   */
  private unwrapStringOnly(name: string, spec: WrapperSpec, invocation: Invocation, scope: Scope): void {
    const words = invocation.words;
    const written = words.map((w) => w.text).join(' ');
    let commandString: ShellWord | null | undefined;
    for (let i = 1; i < words.length; i++) {
      const word = words[i]!;
      if (!word.literal && word.value.startsWith('-')) return this.fail(`${name}: option ${word.text} is only known when it runs`);
      const [option, attached] = word.value.startsWith('--') ? splitLong(word.value) : [word.value, undefined];
      const cluster = /^-[A-Za-z]{2,}$/.test(option) ? option : undefined;
      const last = cluster ? `-${cluster.at(-1)}` : option;
      if (option === '-s' || option === '--shell' || (name === 'runuser' && (option === '-u' || option === '--user'))) {
        return this.recordOpaque(name, written, opaqueReason(`${written} (${option} chooses the program it runs)`), invocation.wrappers);
      }
      if (spec.commandStringOptions!.includes(last)) {
        commandString = (attached !== undefined ? attachedWord(word, attached) : words[++i]) ?? null;
      } else if (spec.valueOptions?.includes(last)) {
        const value = attached !== undefined ? attachedWord(word, attached) : words[++i];
        if (value && spec.outputOptions?.includes(last)) this.write(value, invocation.dir, 'other');
      } else if (!option.startsWith('-') && name === 'script') {
        if (!(word.literal && OUTPUT_SINKS.has(word.value))) this.write(word, invocation.dir, 'other'); // script's typescript file
      }
    }
    if (commandString === undefined) {
      return this.recordOpaque(name, written, opaqueReason(`${written} (a shell reads its commands from input)`), invocation.wrappers);
    }
    this.commandString(name, commandString, { ...invocation, privileged: invocation.privileged || Boolean(spec.privileged) }, scope);
  }

  /** A command string a wrapper runs with a shell: analysed when literal, else opaque. */
  private commandString(name: string, word: ShellWord | null, invocation: Invocation, scope: Scope): void {
    if (!word) return this.fail(`${name}: a command option without its command string`);
    if (!word.literal) {
      const text = `${name} ${word.text}`;
      return this.recordOpaque(name, text, opaqueReason(`${text} (a command string only known when it runs)`), invocation.wrappers);
    }
    const wrappers = [...invocation.wrappers, name];
    if (invocation.opaque) this.recordOpaque(name, `${name} ${word.text}`, invocation.opaque, invocation.wrappers);
    this.source(word.value, { dir: { path: invocation.dir.path }, wrappers, depth: scope.depth + 1 }, `${name} command string: `);
  }

  /** The real command: a shell with a script, eval, trap, find, or an ordinary command. */
  private dispatch(name: string, invocation: Invocation, scope: Scope): void {
    const args = invocation.words.slice(1);
    const nested = (what: string): Scope => ({
      dir: what === 'eval' || what === 'trap' ? invocation.dir : { path: invocation.dir.path },
      wrappers: [...invocation.wrappers, what],
      depth: scope.depth + 1,
    });
    // `eval -- 'cmd'` and `trap -- 'cmd' EXIT`: the builtins take `--` before their operands
    const operands = args[0]?.literal && args[0].value === '--' ? args.slice(1) : args;
    // `BASH_ENV=./x.sh bash -c ls`: the environment is opaque even though the string is analysed
    const opaqueEnvironment = () => {
      if (invocation.opaque) this.recordOpaque(name, [name, ...args.map((a) => a.text)].join(' '), invocation.opaque, invocation.wrappers);
    };
    if (SHELLS.has(name)) {
      const script = this.shellScript(name, args, invocation);
      if (script === null) return; // unanalysable, or recorded as opaque
      if (script !== undefined) return (opaqueEnvironment(), this.source(script, nested(name), `${name} -c string: `));
    } else if (name === 'eval') {
      if (!operands.every((a) => a.literal)) return this.fail('eval of a string only known when it runs');
      opaqueEnvironment();
      return this.source(operands.map((a) => a.value).join(' '), nested('eval'), 'eval string: ');
    } else if (name === 'trap' && operands.length >= 2 && !operands[0]!.value.startsWith('-')) {
      if (!operands[0]!.literal) return this.fail('trap of a string only known when it runs');
      opaqueEnvironment();
      return this.source(operands[0]!.value, nested('trap'), 'trap string: ');
    } else if ((name === 'source' || name === '.') && operands[0]) {
      const file = operands[0];
      if (!file.literal || file.processSubstitution || isInputFile(file.value)) {
        const written = [name, ...args.map((a) => a.text)].join(' ');
        return this.record(name, args, { ...invocation, opaque: opaqueReason(`${written} (runs a script read from input)`) });
      }
    } else if (name === 'find') {
      return this.find(invocation, scope);
    }
    this.record(name, args, invocation);
  }

  /**
   * The script a shell runs: its `-c` string, or a here-document or here-string on its stdin.
   * undefined: a script file or a stdin we can't see (then the shell is a command of its own);
   * null: unanalysable (already reported).
   */
  private shellScript(name: string, args: ShellWord[], invocation: Invocation): string | null | undefined {
    const statement = invocation.statement;
    const written = [name, ...args.map((a) => a.text)].join(' ');
    const opaque = (why: string) => (this.recordOpaque(name, written, opaqueReason(`${written} (${why})`), invocation.wrappers), null);
    let command = false;
    let fromStdin = false;
    let i = 0;
    for (; i < args.length; i++) {
      const arg = args[i]!;
      if (!arg.literal) return (this.fail(`${name}: argument ${arg.text} is only known when it runs`), null);
      if (arg.value === '--' || arg.value === '-') {
        i++;
        break;
      }
      if (!/^[-+]/.test(arg.value)) break;
      if (SHELL_VALUE_OPTIONS.includes(arg.value)) i++;
      else if (/^[-+][A-Za-z]*c/.test(arg.value) && !arg.value.startsWith('--')) command = true;
      else if (/^-[A-Za-z]*s/.test(arg.value) && !arg.value.startsWith('--')) fromStdin = true; // bash -s args: the script is on stdin
    }
    if (command) {
      const script = args[i];
      if (!script) return (this.fail(`${name} -c without a command string`), null);
      if (!script.literal) return (this.fail(`${name} -c of a string only known when it runs`), null);
      return script.value;
    }
    if (i < args.length && !fromStdin) {
      if (isInputFile(args[i]!.value)) return opaque('runs a script read from input'); // bash /dev/stdin
      return undefined; // bash script.sh
    }
    if (invocation.appendsArguments && !fromStdin) return opaque('runs a script named in its input'); // xargs bash
    const stdin = statement?.redirects.filter((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<').at(-1);
    if (stdin?.op === '<') {
      if (!stdin.target.literal || isInputFile(stdin.target.value)) return opaque('runs a script read from input'); // sh < /dev/stdin
      return undefined; // bash < script.sh
    }
    if (!stdin) return opaque('runs a script read from its input'); // … | sh, bash -s
    const body = stdin.op === '<<<' ? stdin.target : stdin.heredoc;
    if (!body?.literal) return (this.fail(`${name} reads a script only known when it runs`), null);
    return body.value;
  }

  /** find: its own arguments, and each `-exec … ;` command judged on its own. */
  private find(invocation: Invocation, scope: Scope): void {
    const words = invocation.words.slice(1);
    const own: ShellWord[] = [];
    const execs: ShellWord[][] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(word.value)) {
        own.push(word);
        continue;
      }
      const command: ShellWord[] = [];
      for (i++; i < words.length && !(words[i]!.literal && (words[i]!.value === ';' || words[i]!.value === '+')); i++) {
        // find replaces {} with each file it finds: not known beforehand
        command.push(words[i]!.value.includes('{}') ? { ...words[i]!, literal: false } : words[i]!);
      }
      execs.push(command);
    }
    this.record('find', own, invocation);
    for (const command of execs) {
      if (command.length === 0) continue;
      this.invoke({ ...invocation, words: command, wrappers: [...invocation.wrappers, 'find'], statement: undefined }, scope);
    }
  }

  /** Records a simple command: banned check, read-only check, `cd`, and the files it writes. */
  private record(name: string, argWords: ShellWord[], invocation: Invocation): void {
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
    if (!readOnly) this.everyCommandReadOnly = false;
    this.directory.noteCommand(name, args);
    this.directory.change(name, argWords, invocation.dir, this.home, (w) => this.resolvePath(w, invocation.dir));
    // find . | xargs rm: the files xargs appends are a word we can't know
    const appended = invocation.appendsArguments ? [{ ...plainWord(XARGS_TARGETS), literal: false }] : [];
    this.commandWrites(name, [...argWords, ...appended], invocation.dir, readOnly);
    for (const write of this.writes.slice(written)) write.command ??= index;
  }

  /**
   * Why a command is opaque code (issue #10 §1): an interpreter one-liner or a program read from
   * input, a runner we don't follow, git that can run a program, a builtin that sets a code-running
   * variable or evaluates a subscript, or a program this line wrote, copied or linked.
   */
  private opaqueCode(name: string, args: CommandArg[], invocation: Invocation, text: string): string | undefined {
    const runner = opaqueRunner(name, args) ?? (args[0] ? opaqueRunner(`${name} ${args[0].value}`, args.slice(1)) : undefined);
    if (runner) return opaqueReason(`${text} (${runner})`);
    const code =
      interpreterCode(name, args, invocation.appendsArguments, text) ??
      variableBuiltinCode(name, args, text) ??
      commandOptionCode(name, args, text);
    if (code) return code;
    if (name === 'git') return this.gitOpaque(args, invocation.dir, text);
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
      if (!arg.literal || where === undefined) return opaqueReason(`${text} (${option} names a repository only known when it runs)`);
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
    this.programs.push({ name, invokedAs, command, ...(invocation.dir.path !== undefined && { dir: invocation.dir.path }) });
  }

  /** awk's `print > "file"` and `gawk -i inplace` are writes. */
  private awkWrites(awk: ReturnType<typeof awkProgram>, dir: Directory): void {
    for (const target of awk.writes) {
      if (target === undefined) this.writes.push({ target: '(a file awk names when it runs)', via: 'other' });
      else this.write(plainWord(target), dir, 'other');
    }
    for (const file of awk.inPlaceFiles) this.write({ ...plainWord(file.value), literal: file.literal }, dir, 'other');
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

  /**
   * The files a command writes, by the table of `write-targets.ts` (`cp -t DIR`, `sed --in-pl`,
   * `tar -C DIR`, `git clone URL DIR`, …), or for a program it does not know, its path arguments that
   * leave its directory; and the directory itself when the program may write anywhere in it and runs
   * somewhere else than where the line starts (`cd /tmp && make`, `make -C /tmp`, after `cd "$x"`).
   * A read-only command writes nothing, except `tee`.
   */
  private commandWrites(name: string, words: ShellWord[], dir: Directory, readOnly: boolean): void {
    if (name === 'find') return this.findWrites(words, dir);
    if (readOnly && name !== 'tee') return;
    if (SHELL_STATE_BUILTINS.has(name)) return;
    const found = commandWrites(name, words, { home: this.home });
    let where: Directory = dir;
    for (const d of found.directory ?? []) where = { path: d.literal && where.path !== undefined ? this.resolvePath(d, where) : undefined };
    for (const target of found.targets) {
      let base = where;
      for (const d of target.within ?? []) base = { path: d.literal && base.path !== undefined ? this.resolvePath(d, base) : undefined };
      if (target.unknown) {
        this.writes.push({ target: target.word.text, via: target.via });
        continue;
      }
      const path = this.write(target.word, base, target.via);
      if (path !== undefined && (target.link || target.container)) this.directory.linkMade(path, target.container);
    }
    if (!readOnly && !found.onlyTargets && where.path === this.startDir) this.startDirectoryWriters.add(name);
    if (!readOnly && !found.onlyTargets && (where.path === undefined || where.path !== this.startDir)) {
      this.writes.push({ target: where.path ?? '(the directory it runs in)', ...(where.path !== undefined && { path: where.path }), via: 'working directory' });
    }
    if (found.runsCode) {
      const recorded = this.commands.at(-1)!;
      recorded.opaque ??= opaqueReason(found.runsCode);
      recorded.readOnly = false;
      this.everyCommandReadOnly = false;
    }
  }

  /** find's `-delete` (its starting points) and `-fprint FILE`-like actions. */
  private findWrites(words: ShellWord[], dir: Directory): void {
    // find [-H] [-L] [-P] [-D debugopts] [-Olevel] [starting-point...] [expression]
    let first = 0;
    while (first < words.length && /^-([HLP]|O\d*)$|^-D$/.test(words[first]!.value)) first += words[first]!.value === '-D' ? 2 : 1;
    const rest = words.slice(first);
    const firstExpression = rest.findIndex((w) => /^[-(!)]/.test(w.value) && w.value !== '-');
    const starts = rest.slice(0, firstExpression === -1 ? rest.length : firstExpression);
    for (let i = 0; i < rest.length; i++) {
      const action = rest[i]!.value;
      const previous = rest[i - 1];
      const isValue = previous !== undefined && previous.literal && /^-/.test(previous.value) && !FIND_WRITING_ACTIONS.includes(previous.value) && previous.value !== '-delete';
      if (!rest[i]!.literal && !isValue && /^(\$|`)/.test(action)) {
        // `find . $ACTION`: an expansion may be -delete or -fprint FILE
        this.writes.push({ target: `${rest[i]!.text} (may be an action that writes)`, via: 'other' });
      } else if (action === '-delete') {
        if (starts.length) for (const start of starts) this.write(start, dir, 'other');
        else this.write({ ...rest[i]!, text: '.', value: '.', literal: true }, dir, 'other');
      } else if (FIND_WRITING_ACTIONS.includes(action) && rest[i + 1]) {
        this.write(rest[++i]!, dir, 'other');
      }
    }
  }

  /** Records a write; its absolute path, unless it cannot be known (not literal, or under a link this line made). */
  private write(target: ShellWord, dir: Directory, via: ShellWrite['via']): string | undefined {
    const resolved = target.literal ? this.resolvePath(target, dir) : undefined;
    const linked = resolved !== undefined && this.directory.underLink(resolved);
    const path = linked ? undefined : resolved;
    const text = linked ? `${target.text} (under a link, clone, checkout or archive made earlier in this line)` : target.text;
    this.writes.push({ target: text, ...(path !== undefined && { path }), via });
    return path;
  }

  private resolvePath(word: ShellWord, dir: Directory): string | undefined {
    const value = expandTilde(word, this.home);
    if (isAbsolute(value)) return resolve(value);
    return dir.path === undefined ? undefined : resolve(dir.path, value);
  }
}

// ---- helpers

/** Whether absolute `path` is `dir` or under it, by text. */
function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

/** A literal word of a known value (a file named inside another program's text). */
function plainWord(value: string): ShellWord {
  return { text: value, value, literal: true, tilde: false, processSubstitution: false, substitutions: [] };
}

function subshell(scope: Scope): Scope {
  return { ...scope, dir: { path: scope.dir.path } };
}

/** `$( )` and `<( )` run in a subshell, and the wrappers of the command around them don't apply. */
function substitutionScope(scope: Scope): Scope {
  return { dir: { path: scope.dir.path }, wrappers: [], depth: scope.depth };
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function expandTilde(word: ShellWord, home: string): string {
  return word.tilde ? expandTildeValue(word.value, home) : word.value;
}

function expandTildeValue(value: string, home: string): string {
  if (value === '~') return home;
  return value.startsWith('~/') ? home + value.slice(1) : value;
}

/** The value attached to an option word (`--output=x`, `-ofile`) as a word of its own. */
function attachedWord(word: ShellWord, value: string): ShellWord {
  const text = word.text.endsWith(value) ? word.text.slice(word.text.length - value.length) : value;
  return { text, value, literal: word.literal, tilde: false, processSubstitution: false, substitutions: [] };
}

/** `time -- rm x`: bash's time keyword takes `--` as the end of its options, and runs what follows. */
function withoutEndOfOptions(statement: ShellStatement): ShellStatement {
  const command = statement.command;
  if (command?.kind !== 'call' || !command.words[0]?.literal || command.words[0].value !== '--') return statement;
  return { ...statement, command: { ...command, words: command.words.slice(1) } };
}

/** Folders of the system's own programs: `/usr/bin/ls` is ls, but `./ls` or `bin/cat` is whatever the project holds. */
const SYSTEM_PROGRAM_DIRS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;

/** Whether a command word is a path to a file that is not one of the system's programs (`./ls -la`): never read-only by its name. */
function runsFileOutsideSystem(word: ShellWord | undefined): boolean {
  return word !== undefined && word.value.includes('/') && !SYSTEM_PROGRAM_DIRS.test(word.value);
}
