/**
 * What a command line runs and writes, as `analyzeCommand` (`shell-analysis.ts`) finds it:
 * the result shapes of the shell analysis. `shell-analysis.ts` re-exports them.
 */
import type { WriteVia } from './write-targets.js';

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
   * Set when the command runs code the analysis cannot see: an interpreter one-liner,
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
   * the part of a compound line that writes.
   */
  command?: number;
  /** the redirection as written before its target, for a redirection: `>`, `>>`, `2>`, `&>`, … */
  redirect?: string;
  /** without `path`: the place is outside the project all the same (npm's global folder) */
  outsideProject?: boolean;
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
  /**
   * Why the line reaches beyond the project without naming a file in it, one reason each: a change to
   * the system as a whole (`apt-get install`, `systemctl restart`, `useradd`: `system-changes.ts`) or a
   * connection through bash's `/dev/tcp` and `/dev/udp`. These ask whatever the rules allow, as writes
   * outside the project do.
   */
  alwaysAsks?: string[];
}
