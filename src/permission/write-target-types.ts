/**
 * The shapes shared by the write-target readers (`write-targets.ts`, `archive-writes.ts`,
 * `git-writes.ts`, `package-writes.ts`, `sqlite-writes.ts`), and the word and place makers they share. Pure.
 */
import type { ShellWord } from './shell-parse.js';

/** How a write was found (shown in the analysis and tests; the dialog shows the path). */
export type WriteVia =
  | 'redirect'
  | 'tee'
  | 'sed -i'
  | 'sed w'
  | 'sort -o'
  | 'git --output'
  | 'other'
  /** a path argument of a program not known to only read it */
  | 'argument'
  /** a program not known to write only its arguments, run in a directory other than the line's */
  | 'working directory';

/** One place a command writes. */
export interface WriteTarget {
  /** the target as a word of the command (or made up: `.` for the working directory) */
  word: ShellWord;
  via: WriteVia;
  /** directories (as words, outermost first) the target is relative to: `git -C sub`, `tar -C dir` */
  within?: ShellWord[];
  /** the place cannot be known before it runs (shown as the word's text): `$TMPDIR`, npm's global folder */
  unknown?: boolean;
  /** with `unknown`: the place is outside the project all the same (npm's global folder, a tool's folder in HOME) */
  outside?: boolean;
  /** the target becomes a symbolic link: it and paths under it are not known afterwards */
  link?: boolean;
  /** the target is a folder filled with files that may be links (a clone, an extracted archive): paths under it are not known afterwards */
  container?: boolean;
}

/** What a command writes, and what it does that the analysis cannot see through. */
export interface CommandWrites {
  targets: WriteTarget[];
  /** the directories (outermost first) the command works in when an option moves it: `git -C x`, `make -C x`, `npm --prefix x` */
  directory?: ShellWord[];
  /** the command runs a program or code given in its arguments: why (the analysis then asks every time) */
  runsCode?: string;
  /** the program writes only its targets: no write to its working directory is assumed */
  onlyTargets: boolean;
}

/** What a custom reader may need besides the words. */
export interface WriterContext {
  home: string;
}

/** A literal word made up by a reader (`.` for the working directory). */
export const literalWord = (value: string): ShellWord => ({
  text: value,
  value,
  literal: true,
  tilde: false,
  processSubstitution: false,
  substitutions: [],
});
/** A place that cannot be known before the command runs, shown as `text`; `outside`: it is outside the project all the same. */
export const unknownPlace = (text: string, options: { outside?: boolean } = {}): WriteTarget => ({
  word: { ...literalWord(text), literal: false },
  via: 'other',
  unknown: true,
  ...(options.outside && { outside: true }),
});

/** Words before `--` that start with an expansion (`$X`, `"$X"`, a command substitution): they may expand to an option. */
export function expansionsBeforeEndOfOptions(words: readonly ShellWord[]): ShellWord[] {
  const end = words.findIndex((w) => w.literal && w.value === '--');
  return words
    .slice(0, end === -1 ? words.length : end)
    .filter((w) => !w.literal && /^(\$|`)/.test(w.value) && !w.processSubstitution);
}
