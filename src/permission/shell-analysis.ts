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
 * Pure: no file system access, no environment; `cwd` and `home` come from the caller.
 */
import { isAbsolute, resolve } from 'node:path';
import { commandPrefix } from './arity.js';
import { bannedCommand } from './banned-commands.js';
import {
  FIND_WRITING_ACTIONS,
  isReadOnlyCommand,
  isSafeEnvAssignment,
  parseGitGlobals,
  parseSed,
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
}

export interface ShellWrite {
  /** target as written */
  target: string;
  /** absolute if resolvable against cwd (~ expanded with the given home), else undefined */
  path?: string;
  via: 'redirect' | 'tee' | 'sed -i' | 'sort -o' | 'git --output' | 'other';
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
}

/**
 * Analyses a bash command line. Never throws: what it cannot analyse comes back as `unanalysable`.
 * `cwd` resolves relative write targets (and follows `cd` within the line); `home` expands `~`.
 */
export function analyzeCommand(command: string, options: { cwd: string; home: string }): ShellAnalysis {
  const analysis = new Analysis(options.home);
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

// ---- wrappers

interface WrapperSpec {
  example: string;
  /** options without a value; long ones may carry an attached optional value (`--preserve-env=A`) */
  flags: readonly string[];
  /** options that take a value: the next word, or attached (`-uroot`, `--user=root`) */
  valueOptions?: readonly string[];
  /** one-letter options whose optional value can only be attached (`xargs -i{}`) */
  attachedOptions?: readonly string[];
  /** options after which nothing is run: `command -v git` looks git up, `sudo -l` lists */
  noCommandOptions?: readonly string[];
  /** options that hide the command from us: `env -S 'cmd args'` */
  opaqueOptions?: readonly string[];
  /** `NAME=value` words may come after the options */
  assignments?: boolean;
  /** positional words before the command: timeout's duration */
  operands?: number;
  /** options whose value is the directory the command runs in */
  directoryOptions?: readonly string[];
  /** options whose value is a file the wrapper writes */
  outputOptions?: readonly string[];
  /** the command runs with another user's rights: never read-only */
  privileged?: boolean;
  /** the command gets more arguments we can't see (xargs): only commands safe with any arguments stay read-only */
  appendsArguments?: boolean;
  /** with no command, the wrapper runs this one (xargs runs echo) */
  defaultCommand?: string;
}

/** Commands that run another command, seen through to it. Options from GNU coreutils, sudo(8), doas(1), findutils. */
const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    example: 'env -i FOO=1 make test',
    flags: ['-i', '--ignore-environment', '-', '-0', '--null', '-v', '--debug', '--block-signal', '--default-signal', '--ignore-signal'],
    valueOptions: ['-u', '--unset', '-C', '--chdir'],
    noCommandOptions: ['--list-signal-handling', '--help', '--version'],
    opaqueOptions: ['-S', '--split-string'],
    assignments: true,
    directoryOptions: ['-C', '--chdir'],
  },
  command: { example: 'command git status (command -v git only looks up)', flags: ['-p'], noCommandOptions: ['-v', '-V'] },
  builtin: { example: 'builtin cd src', flags: [] },
  exec: { example: 'exec node server.js', flags: ['-c', '-l'], valueOptions: ['-a'] },
  nice: { example: 'nice -n 10 make', flags: [], valueOptions: ['-n', '--adjustment'], noCommandOptions: ['--help', '--version'] },
  nohup: { example: 'nohup npm start', flags: [], noCommandOptions: ['--help', '--version'] },
  time: {
    example: '/usr/bin/time -v make (the `time` keyword is parsed as such)',
    flags: ['-p', '--portability', '-v', '--verbose', '-q', '--quiet', '-a', '--append'],
    valueOptions: ['-f', '--format', '-o', '--output'],
    noCommandOptions: ['--help', '--version'],
    outputOptions: ['-o', '--output'],
  },
  timeout: {
    example: 'timeout 30s npm test',
    flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
    valueOptions: ['-s', '--signal', '-k', '--kill-after'],
    noCommandOptions: ['--help', '--version'],
    operands: 1,
  },
  stdbuf: {
    example: 'stdbuf -oL make',
    flags: [],
    valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'],
    noCommandOptions: ['--help', '--version'],
  },
  sudo: {
    example: 'sudo -u www-data ls (always asks)',
    flags: ['-A', '--askpass', '-b', '--background', '-E', '--preserve-env', '-H', '--set-home', '-i', '--login', '-n', '--non-interactive', '-P', '--preserve-groups', '-S', '--stdin', '-s', '--shell', '-k', '--reset-timestamp', '-B', '--bell', '-N', '--no-update'],
    valueOptions: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-D', '--chdir', '-U', '--other-user', '-R', '--chroot'],
    noCommandOptions: ['-l', '--list', '-v', '--validate', '-K', '--remove-timestamp', '-e', '--edit', '-V', '--version', '--help'],
    assignments: true,
    directoryOptions: ['-D', '--chdir'],
    privileged: true,
  },
  doas: {
    example: 'doas -u root ls (always asks)',
    flags: ['-n', '-s'],
    valueOptions: ['-u'],
    noCommandOptions: ['-L', '-C'],
    privileged: true,
  },
  xargs: {
    example: 'xargs grep -l TODO (only commands safe with any arguments stay read-only)',
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-p', '--interactive', '-x', '--exit', '-o', '--open-tty', '--show-limits', '--eof', '--replace', '--max-lines'],
    valueOptions: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
    attachedOptions: ['-e', '-i', '-l'],
    noCommandOptions: ['--help', '--version'],
    appendsArguments: true,
    defaultCommand: 'echo',
  },
};

// Maps, not the objects: a command may be named `constructor` or `__proto__`
const wrappers = new Map(Object.entries(WRAPPERS));

/** Shells whose `-c` string (or here-document on stdin) is parsed and analysed in turn. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh']);
const SHELL_VALUE_OPTIONS = ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'];

/** Nested `bash -c "eval '…'"` strings deeper than this are unanalysable. */
const MAX_NESTING = 8;

// ---- writes

/** Redirection targets that are not files. */
const OUTPUT_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const WRITING_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

interface FileWriter {
  /** which positional arguments are written: all, the last (the destination), or all but the first (the mode or owner) */
  targets: 'all' | 'last' | 'after-first';
  valueOptions?: readonly string[];
  /** options whose value is the destination (`cp -t dir`) */
  targetOptions?: readonly string[];
}

/** Commands that create, change or delete the files they are given (writes `via: 'other'`). */
const FILE_WRITERS: Readonly<Record<string, FileWriter>> = {
  rm: { targets: 'all' }, // rm -rf build
  rmdir: { targets: 'all' },
  unlink: { targets: 'all' },
  shred: { targets: 'all', valueOptions: ['-n', '--iterations', '-s', '--size', '--random-source'] },
  touch: { targets: 'all', valueOptions: ['-d', '--date', '-t', '-r', '--reference'] },
  mkdir: { targets: 'all', valueOptions: ['-m', '--mode'] },
  truncate: { targets: 'all', valueOptions: ['-s', '--size', '-r', '--reference'] },
  mv: { targets: 'all', valueOptions: ['-S', '--suffix'], targetOptions: ['-t', '--target-directory'] }, // sources are removed
  cp: { targets: 'last', valueOptions: ['-S', '--suffix'], targetOptions: ['-t', '--target-directory'] },
  ln: { targets: 'last', valueOptions: ['-S', '--suffix'], targetOptions: ['-t', '--target-directory'] },
  install: { targets: 'last', valueOptions: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix'], targetOptions: ['-t', '--target-directory'] },
  chmod: { targets: 'all' }, // the mode is recognised and skipped
  chown: { targets: 'after-first' },
  chgrp: { targets: 'after-first' },
};

const fileWriters = new Map(Object.entries(FILE_WRITERS));

/** The target of a write whose files come from xargs' input. */
const XARGS_TARGETS = '(files read by xargs)';

const CHMOD_MODE = /^([0-7]{1,4}|[ugoa]*([-+=][rwxXstugo]*)+(,[ugoa]*([-+=][rwxXstugo]*)+)*)$/;

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

  constructor(private readonly home: string) {}

  result(): ShellAnalysis {
    const readOnly = this.everyCommandReadOnly && !this.unanalysable && !this.banned && this.writes.length === 0;
    return {
      commands: this.commands,
      writes: this.writes,
      ...(this.unanalysable !== undefined && { unanalysable: this.unanalysable }),
      ...(this.banned && { banned: this.banned }),
      readOnly,
    };
  }

  /** Parses and walks a command line or a nested `bash -c` / `eval` string. */
  source(source: string, scope: Scope, what = ''): void {
    if (scope.depth > MAX_NESTING) return this.fail(`${what}nested more than ${MAX_NESTING} levels deep`);
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
    if (command?.kind === 'call') this.call(command, statement, scope);
    else if (command) {
      const inner: Scope = command.subshell || command.type === 'CoprocClause' || command.type === 'FuncDecl' ? subshell(scope) : scope;
      const wrapped = command.type === 'TimeClause' ? { ...inner, wrappers: [...inner.wrappers, 'time'] } : inner;
      for (const child of command.statements) this.statement(child, wrapped);
      for (const substitution of command.substitutions) this.script(substitution, substitutionScope(scope));
    }
    for (const redirect of statement.redirects) {
      const { op, target } = redirect;
      const duplicatesDescriptor = op === '>&' && target.literal && /^(\d+-?|-)$/.test(target.value);
      if ((WRITING_REDIRECTS.has(op) || (op === '>&' && !duplicatesDescriptor)) && !(target.literal && OUTPUT_SINKS.has(target.value))) {
        this.write(target, dirBefore, 'redirect');
      }
      for (const word of [target, ...(redirect.heredoc ? [redirect.heredoc] : [])]) {
        for (const substitution of word.substitutions) this.script(substitution, substitutionScope(scope));
      }
    }
  }

  private call(call: ShellCall, statement: ShellStatement, scope: Scope): void {
    if (call.words.length === 0) {
      // `X=1` alone sets a variable in the persistent shell (`PATH=/tmp/evil:$PATH` changes later commands)
      if (call.assignments.length) this.everyCommandReadOnly = false;
    } else {
      this.invoke({
        words: call.words,
        wrappers: [...scope.wrappers, ...call.assignments.map((a) => a.text)],
        safeEnv: call.assignments.every((a) => a.value === undefined || a.value.literal ? isSafeEnvAssignment(a.name, a.value?.value ?? '') : false),
        privileged: false,
        appendsArguments: false,
        dir: scope.dir,
        statement,
      }, scope);
    }
    const nested = [...call.assignments.flatMap((a) => a.substitutions), ...call.words.flatMap((w) => w.substitutions)];
    for (const substitution of nested) this.script(substitution, substitutionScope(scope));
  }

  /** Sees through wrappers to the real command, then records it or analyses the command it carries. */
  private invoke(invocation: Invocation, scope: Scope): void {
    for (;;) {
      const nameWord = invocation.words[0]!;
      if (!nameWord.literal) return this.fail(`the command name ${nameWord.text} is only known when it runs`);
      const name = basename(expandTilde(nameWord, this.home));
      const wrapper = wrappers.get(name);
      if (!wrapper) return this.dispatch(name, invocation, scope);
      const unwrapped = this.unwrap(name, wrapper, invocation);
      if (!unwrapped) return; // unanalysable, or recorded as a command of its own
      invocation = unwrapped;
    }
  }

  /** The invocation inside a wrapper; undefined when the wrapper runs nothing (then recorded) or hides it. */
  private unwrap(name: string, spec: WrapperSpec, invocation: Invocation): Invocation | undefined {
    const words = invocation.words;
    const assignments: string[] = [];
    let safeEnv = invocation.safeEnv;
    let dir = invocation.dir;
    let noCommand = false;
    let i = 1;
    const takeValue = (option: string, value: ShellWord | undefined) => {
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
      else if (known(spec.valueOptions) && option.startsWith('--')) {
        takeValue(option, attached !== undefined ? attachedWord(word, attached) : words[++i]);
      } else if (known(spec.flags)) continue;
      else if (!option.startsWith('--')) {
        // a cluster of one-letter options: -iu root, -oL, -n5
        for (let j = 1; j < option.length; j++) {
          const letter = `-${option[j]}`;
          if (spec.opaqueOptions?.includes(letter)) return void this.fail(`${name} ${letter} hides the command it runs`);
          if (spec.noCommandOptions?.includes(letter)) noCommand = true;
          else if (spec.valueOptions?.includes(letter)) {
            takeValue(letter, j < option.length - 1 ? attachedWord(word, option.slice(j + 1)) : words[++i]);
            break;
          } else if (spec.attachedOptions?.includes(letter)) break;
          else if (!spec.flags.includes(letter)) return void this.fail(`${name}: unknown option ${letter}`);
        }
      } else return void this.fail(`${name}: unknown option ${option}`);
    }
    if (spec.assignments) {
      for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.value); i++) {
        const [assignName, ...rest] = words[i]!.value.split('=');
        assignments.push(words[i]!.text);
        if (!words[i]!.literal || !isSafeEnvAssignment(assignName!, rest.join('='))) safeEnv = false;
      }
    }
    i += spec.operands ?? 0;
    if (noCommand || i >= words.length) {
      if (!noCommand && spec.defaultCommand) {
        const echo: ShellWord = { ...words[0]!, text: spec.defaultCommand, value: spec.defaultCommand };
        return { ...invocation, words: [echo], wrappers: [...invocation.wrappers, name], appendsArguments: true };
      }
      this.record(name, words.slice(1), invocation);
      return undefined;
    }
    return {
      ...invocation,
      words: words.slice(i),
      wrappers: [...invocation.wrappers, name, ...assignments],
      safeEnv,
      dir,
      privileged: invocation.privileged || Boolean(spec.privileged),
      appendsArguments: invocation.appendsArguments || Boolean(spec.appendsArguments),
    };
  }

  /** The real command: a shell with a script, eval, trap, find, or an ordinary command. */
  private dispatch(name: string, invocation: Invocation, scope: Scope): void {
    const args = invocation.words.slice(1);
    const nested = (what: string): Scope => ({
      dir: what === 'eval' || what === 'trap' ? invocation.dir : { path: invocation.dir.path },
      wrappers: [...invocation.wrappers, what],
      depth: scope.depth + 1,
    });
    if (SHELLS.has(name)) {
      const script = this.shellScript(name, args, invocation.statement);
      if (script === null) return; // unanalysable
      if (script !== undefined) return this.source(script, nested(name), `${name} -c string: `);
    } else if (name === 'eval') {
      if (!args.every((a) => a.literal)) return this.fail('eval of a string only known when it runs');
      return this.source(args.map((a) => a.value).join(' '), nested('eval'), 'eval string: ');
    } else if (name === 'trap' && args.length >= 2 && !args[0]!.value.startsWith('-')) {
      if (!args[0]!.literal) return this.fail('trap of a string only known when it runs');
      return this.source(args[0]!.value, nested('trap'), 'trap string: ');
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
  private shellScript(name: string, args: ShellWord[], statement?: ShellStatement): string | null | undefined {
    let command = false;
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
    }
    if (command) {
      const script = args[i];
      if (!script) return (this.fail(`${name} -c without a command string`), null);
      if (!script.literal) return (this.fail(`${name} -c of a string only known when it runs`), null);
      return script.value;
    }
    if (i < args.length) return undefined; // bash script.sh
    const stdin = statement?.redirects.filter((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<').at(-1);
    if (!stdin || stdin.op === '<') return undefined;
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
    const readOnly =
      invocation.safeEnv &&
      !invocation.privileged &&
      isReadOnlyCommand(name, commandArgs, { extraArgsUnknown: invocation.appendsArguments });
    this.commands.push({
      name,
      args,
      text: [name, ...argWords.map((w) => w.text)].join(' '),
      wrappers: invocation.wrappers,
      readOnly,
    });
    this.checkBanned(name);
    if (!readOnly) this.everyCommandReadOnly = false;
    this.changeDirectory(name, argWords, invocation.dir);
    this.commandWrites(name, argWords, commandArgs, invocation.dir);
    if (invocation.appendsArguments && (fileWriters.has(name) || name === 'tee')) {
      this.writes.push({ target: XARGS_TARGETS, via: 'other' }); // find . | xargs rm
    }
  }

  /** Follows `cd` so later relative write targets resolve where they will really be. */
  private changeDirectory(name: string, args: ShellWord[], dir: Directory): void {
    if (name === 'popd') dir.path = undefined;
    if (name !== 'cd' && name !== 'pushd') return;
    const target = args.find((a) => !/^-[LPe@]+$/.test(a.value));
    if (!target) dir.path = name === 'cd' ? this.home : undefined;
    else dir.path = target.literal && target.value !== '-' ? this.resolvePath(target, dir) : undefined;
  }

  private commandWrites(name: string, words: ShellWord[], args: CommandArg[], dir: Directory): void {
    const values = args.map((a) => a.value);
    if (name === 'tee') {
      for (const word of positionalWords(words, [])) {
        const sink = word.value === '-' || (word.literal && OUTPUT_SINKS.has(word.value));
        if (!word.processSubstitution && !sink) this.write(word, dir, 'tee');
      }
    } else if (name === 'sed') {
      const sed = parseSed(values);
      if (sed.inPlace) for (const index of sed.fileIndexes) this.write(words[index]!, dir, 'sed -i');
    } else if (name === 'sort') {
      const output = optionValue(words, '-o', '--output', 'kStT');
      if (output) this.write(output, dir, 'sort -o');
    } else if (name === 'git') {
      const git = parseGitGlobals(args);
      let gitDir = dir;
      for (const d of git.directories) gitDir = { path: d.literal && gitDir.path ? resolve(gitDir.path, expandTildeValue(d.value, this.home)) : undefined };
      const output = optionValue(words.slice(git.subcommandIndex + 1), undefined, '--output');
      if (output) this.write(output, gitDir, 'git --output');
    } else if (name === 'find') {
      this.findWrites(words, dir);
    } else if (name === 'dd') {
      for (const word of words) {
        if (word.value.startsWith('of=')) this.write(attachedWord(word, word.value.slice(3)), dir, 'other');
      }
    } else if (fileWriters.has(name)) {
      this.fileWriterWrites(fileWriters.get(name)!, name, words, dir);
    }
  }

  private findWrites(words: ShellWord[], dir: Directory): void {
    const firstExpression = words.findIndex((w) => /^[-(!)]/.test(w.value) && w.value !== '-');
    const starts = words.slice(0, firstExpression === -1 ? words.length : firstExpression);
    for (let i = 0; i < words.length; i++) {
      const action = words[i]!.value;
      if (action === '-delete') {
        if (starts.length) for (const start of starts) this.write(start, dir, 'other');
        else this.write({ ...words[i]!, text: '.', value: '.', literal: true }, dir, 'other');
      } else if (FIND_WRITING_ACTIONS.includes(action) && words[i + 1]) {
        this.write(words[++i]!, dir, 'other');
      }
    }
  }

  private fileWriterWrites(writer: FileWriter, name: string, words: ShellWord[], dir: Directory): void {
    let targets = positionalWords(words, writer.valueOptions ?? [], writer.targetOptions ?? []);
    const targetOption = optionValue(words, undefined, undefined, '', writer.targetOptions ?? []);
    if (targetOption) targets = [targetOption];
    else if (writer.targets === 'last') targets = targets.slice(-1);
    else if (writer.targets === 'after-first' && !words.some((w) => w.value.startsWith('--reference'))) targets = targets.slice(1);
    if (name === 'chmod') {
      const mode = words.findIndex((w) => CHMOD_MODE.test(w.value));
      targets = targets.filter((w) => w !== words[mode]);
    }
    for (const target of targets) this.write(target, dir, 'other');
  }

  private write(target: ShellWord, dir: Directory, via: ShellWrite['via']): void {
    const path = target.literal ? this.resolvePath(target, dir) : undefined;
    this.writes.push({ target: target.text, ...(path !== undefined && { path }), via });
  }

  private resolvePath(word: ShellWord, dir: Directory): string | undefined {
    const value = expandTilde(word, this.home);
    if (isAbsolute(value)) return resolve(value);
    return dir.path === undefined ? undefined : resolve(dir.path, value);
  }
}

// ---- helpers

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

/**
 * The value of an option, given as `-o v`, `-ov`, a cluster `-uo v`, `--output v`, `--output=v` or an
 * abbreviation `--out=v` (GNU getopt accepts any unambiguous prefix). The last one given wins.
 */
function optionValue(
  words: ShellWord[],
  short: string | undefined,
  long: string | undefined,
  shortValueFlags = '',
  others: readonly string[] = [],
): ShellWord | undefined {
  let found: ShellWord | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const [name, attached] = splitLong(arg);
      const matches = (long !== undefined && name.length > 2 && long.startsWith(name)) || others.includes(name);
      if (matches) found = attached !== undefined ? attachedWord(word, attached) : words[++i];
    } else if (others.includes(arg)) found = words[++i];
    else if (short && arg.startsWith('-')) {
      for (let j = 1; j < arg.length; j++) {
        if (arg[j] === short[1]) {
          found = j < arg.length - 1 ? attachedWord(word, arg.slice(j + 1)) : words[++i];
          break;
        }
        if (shortValueFlags.includes(arg[j]!)) break;
      }
    }
  }
  return found;
}

/** The positional words (not options, not option values given as separate words). */
function positionalWords(words: ShellWord[], valueOptions: readonly string[], moreValueOptions: readonly string[] = []): ShellWord[] {
  const result: ShellWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.value === '--') return [...result, ...words.slice(i + 1)];
    if (valueOptions.includes(word.value) || moreValueOptions.includes(word.value)) i++;
    else if (!word.value.startsWith('-') || word.value === '-' || !word.literal) result.push(word);
  }
  return result;
}
