/**
 * The shapes of the read-only command table (`safe-commands.ts`, with its git rows in
 * `safe-git-commands.ts`) and of the arguments its checks read.
 */

/** One argument as the program receives it; `literal` is false when it holds an expansion or glob. */
export interface CommandArg {
  value: string;
  literal: boolean;
}

export interface SafeCommand {
  /** `ls`, or a command and its subcommand: `git log`, `go env` */
  command: string;
  /** a typical read-only use, and the forms that are not */
  example: string;
  /**
   * flags that write files or run programs. `--output` also matches `--output=x` and GNU abbreviations
   * (`--out`); a one-letter `-o` also matches inside a cluster (`-uo`) or with a value attached (`-ofile`);
   * a longer single-dash flag (Go's `-toolexec`) matches with one or two dashes.
   */
  deniedFlags?: readonly string[];
  /** one-letter options that take a value: the rest of a cluster after them is the value (`sort -k2o`, `date -Iseconds`) */
  shortValueFlags?: string;
  /** a stricter test on the arguments (after the subcommand), for commands read-only only in some forms */
  check?: (args: readonly string[]) => boolean;
  /** how many leading arguments must be known for the test (default: all); printf takes options only before its format */
  knownArgs?: number;
}
