/**
 * The shapes the walk of `shell-analysis.ts` hands between its layers (`shell-findings.ts`,
 * `shell-record.ts`, `shell-unwrap.ts`): the shell's current directory, the scope a statement runs
 * in, one command being resolved through its wrappers; and the small word, path and scope helpers
 * they share. Pure.
 */
import { isAbsolute, relative } from 'node:path';
import type { ShellStatement, ShellWord } from './shell-parse.js';

/** Shells whose `-c` string (or here-document on stdin) is parsed and analysed in turn. */
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'hush', 'rbash', 'posh', 'yash']);

/** Redirection targets that are not files. */
export const OUTPUT_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** The shell's current directory: shared within one shell, copied into subshells. `path` unknown after `cd "$x"`. */
export interface Directory {
  path?: string;
}

/** Where a statement runs: its shell's directory, the wrappers around it, how deep in nested command strings. */
export interface Scope {
  dir: Directory;
  /** wrappers around every command in this scope: `time`, or the `bash` of a `bash -c` string */
  wrappers: readonly string[];
  depth: number;
}

/** One command being resolved through its wrappers. */
export interface Invocation {
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

/** Whether absolute `path` is `dir` or under it, by text. */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

/** A literal word of a known value (a file named inside another program's text). */
export function plainWord(value: string): ShellWord {
  return { text: value, value, literal: true, tilde: false, processSubstitution: false, substitutions: [] };
}

/** A scope for a subshell (`( )`, `&`, a coprocess): a copy of the directory, so its `cd` stays inside. */
export function subshell(scope: Scope): Scope {
  return { ...scope, dir: { path: scope.dir.path } };
}

/** `$( )` and `<( )` run in a subshell, and the wrappers of the command around them don't apply. */
export function substitutionScope(scope: Scope): Scope {
  return { dir: { path: scope.dir.path }, wrappers: [], depth: scope.depth };
}

/** The last part of a slash path, by text: `/usr/bin/curl` → `curl`. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A word's value with a leading `~` (unquoted, as the parser marked it) replaced by `home`. */
export function expandTilde(word: ShellWord, home: string): string {
  return word.tilde ? expandTildeValue(word.value, home) : word.value;
}

/** `~` and `~/…` replaced by `home` in a value known to expand (`~user` is left as written). */
export function expandTildeValue(value: string, home: string): string {
  if (value === '~') return home;
  return value.startsWith('~/') ? home + value.slice(1) : value;
}
