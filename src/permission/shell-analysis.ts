/**
 * Shell command analysis: what a bash command line would run and write, so that
 * permission rules judge every part of it, not its first word (the original tested only a prefix, so `ls && rm` passed).
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
 * Opaque code is marked on the command that runs it (`SimpleCommand.opaque`):
 * interpreter one-liners and programs read from input (`opaque-code.ts`), code-running environment
 * (`code-env.ts`), code bash evaluates in arithmetic and subscripts (`bash-evaluation.ts`), git that
 * can run a program, wrappers whose command string is not literal (`wrappers.ts`). The policy never
 * lets the read-only list or a wildcard rule allow it.
 *
 * Pure: no file system access, no environment; `cwd` and `home` come from the caller.
 *
 * The walk is built in layers, one concern a module: `shell-findings.ts` holds what is found and
 * the files a command writes, `shell-record.ts` records one simple command (read-only, opaque code,
 * program identity), `shell-unwrap.ts` sees through wrappers, and this module walks the parsed line
 * (statements, redirections, functions, shells, `eval`, `trap`, `find -exec`). The shapes they share
 * are in `shell-scope.ts`; the result types in `shell-analysis-types.ts`.
 */
import { commandPrefix } from './arity.js';
import { MAY_REACH_NETWORK, REACHES_NETWORK } from './network-reasons.js';
import {
  arithmeticHidesCode,
  assignmentRunsCode,
  expandsPrompt,
  forLoopHidesCode,
  testClauseHidesCode,
  wordHidesCode,
} from './bash-evaluation.js';
import { isInputFile, opaqueReason } from './opaque-code.js';
import { compgenCode, KnownVariables, lateEvaluatedNames } from './late-evaluation.js';
import { PRIVILEGED_WRAPPERS } from './wrappers.js';
import { anotherUserChange } from './system-changes.js';
import { isSafeEnvAssignment } from './safe-commands.js';
import {
  parseShell,
  ShellSyntaxError,
  type ShellCall,
  type ShellScript,
  type ShellStatement,
  type ShellWord,
} from './shell-parse.js';
import type { ShellAnalysis, SimpleCommand } from './shell-analysis-types.js';
import { WrapperUnwrapping } from './shell-unwrap.js';
import { OUTPUT_SINKS, SHELLS, subshell, substitutionScope, type Invocation, type Scope } from './shell-scope.js';

export type { ProgramUse, ShellAnalysis, ShellWrite, SimpleCommand } from './shell-analysis-types.js';

/**
 * Analyses a bash command line. Never throws: what it cannot analyse comes back as `unanalysable`.
 * `cwd` resolves relative write targets (and follows `cd` within the line); `home` expands `~`;
 * `projectDir` (default `cwd`): git run outside it, or writes into a `.git` folder, are opaque code.
 */
export function analyzeCommand(
  command: string,
  options: { cwd: string; home: string; projectDir?: string },
): ShellAnalysis {
  // git run outside the project reads another repository's configuration
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

const SHELL_VALUE_OPTIONS = ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'];

/** Nested `bash -c "eval '…'"` strings deeper than this are unanalysable. */
const MAX_NESTING = 8;

const WRITING_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** bash's network paths, opened by the shell in any redirection (bash(1) "REDIRECTION"); quotes do not stop them. */
const NETWORK_DEVICE = /^["']?\/dev\/(tcp|udp)\//;

/** Redirections whose target is a path bash opens (not a here-string, a here-document or `>&$fd`). */
const OPENS_A_PATH = new Set(['<', '>', '>>', '>|', '<>', '&>', '&>>']);

class Analysis extends WrapperUnwrapping {
  /** functions declared in this line, walked where they are called */
  private readonly functions = new Map<string, { statements: ShellStatement[]; scope: Scope; called: boolean }>();
  private readonly runningFunctions = new Set<string>();
  /** variables holding a value written in this line, for bash's late evaluation (`late-evaluation.ts`) */
  private readonly variables = new KnownVariables();

  result(): ShellAnalysis {
    this.walkUncalledFunctions();
    this.gitMetadataWrites();
    for (const command of this.commands) {
      const change = anotherUserChange(command.name, command.wrappers, command.text, PRIVILEGED_WRAPPERS);
      if (change) this.alwaysAsks.push(change);
    }
    const readOnly = this.everyCommandReadOnly && !this.unanalysable && !this.banned && this.writes.length === 0;
    return {
      commands: this.commands,
      writes: this.writes,
      ...(this.unanalysable !== undefined && { unanalysable: this.unanalysable }),
      ...(this.banned && { banned: this.banned }),
      readOnly,
      programs: this.programs,
      startDirectoryWriters: [...this.startDirectoryWriters],
      ...(this.alwaysAsks.length && { alwaysAsks: [...new Set(this.alwaysAsks)] }),
    };
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
      const inner: Scope =
        command.subshell || command.type === 'CoprocClause' || command.type === 'FuncDecl' ? subshell(scope) : scope;
      const wrapped = command.type === 'TimeClause' ? { ...inner, wrappers: [...inner.wrappers, 'time'] } : inner;
      if (command.text !== undefined) {
        const hides =
          command.type === 'TestClause'
            ? testClauseHidesCode(command.text)
            : command.type === 'ForClause'
              ? forLoopHidesCode(command.text)
              : command.type === 'CaseClause'
                ? false
                : arithmeticHidesCode(command.text);
        const name =
          command.type === 'TestClause'
            ? '[['
            : command.type === 'ForClause'
              ? 'for'
              : command.type === 'CaseClause'
                ? 'case'
                : '((';
        if (hides)
          this.recordOpaque(
            name,
            command.text,
            opaqueReason(`${command.text} (bash evaluates array subscripts in it)`),
            scope.wrappers,
          );
        // `for PATH in ./bin; do ls; done` sets the loop's variable like an assignment
        const loopVariable =
          command.type === 'ForClause'
            ? /^(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\b/.exec(command.text)?.[1]
            : undefined;
        const setsCode =
          loopVariable !== undefined ? assignmentRunsCode(loopVariable, undefined, `for ${loopVariable}`) : undefined;
        const late = this.variables.statement(command.type, command.text);
        if (setsCode) this.recordOpaque('for', command.text, setsCode, scope.wrappers);
        else if (late && !hides) this.recordOpaque(name, command.text, late, scope.wrappers);
        // `[[ ${x@P} ]]`, `case ${x@P} in`: prompt expansion runs the substitutions the value holds
        else if (expandsPrompt(command.text))
          this.recordOpaque(
            command.type,
            command.text,
            opaqueReason(`${command.text} (\${…@P} runs the commands its value holds)`),
            scope.wrappers,
          );
      }
      if (command.type === 'FuncDecl' && command.name !== undefined)
        this.declareFunction(command.name, command.statements, scope);
      else
        for (const child of command.statements)
          this.statement(command.type === 'TimeClause' ? withoutEndOfOptions(child) : child, wrapped);
      for (const substitution of command.substitutions) this.script(substitution, substitutionScope(scope));
    }
    for (const redirect of statement.redirects) {
      const { op, target } = redirect;
      // bash itself opens a connection for `/dev/tcp/host/port` and `/dev/udp/…`, reading or writing
      if (NETWORK_DEVICE.test(target.value) || NETWORK_DEVICE.test(target.text))
        this.alwaysAsks.push(`${REACHES_NETWORK}: ${op} ${target.text}`);
      else if (!target.literal && OPENS_A_PATH.has(op) && /^["']?(\$|`)/.test(target.text))
        this.alwaysAsks.push(
          `${MAY_REACH_NETWORK} (a path only known when it runs may be /dev/tcp/…): ${op} ${target.text}`,
        );
      const duplicatesDescriptor = op === '>&' && target.literal && /^(\d+-?|-)$/.test(target.value);
      if (
        (WRITING_REDIRECTS.has(op) || (op === '>&' && !duplicatesDescriptor)) &&
        !(target.literal && OUTPUT_SINKS.has(target.value))
      ) {
        const written = this.writes.length;
        this.write(target, dirBefore, 'redirect');
        for (const write of this.writes.slice(written)) {
          write.redirect = `${redirect.fd ?? ''}${op}`;
          if (owner !== undefined) write.command = owner;
        }
      }
      for (const word of [target, ...(redirect.heredoc ? [redirect.heredoc] : [])]) {
        const late = word.literal
          ? undefined
          : this.variables.unknown(lateEvaluatedNames(word.text), `${op} ${word.text}`);
        if (late) this.recordOpaque(op, word.text, late, scope.wrappers);
        if (!word.literal && expandsPrompt(word.value))
          this.recordOpaque(
            op,
            word.value,
            opaqueReason(`${word.value} (\${…@P} runs the commands its value holds)`),
            scope.wrappers,
          );
        for (const substitution of word.substitutions) this.script(substitution, substitutionScope(scope));
      }
    }
  }

  /** Walks one call; returns the index of its command when it recorded exactly one (redirections are then that command's). */
  private call(call: ShellCall, statement: ShellStatement, scope: Scope): number | undefined {
    let owner: number | undefined;
    const envCode = call.assignments
      .map((a) =>
        assignmentRunsCode(a.name, a.value === undefined ? '' : a.value.literal ? a.value.value : undefined, a.text),
      )
      .find((reason) => reason !== undefined);
    const hidden = [...call.words.map((w) => w.text), ...call.assignments.map((a) => a.text)].find(wordHidesCode);
    // `read x; echo $((x))`, `${!x}`, `compgen -W "$x"`: bash evaluates a value it only knows when it runs
    const late =
      this.variables.call(call.words, call.assignments) ??
      (call.words[0]?.literal
        ? compgenCode(call.words[0].value, call.words.slice(1), call.words.map((w) => w.text).join(' '))
        : undefined);
    for (const assignment of call.assignments) this.directory.noteAssignment(assignment.name);
    const calledFunction = call.words[0]?.literal ? call.words[0].value : undefined;
    if (calledFunction !== undefined && this.functions.has(calledFunction)) this.callFunction(calledFunction, scope);
    if (call.words.length === 0) {
      // `X=1` alone sets a variable in the persistent shell (`PATH=/tmp/evil:$PATH` changes later commands)
      if (call.assignments.length) this.everyCommandReadOnly = false;
      const text = call.assignments.map((a) => a.text).join(' ');
      if (envCode ?? hidden ?? late)
        this.recordOpaque(
          call.assignments[0]!.name,
          text,
          envCode ?? (hidden !== undefined ? opaqueReason(hidden) : late!),
          scope.wrappers,
        );
    } else {
      const first = this.commands.length;
      this.invoke(
        {
          ...((envCode ?? hidden ?? late) !== undefined && {
            opaque: envCode ?? (hidden !== undefined ? opaqueReason(hidden) : late!),
          }),
          words: call.words,
          wrappers: [...scope.wrappers, ...call.assignments.map((a) => a.text)],
          safeEnv: call.assignments.every((a) =>
            a.value === undefined || a.value.literal ? isSafeEnvAssignment(a.name, a.value?.value ?? '') : false,
          ),
          // `sudo bash -c 'ls'`, `su -c 'ls'`: the commands of the string run with the other user's rights
          privileged: scope.wrappers.some((w) => PRIVILEGED_WRAPPERS.has(w)),
          appendsArguments: false,
          dir: scope.dir,
          statement,
        },
        scope,
      );
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

  /** The real command: a shell with a script, eval, trap, find, or an ordinary command. */
  protected dispatch(name: string, invocation: Invocation, scope: Scope): void {
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
      if (invocation.opaque)
        this.recordOpaque(name, [name, ...args.map((a) => a.text)].join(' '), invocation.opaque, invocation.wrappers);
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
        return this.record(name, args, {
          ...invocation,
          opaque: opaqueReason(`${written} (runs a script read from input)`),
        });
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
    const opaque = (why: string) => (
      this.recordOpaque(name, written, opaqueReason(`${written} (${why})`), invocation.wrappers),
      null
    );
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
    const stdin = statement?.redirects
      .filter((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<')
      .at(-1);
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
      this.invoke(
        { ...invocation, words: command, wrappers: [...invocation.wrappers, 'find'], statement: undefined },
        scope,
      );
    }
  }
}

/** `time -- rm x`: bash's time keyword takes `--` as the end of its options, and runs what follows. */
function withoutEndOfOptions(statement: ShellStatement): ShellStatement {
  const command = statement.command;
  if (command?.kind !== 'call' || !command.words[0]?.literal || command.words[0].value !== '--') return statement;
  return { ...statement, command: { ...command, words: command.words.slice(1) } };
}
