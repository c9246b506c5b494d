/**
 * The findings of one shell analysis (`shell-analysis.ts`) as its walk collects them: the simple
 * commands, the writes, the banned command, whether all is read-only, the programs run; and the files
 * a command writes — redirection targets, `find -delete`, awk's `print >`, and the table of
 * `write-targets.ts`. The base of the walk's layers: `shell-record.ts` records one command on it,
 * `shell-unwrap.ts` sees through wrappers, `shell-analysis.ts` walks the parsed line.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { bannedCommand } from './banned-commands.js';
import { WorkingDirectory } from './working-directory.js';
import { commandWrites } from './write-targets.js';
import { awkProgram, opaqueReason } from './opaque-code.js';
import { FIND_WRITING_ACTIONS } from './safe-commands.js';
import type { ShellWord } from './shell-parse.js';
import type { ProgramUse, ShellWrite, SimpleCommand } from './shell-analysis-types.js';
import { basename, expandTilde, isWithin, plainWord, type Directory } from './shell-scope.js';

/** Builtins that change only the shell's own state, never a file: no write is assumed for them. */
const SHELL_STATE_BUILTINS = new Set([
  'export',
  'unset',
  'declare',
  'typeset',
  'local',
  'readonly',
  'alias',
  'unalias',
  'set',
  'shopt',
  'hash',
  'let',
  'read',
  'mapfile',
  'readarray',
  'ulimit',
  'umask',
  'wait',
  'jobs',
  'fg',
  'bg',
  'disown',
  'kill',
  'exit',
  'return',
  'break',
  'continue',
  'shift',
  'getopts',
  'enable',
  'complete',
  'compgen',
  'compopt',
  'bind',
  'suspend',
  'times',
  'caller',
  'logout',
  'cd',
  'pushd',
  'popd',
  'dirs',
  'help',
]);

/**
 * What one analysis has found so far, and the write-collecting steps that add to it. `home` expands
 * `~`; `startDir` is the directory the line starts in (git or writes elsewhere are judged against it).
 */
export class ShellFindings {
  protected readonly commands: SimpleCommand[] = [];
  protected readonly writes: ShellWrite[] = [];
  protected unanalysable?: string;
  protected banned?: { name: string; reason: string };
  /** cleared by any command that is not read-only, and by bare assignments (`PATH=…` persists in the shell) */
  protected everyCommandReadOnly = true;

  protected readonly programs: ProgramUse[] = [];
  /** CDPATH, cdable_vars and links made by this line: what makes `cd` and paths lead elsewhere */
  protected readonly directory = new WorkingDirectory();
  /** programs that may write anywhere in the directory the line starts in */
  protected readonly startDirectoryWriters = new Set<string>();
  /** what reaches beyond the project without naming a file there (a system change, `/dev/tcp`): always asks */
  protected readonly alwaysAsks: string[] = [];

  constructor(
    protected readonly home: string,
    /** the directory the line starts in: git run elsewhere reads another repository's configuration */
    protected readonly startDir: string,
  ) {}

  /**
   * A write into a repository's `.git` folder (`config`, `hooks/`) is code the next git command runs
   * (`echo '[core] fsmonitor = rm x' >> .git/config`, `cp x.sh .git/hooks/pre-commit`): opaque.
   */
  protected gitMetadataWrites(): void {
    for (const write of [...this.writes]) {
      if (write.path === undefined || !isWithin(this.startDir, write.path)) continue;
      if (!/(^|\/)\.git(\/|$)/.test(relative(this.startDir, write.path))) continue;
      const text = `${write.via} ${write.target}`;
      this.recordOpaque(
        '.git',
        text,
        opaqueReason(`writes ${write.target} (git's configuration and hooks run programs)`),
        [],
      );
    }
  }

  /** Records a part that is opaque code on its own: `[[ … ]]`, `(( ))`, `PATH=./bin`, a program named in input. */
  protected recordOpaque(name: string, text: string, reason: string, wrappers: readonly string[]): void {
    this.commands.push({ name, args: [], text, wrappers: [...wrappers], readOnly: false, opaque: reason });
    this.everyCommandReadOnly = false;
  }

  fail(reason: string): void {
    this.unanalysable ??= reason;
    this.everyCommandReadOnly = false;
  }

  /**
   * When the line does not parse, the original's check still applies: its first word (after
   * `NAME=value` prefixes and a path) against the banned list, so `curl 'x` is still refused.
   */
  protected bannedFirstWord(source: string): void {
    const words = source.trim().split(/\s+/);
    const first = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? '';
    this.checkBanned(basename(first.replace(/['"\\]/g, '')));
  }

  protected checkBanned(name: string): void {
    const entry = bannedCommand(name);
    if (entry && !this.banned) this.banned = { name: entry.name, reason: entry.reason };
  }

  /** awk's `print > "file"` and `gawk -i inplace` are writes. */
  protected awkWrites(awk: ReturnType<typeof awkProgram>, dir: Directory): void {
    for (const target of awk.writes) {
      if (target === undefined) this.writes.push({ target: '(a file awk names when it runs)', via: 'other' });
      else this.write(plainWord(target), dir, 'other');
    }
    for (const file of awk.inPlaceFiles) this.write({ ...plainWord(file.value), literal: file.literal }, dir, 'other');
  }

  /**
   * The files a command writes, by the table of `write-targets.ts` (`cp -t DIR`, `sed --in-pl`,
   * `tar -C DIR`, `git clone URL DIR`, …), or for a program it does not know, its path arguments that
   * leave its directory; and the directory itself when the program may write anywhere in it and runs
   * somewhere else than where the line starts (`cd /tmp && make`, `make -C /tmp`, after `cd "$x"`).
   * A read-only command writes nothing, except `tee`.
   */
  protected commandWrites(name: string, words: ShellWord[], dir: Directory, readOnly: boolean): void {
    if (name === 'find') return this.findWrites(words, dir);
    if (readOnly && name !== 'tee') return;
    if (SHELL_STATE_BUILTINS.has(name)) return;
    const found = commandWrites(name, words, { home: this.home });
    let where: Directory = dir;
    for (const d of found.directory ?? [])
      where = { path: d.literal && where.path !== undefined ? this.resolvePath(d, where) : undefined };
    for (const target of found.targets) {
      let base = where;
      for (const d of target.within ?? [])
        base = { path: d.literal && base.path !== undefined ? this.resolvePath(d, base) : undefined };
      if (target.unknown) {
        this.writes.push({
          target: target.word.text,
          via: target.via,
          ...(target.outside && { outsideProject: true }),
        });
        continue;
      }
      const path = this.write(target.word, base, target.via);
      if (path !== undefined && (target.link || target.container)) this.directory.linkMade(path, target.container);
    }
    if (!readOnly && !found.onlyTargets && where.path === this.startDir) this.startDirectoryWriters.add(name);
    if (!readOnly && !found.onlyTargets && (where.path === undefined || where.path !== this.startDir)) {
      this.writes.push({
        target: where.path ?? '(the directory it runs in)',
        ...(where.path !== undefined && { path: where.path }),
        via: 'working directory',
      });
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
    while (first < words.length && /^-([HLP]|O\d*)$|^-D$/.test(words[first]!.value))
      first += words[first]!.value === '-D' ? 2 : 1;
    const rest = words.slice(first);
    const firstExpression = rest.findIndex((w) => /^[-(!)]/.test(w.value) && w.value !== '-');
    const starts = rest.slice(0, firstExpression === -1 ? rest.length : firstExpression);
    for (let i = 0; i < rest.length; i++) {
      const action = rest[i]!.value;
      const previous = rest[i - 1];
      const isValue =
        previous !== undefined &&
        previous.literal &&
        /^-/.test(previous.value) &&
        !FIND_WRITING_ACTIONS.includes(previous.value) &&
        previous.value !== '-delete';
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
  protected write(target: ShellWord, dir: Directory, via: ShellWrite['via']): string | undefined {
    const resolved = target.literal ? this.resolvePath(target, dir) : undefined;
    const linked = resolved !== undefined && this.directory.underLink(resolved);
    const path = linked ? undefined : resolved;
    const text = linked
      ? `${target.text} (under a link, clone, checkout or archive made earlier in this line)`
      : target.text;
    this.writes.push({ target: text, ...(path !== undefined && { path }), via });
    return path;
  }

  protected resolvePath(word: ShellWord, dir: Directory): string | undefined {
    const value = expandTilde(word, this.home);
    if (isAbsolute(value)) return resolve(value);
    return dir.path === undefined ? undefined : resolve(dir.path, value);
  }
}
