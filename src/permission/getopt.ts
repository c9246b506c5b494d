/**
 * Command-line options read the way GNU `getopt_long` reads them (glibc's getopt(3), "Long options"),
 * for the shell analysis to find the words a program writes to:
 *
 * - a long option may be abbreviated to any unique prefix (`sed --in-pl` is `--in-place`,
 *   `cp --target=/x` is `--target-directory=/x`); a prefix of several options is an error in
 *   getopt_long and the program does not run, so {@link resolveLongOption} says `ambiguous`;
 * - a long option's value comes after `=` or, when the value is required, as the next word;
 * - short options cluster (`-vt DIR`); one that takes a value takes the rest of the cluster
 *   (`-tDIR`) or the next word;
 * - `--` ends the options; by GNU's default permutation, options may come after positionals.
 *
 * Pure. What is not in a program's table is read as a flag without a value: when unsure, a word is
 * kept as a positional (a possible write target) rather than taken as some option's value.
 */
import type { ShellWord } from './shell-parse.js';

/** The options of one program, as far as finding its positionals and write targets needs. */
export interface OptionSpec {
  /** one-letter options that take a value (`t` for `cp -t DIR`) */
  shortWithValue?: string;
  /**
   * every long option the program has, without dashes, so that abbreviations resolve as the program
   * resolves them (those of `longWithValue` count without being listed here again)
   */
  long?: readonly string[];
  /** the long options that require a value, which may then be the next word */
  longWithValue?: readonly string[];
  /** single-dash options of more than one letter that take the next word (`find`-style, `sqlite3 -cmd X`) */
  wordWithValue?: readonly string[];
  /** options stop at the first positional (POSIX order, e.g. `git`, `env`); default: GNU permutation */
  stopAtPositional?: boolean;
}

/** One option found, by its canonical name (`-t`, `--target-directory`). */
export interface FoundOption {
  name: string;
  /** its value, as a word of its own (attached values are cut out of the option word) */
  value?: ShellWord;
  /** the word the option was written in */
  word: ShellWord;
}

export interface ParsedOptions {
  options: FoundOption[];
  positionals: ShellWord[];
  /** an option word that is not literal (`"$FLAGS"`): it may be anything, including a write target */
  unknownWords: ShellWord[];
}

/**
 * Resolves `--name` (without `=value`) against a program's long options: the exact name, else the one
 * option it is a prefix of; `ambiguous` for a prefix of several; undefined for none.
 */
export function resolveLongOption(name: string, long: readonly string[]): string | 'ambiguous' | undefined {
  const bare = name.replace(/^--/, '');
  if (long.includes(bare)) return bare;
  if (bare === '') return undefined;
  const matches = long.filter((option) => option.startsWith(bare));
  if (matches.length === 1) return matches[0];
  return matches.length > 1 ? 'ambiguous' : undefined;
}

/** The value attached to an option word (`--output=x`, `-ofile`) as a word of its own. */
export function attachedWord(word: ShellWord, value: string): ShellWord {
  const text = word.text.endsWith(value) ? word.text.slice(word.text.length - value.length) : value;
  return { text, value, literal: word.literal, tilde: false, processSubstitution: false, substitutions: [] };
}

/** Splits `words` (a program's arguments, without its name) into options and positionals by `spec`. */
export function parseOptions(words: readonly ShellWord[], spec: OptionSpec): ParsedOptions {
  const result: ParsedOptions = { options: [], positionals: [], unknownWords: [] };
  const long = spec.longWithValue ? [...new Set([...(spec.long ?? []), ...spec.longWithValue])] : (spec.long ?? []);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') {
      result.positionals.push(...words.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      result.positionals.push(word);
      if (spec.stopAtPositional) {
        result.positionals.push(...words.slice(i + 1));
        break;
      }
      continue;
    }
    if (!word.literal) result.unknownWords.push(word);
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const written = eq === -1 ? arg : arg.slice(0, eq);
      const resolved = resolveLongOption(written, long);
      const name = resolved === undefined || resolved === 'ambiguous' ? written : `--${resolved}`;
      if (eq !== -1) result.options.push({ name, value: attachedWord(word, arg.slice(eq + 1)), word });
      else if (resolved && resolved !== 'ambiguous' && spec.longWithValue?.includes(resolved) && i + 1 < words.length) {
        result.options.push({ name, value: words[++i]!, word });
      } else result.options.push({ name, word });
      continue;
    }
    if (spec.wordWithValue?.includes(arg)) {
      result.options.push({ name: arg, ...(i + 1 < words.length && { value: words[++i]! }), word });
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const name = `-${arg[j]}`;
      if (spec.shortWithValue?.includes(arg[j]!)) {
        const value = j < arg.length - 1 ? attachedWord(word, arg.slice(j + 1)) : words[i + 1];
        if (j === arg.length - 1 && value) i++;
        result.options.push({ name, ...(value && { value }), word });
        break;
      }
      result.options.push({ name, word });
    }
  }
  return result;
}

/** Whether `parsed` holds any of `names` (canonical: `-t`, `--target-directory`). */
export function hasOption(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

/** The values of the options named `names`, in order. */
export function optionValues(parsed: ParsedOptions, ...names: string[]): ShellWord[] {
  return parsed.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}

/** `--name=value` → [`--name`, `value`]; anything else → [arg, undefined]. */
export function splitLong(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('-') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}
