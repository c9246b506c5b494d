/**
 * Seeing through wrappers (the table is in `wrappers.ts`): `sudo`, `env`, `timeout`, `xargs`,
 * `su -c`, `watch`, `uv run`, … to the command they run, with their options, assignments, directory
 * and output files; a command string they run with a shell goes back to the walk
 * (`shell-analysis.ts`) to be parsed in turn.
 */
import { assignmentRunsCode } from './bash-evaluation.js';
import { opaqueReason } from './opaque-code.js';
import { wrappers, type WrapperSpec } from './wrappers.js';
import { isSafeEnvAssignment, splitLong } from './safe-commands.js';
import type { ShellWord } from './shell-parse.js';
import { CommandRecorder } from './shell-record.js';
import { basename, expandTilde, OUTPUT_SINKS, SHELLS, type Invocation, type Scope } from './shell-scope.js';

/** {@link CommandRecorder} that sees through wrappers; the walk of `shell-analysis.ts` is built on it. */
export abstract class WrapperUnwrapping extends CommandRecorder {
  /** Parses and walks a command line or a nested `bash -c` / `eval` string (the walk, `shell-analysis.ts`). */
  abstract source(source: string, scope: Scope, what?: string): void;

  /** The real command, once no wrapper is left (the walk, `shell-analysis.ts`). */
  protected abstract dispatch(name: string, invocation: Invocation, scope: Scope): void;

  /** Sees through wrappers to the real command, then records it or analyses the command it carries. */
  protected invoke(invocation: Invocation, scope: Scope): void {
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
      if (spec.directoryOptions?.includes(option))
        dir = { path: value.literal ? this.resolvePath(value, dir) : undefined };
      if (spec.outputOptions?.includes(option)) this.write(value, dir, 'other');
    };
    for (; i < words.length; i++) {
      const word = words[i]!;
      const arg = word.value;
      if (!word.literal && arg.startsWith('-'))
        return void this.fail(`${name}: option ${word.text} is only known when it runs`);
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
          if (spec.opaqueOptions?.includes(letter))
            return void this.fail(`${name} ${letter} hides the command it runs`);
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
      for (
        ;
        i < words.length && /^[^=]+=/.test(words[i]!.value) /* env takes any NAME=value, even BASH_FUNC_ls%%= */;
        i++
      ) {
        const [assignName, ...rest] = words[i]!.value.split('=');
        assignments.push(words[i]!.text);
        if (!words[i]!.literal || !isSafeEnvAssignment(assignName!, rest.join('='))) safeEnv = false;
        envCode ??= assignmentRunsCode(assignName!, words[i]!.literal ? rest.join('=') : undefined, words[i]!.text);
      }
    }
    i += spec.operands ?? 0;
    // a command string may follow the operands: flock /tmp/x.lock -c 'make'
    const after = words[i];
    if (
      commandString === undefined &&
      after?.literal &&
      spec.commandStringOptions?.includes(splitLong(after.value)[0])
    ) {
      const [, attached] = splitLong(after.value);
      commandString = (attached !== undefined ? attachedWord(after, attached) : words[i + 1]) ?? null;
    }
    if (commandString !== undefined) return void this.commandString(name, commandString, { ...invocation, dir }, scope);
    const written = words.map((w) => w.text).join(' ');
    if (!noCommand && invocation.appendsArguments && i >= words.length) {
      // xargs xargs, xargs env, xargs -0 timeout 5: the program comes from the input
      return void this.recordOpaque(
        name,
        written,
        opaqueReason(`${written} (the program it runs is named in its input)`),
        invocation.wrappers,
      );
    }
    if (spec.joinsCommand && !runsDirectly && !noCommand && i < words.length) {
      // watch joins its arguments and runs them with sh -c
      const rest = words.slice(i);
      if (!rest.every((w) => w.literal))
        return void this.recordOpaque(name, written, opaqueReason(written), invocation.wrappers);
      return void this.commandString(
        name,
        { ...rest[0]!, text: rest.map((w) => w.text).join(' '), value: rest.map((w) => w.value).join(' ') },
        { ...invocation, dir },
        scope,
      );
    }
    if (noCommand || i >= words.length) {
      // `echo 'rm x' | sudo -s`: with no command, -s/-i run a shell that reads its input
      if (
        !noCommand &&
        spec.privileged &&
        words.slice(1, i).some((w) => /^-[A-Za-z]*[si]|^--(shell|login)$/.test(w.value))
      ) {
        return void this.recordOpaque(
          name,
          written,
          opaqueReason(`${written} (runs a shell that reads commands from its input)`),
          invocation.wrappers,
        );
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
      if (
        head &&
        SHELLS.has(basename(head.value)) &&
        !head.value.includes(marker) &&
        command.some((w) => w.value.includes(marker))
      ) {
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
      if (!word.literal && word.value.startsWith('-'))
        return this.fail(`${name}: option ${word.text} is only known when it runs`);
      const [option, attached] = word.value.startsWith('--') ? splitLong(word.value) : [word.value, undefined];
      const cluster = /^-[A-Za-z]{2,}$/.test(option) ? option : undefined;
      const last = cluster ? `-${cluster.at(-1)}` : option;
      if (option === '-s' || option === '--shell' || (name === 'runuser' && (option === '-u' || option === '--user'))) {
        return this.recordOpaque(
          name,
          written,
          opaqueReason(`${written} (${option} chooses the program it runs)`),
          invocation.wrappers,
        );
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
      return this.recordOpaque(
        name,
        written,
        opaqueReason(`${written} (a shell reads its commands from input)`),
        invocation.wrappers,
      );
    }
    this.commandString(
      name,
      commandString,
      { ...invocation, privileged: invocation.privileged || Boolean(spec.privileged) },
      scope,
    );
  }

  /** A command string a wrapper runs with a shell: analysed when literal, else opaque. */
  private commandString(name: string, word: ShellWord | null, invocation: Invocation, scope: Scope): void {
    if (!word) return this.fail(`${name}: a command option without its command string`);
    if (!word.literal) {
      const text = `${name} ${word.text}`;
      return this.recordOpaque(
        name,
        text,
        opaqueReason(`${text} (a command string only known when it runs)`),
        invocation.wrappers,
      );
    }
    const wrappers = [...invocation.wrappers, name];
    if (invocation.opaque) this.recordOpaque(name, `${name} ${word.text}`, invocation.opaque, invocation.wrappers);
    this.source(
      word.value,
      { dir: { path: invocation.dir.path }, wrappers, depth: scope.depth + 1 },
      `${name} command string: `,
    );
  }
}

/** The value attached to an option word (`--output=x`, `-ofile`) as a word of its own. */
function attachedWord(word: ShellWord, value: string): ShellWord {
  const text = word.text.endsWith(value) ? word.text.slice(word.text.length - value.length) : value;
  return { text, value, literal: word.literal, tilde: false, processSubstitution: false, substitutions: [] };
}
