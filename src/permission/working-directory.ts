/**
 * Where the commands of one line run and what their paths lead to: the shell analysis follows `cd`, and this module keeps what would make that
 * idea wrong.
 *
 * - `CDPATH`: `cd name` searches CDPATH's folders first (bash(1), "cd"), unless the name starts with
 *   `/`, `.` or `..`. Once the line sets CDPATH, such a `cd` goes to a place we can't know. (The bash
 *   tool's shell starts each command with CDPATH unset, so a value exported earlier does not carry
 *   over; see `src/tools/shell.ts`.)
 * - `shopt -s cdable_vars`: `cd name` may go to the folder held in the variable `name`.
 * - Symbolic links made earlier in the same line (`ln -s /outside L && echo x > L/n`): the policy
 *   follows links that exist when it decides, but this one does not exist yet. A path at or under a
 *   link the line makes (or a folder it fills with a copy or an archive that may hold links) is a
 *   place we can't know.
 *
 * Functions (`f() { cd /tmp; }; f`) are followed by the analysis itself: a function's body is walked
 * where it is called, in the caller's directory.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { ShellWord } from './shell-parse.js';

/** The shell's current directory: shared within one shell, copied into subshells. `path` unknown after `cd "$x"`. */
export interface Directory {
  path?: string;
}

/** Options of `cd`/`pushd` that are not its target. */
const CD_OPTIONS = /^-[LPe@]+$/;

export class WorkingDirectory {
  /** CDPATH was set in this line: `cd name` may go anywhere */
  private cdpath = false;
  /** `shopt -s cdable_vars` was run in this line */
  private cdableVars = false;
  /** absolute paths this line makes into symbolic links */
  private readonly links: string[] = [];
  /** absolute paths of folders this line fills with files that may be links (a clone, an extracted archive) */
  private readonly containers: string[] = [];

  /** A variable assignment seen in the line (`CDPATH=/tmp`, `export CDPATH=…`, `CDPATH=/x cd y`). */
  noteAssignment(name: string): void {
    if (name === 'CDPATH') this.cdpath = true;
  }

  /**
   * A command seen in the line. Any mention of CDPATH or cdable_vars in its arguments counts, however
   * it sets them: `export CDPATH=…`, `read CDPATH`, `printf -v CDPATH …`, `declare -n r=CDPATH`,
   * `shopt -s cdable_vars`.
   */
  noteCommand(_name: string, args: readonly string[]): void {
    if (args.some((a) => a.includes('CDPATH'))) this.cdpath = true;
    if (args.some((a) => a.includes('cdable_vars'))) this.cdableVars = true;
  }

  /** A script or nested string about to be walked: a mention of CDPATH anywhere (`for CDPATH in …`, `${CDPATH:=…}`) counts. */
  noteSource(text: string): void {
    if (text.includes('CDPATH')) this.cdpath = true;
    if (text.includes('cdable_vars')) this.cdableVars = true;
  }

  /**
   * Follows `cd`, `pushd` and `popd` in `dir`. `resolve` turns a literal word into an absolute path
   * (against `dir`), `home` is where a bare `cd` goes.
   */
  change(
    name: string,
    args: readonly ShellWord[],
    dir: Directory,
    home: string,
    resolve: (word: ShellWord) => string | undefined,
  ): void {
    if (name === 'popd') dir.path = undefined;
    if (name !== 'cd' && name !== 'pushd') return;
    // `cd -- ..`: the operand follows the end of options
    const end = args.findIndex((a) => a.literal && a.value === '--');
    const target =
      end >= 0 && args.slice(0, end).every((a) => CD_OPTIONS.test(a.value))
        ? args[end + 1]
        : args.find((a) => !CD_OPTIONS.test(a.value));
    if (!target) {
      dir.path = name === 'cd' ? home : undefined;
      return;
    }
    if (!target.literal || target.value === '-' || /^[+-]\d+$/.test(target.value)) {
      dir.path = undefined;
      return;
    }
    const searched = !/^(\/|\.\.?(\/|$))/.test(target.value) && !target.tilde;
    if (searched && (this.cdpath || this.cdableVars)) {
      dir.path = undefined;
      return;
    }
    const path = resolve(target);
    dir.path = path !== undefined && this.underLink(path) ? undefined : path;
  }

  /** A path the line makes into a symbolic link (`ln -s`), or, with `container`, a folder it fills with files that may be links (`tar -x -C d`, `git clone url d`). */
  linkMade(path: string, container = false): void {
    (container ? this.containers : this.links).push(path);
  }

  /** Whether `path` is at or under a link this line made earlier, or inside a folder it filled: where it leads is not known. */
  underLink(path: string): boolean {
    return (
      this.links.some((link) => isAtOrUnder(link, path)) ||
      this.containers.some((dir) => path !== dir && isAtOrUnder(dir, path))
    );
  }
}

function isAtOrUnder(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
