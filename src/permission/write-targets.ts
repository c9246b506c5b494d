/**
 * Which words of a command name the files and folders it writes:
 * a table of programs and, for each, the positions and options that are write targets,
 * with an example per row. The shell analysis resolves the targets against the directory the
 * command runs in; the policy then asks, whatever the rules, for any target outside the project or
 * in a place that cannot be known.
 *
 * Programs not in the table and not read-only (`safe-commands.ts`) are judged by {@link genericTargets}:
 * a path argument or option value that leaves the directory it runs in (absolute, `~`, `../`) is
 * taken as a possible write, since nothing says the program only reads it.
 *
 * Options are read as GNU getopt_long reads them (`getopt.ts`): `cp --target=/x`, `-vt /x` and
 * `-t/x` are all `--target-directory`. Sources: the GNU coreutils and findutils manuals. The readers
 * of archivers (`archive-writes.ts`), sqlite3 (`sqlite-writes.ts`), git (`git-writes.ts`), npm and pip
 * (`package-writes.ts`) live in their own modules with their sources.
 *
 * Pure.
 */
import { posix } from 'node:path';
import { gzipTargets, GZIP_OPTIONS, tarTargets, unzipTargets, zipTargets, zstdTargets } from './archive-writes.js';
import { attachedWord, hasOption, optionValues, parseOptions, type OptionSpec } from './getopt.js';
import { gitTargets } from './git-writes.js';
import { homeWriterPlace, npmTargets, pipTargets } from './package-writes.js';
import { pythonPipWords } from './global-installs.js';
import { parseSed } from './safe-commands.js';
import { readSedScript, SED_OUTPUT_STREAMS } from './sed-script.js';
import type { ShellWord } from './shell-parse.js';
import { sqliteTargets } from './sqlite-writes.js';
import {
  expansionsBeforeEndOfOptions,
  literalWord as word,
  unknownPlace,
  type CommandWrites,
  type WriterContext,
  type WriteTarget,
  type WriteVia,
} from './write-target-types.js';

export type { CommandWrites, WriterContext, WriteTarget, WriteVia } from './write-target-types.js';

/** A row of {@link WRITE_TARGETS}. */
export interface WriterSpec {
  example: string;
  options?: OptionSpec;
  /** how its writes are shown (default `other`) */
  via?: WriteVia;
  /** which positionals are written */
  positionals?: 'all' | 'last' | 'after-first' | 'first' | 'second' | 'none';
  /** options (canonical: `-t`, `--target-directory`) whose value is written */
  targetOptions?: readonly string[];
  /** with one of these the positionals are all sources, not targets (`cp -t dir a b`) */
  positionalsAreSourcesWith?: readonly string[];
  /** targets become links: always, or with one of these options */
  links?: true | readonly string[];
  /** with one of these options (or always) targets are folders that may be filled with links (`cp -r`, `rsync -a`) */
  containers?: true | readonly string[];
  /** the last operand (or `-t DIR`) may be a folder the sources are placed into: `mv x/.opencode.json .` writes `./.opencode.json` */
  placesIntoFolder?: true;
  /** the program writes where its targets are and nowhere else (default true) */
  onlyTargets?: boolean;
  /** when the table's generic reading is not enough */
  custom?: (words: readonly ShellWord[], context: WriterContext) => CommandWrites;
}

// ---- option tables (long options without dashes; those that require a value listed again)

// prettier-ignore
const CP_LONG = ['archive', 'attributes-only', 'backup', 'copy-contents', 'dereference', 'force', 'interactive', 'link', 'no-clobber', 'no-dereference', 'preserve', 'no-preserve', 'parents', 'recursive', 'reflink', 'remove-destination', 'sparse', 'strip-trailing-slashes', 'symbolic-link', 'suffix', 'target-directory', 'no-target-directory', 'update', 'verbose', 'one-file-system', 'context', 'debug', 'keep-directory-symlink', 'help', 'version'];
// prettier-ignore
const MV_LONG = ['backup', 'force', 'interactive', 'no-clobber', 'no-copy', 'strip-trailing-slashes', 'suffix', 'target-directory', 'no-target-directory', 'update', 'verbose', 'context', 'exchange', 'debug', 'help', 'version'];
// prettier-ignore
const LN_LONG = ['backup', 'directory', 'force', 'interactive', 'logical', 'no-dereference', 'physical', 'relative', 'symbolic', 'suffix', 'target-directory', 'no-target-directory', 'verbose', 'help', 'version'];
// prettier-ignore
const INSTALL_LONG = ['backup', 'compare', 'directory', 'group', 'mode', 'owner', 'preserve-timestamps', 'strip', 'strip-program', 'suffix', 'target-directory', 'no-target-directory', 'verbose', 'preserve-context', 'context', 'debug', 'help', 'version'];
// prettier-ignore
const CHOWN_LONG = ['changes', 'dereference', 'no-dereference', 'from', 'no-preserve-root', 'preserve-root', 'quiet', 'silent', 'reference', 'recursive', 'verbose', 'help', 'version'];
const TARGET_DIRECTORY = ['-t', '--target-directory'];
const GZIP_LIKE: WriterSpec = {
  example: 'gzip /tmp/x (replaces /tmp/x with /tmp/x.gz; not -c, -t or -l)',
  options: GZIP_OPTIONS,
  custom: gzipTargets,
};

/**
 * Programs that write files they are given, and where those are. Maps, not the objects, are looked
 * up (a command may be named `constructor`).
 */
// prettier-ignore
export const WRITE_TARGETS: Readonly<Record<string, WriterSpec>> = {
  rm: { example: 'rm -rf build', positionals: 'all', options: { long: ['force', 'interactive', 'one-file-system', 'no-preserve-root', 'preserve-root', 'recursive', 'dir', 'verbose'] } },
  rmdir: { example: 'rmdir -p a/b', positionals: 'all' },
  unlink: { example: 'unlink x', positionals: 'all' },
  shred: { example: 'shred -u secret', positionals: 'all', options: { shortWithValue: 'ns', long: ['force', 'iterations', 'random-source', 'remove', 'size', 'verbose', 'exact', 'zero'], longWithValue: ['iterations', 'random-source', 'size'] } },
  touch: { example: 'touch -d yesterday f', positionals: 'all', options: { shortWithValue: 'drt', long: ['no-create', 'date', 'no-dereference', 'reference', 'time'], longWithValue: ['date', 'reference', 'time'] } },
  mkdir: { example: 'mkdir -p build/x', positionals: 'all', options: { shortWithValue: 'm', long: ['mode', 'parents', 'verbose', 'context'], longWithValue: ['mode'] } },
  mkfifo: { example: 'mkfifo /tmp/p', positionals: 'all', options: { shortWithValue: 'm', long: ['mode', 'context'], longWithValue: ['mode'] } },
  truncate: { example: 'truncate -s 0 log', positionals: 'all', options: { shortWithValue: 'sr', long: ['no-create', 'io-blocks', 'reference', 'size'], longWithValue: ['reference', 'size'] } },
  mv: { placesIntoFolder: true, example: 'mv a b, mv -t /dest a (sources are removed: all are written)', positionals: 'all', targetOptions: TARGET_DIRECTORY, options: { shortWithValue: 'St', long: MV_LONG, longWithValue: ['suffix', 'target-directory'] } },
  cp: { placesIntoFolder: true, example: 'cp a b, cp -t /dest a, cp --target=/dest a (-s and -l make links; -r, -a, -d, -P copy links as links)', positionals: 'last', targetOptions: TARGET_DIRECTORY, positionalsAreSourcesWith: TARGET_DIRECTORY, links: ['-s', '--symbolic-link', '-l', '--link'], containers: ['-r', '-R', '--recursive', '-a', '--archive', '-d', '-P', '--no-dereference'], options: { shortWithValue: 'St', long: CP_LONG, longWithValue: ['no-preserve', 'sparse', 'suffix', 'target-directory'] } },
  ln: { placesIntoFolder: true, example: 'ln -s /outside L (L becomes a link), ln -t /dest a', positionals: 'last', targetOptions: TARGET_DIRECTORY, positionalsAreSourcesWith: TARGET_DIRECTORY, links: true, options: { shortWithValue: 'St', long: LN_LONG, longWithValue: ['suffix', 'target-directory'] } },
  history: { example: 'history -w /tmp/h, history -a (writes $HISTFILE); history and history -c write no file', positionals: 'last', custom: historyTargets },
  install: { placesIntoFolder: true, example: 'install -m 755 bin /usr/local/bin/x, install -t /dest a, install -d a b', positionals: 'last', targetOptions: TARGET_DIRECTORY, positionalsAreSourcesWith: TARGET_DIRECTORY, options: { shortWithValue: 'gmoSt', long: INSTALL_LONG, longWithValue: ['group', 'mode', 'owner', 'strip-program', 'suffix', 'target-directory'] }, custom: installTargets },
  chmod: { example: 'chmod +x script.sh (the mode is skipped)', custom: chmodTargets },
  chown: { example: 'chown user:group f (the owner is skipped)', positionals: 'after-first', options: { long: CHOWN_LONG, longWithValue: ['from', 'reference'] }, custom: ownerTargets },
  chgrp: { example: 'chgrp staff f', positionals: 'after-first', options: { long: CHOWN_LONG, longWithValue: ['from', 'reference'] }, custom: ownerTargets },
  dd: { example: 'dd if=a of=/tmp/b, dd if=a of=~/b (bash expands ~ after the = of such a word)', custom: (words) => ({ onlyTargets: true, targets: words.filter((w) => w.value.startsWith('of=') || !w.literal).map((w) => (w.value.startsWith('of=') ? { word: assignmentValue(w)!, via: 'other' as const } : unknownPlace(`${w.text} (may be of=FILE)`))) }) },
  tee: { example: 'tee -a log (not -, >(cmd) or /dev/null)', custom: teeTargets },
  sed: { example: "sed -i s/a/b/ f, sed --in-pl s/a/b/ f, sed 's/x/y/w /tmp/out' f", custom: sedTargets },
  sort: { example: 'sort -o /tmp/x f, sort --out=/tmp/x f, sort -T /tmp/t f (its temporary files)', via: 'sort -o', targetOptions: ['-o', '--output', '-T', '--temporary-directory'], positionals: 'none', options: { shortWithValue: 'kStTo', long: ['ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'random-source', 'reverse', 'sort', 'version-sort', 'batch-size', 'check', 'compress-program', 'debug', 'files0-from', 'key', 'merge', 'output', 'stable', 'buffer-size', 'field-separator', 'temporary-directory', 'parallel', 'unique', 'zero-terminated'], longWithValue: ['random-source', 'sort', 'batch-size', 'compress-program', 'files0-from', 'key', 'output', 'buffer-size', 'field-separator', 'temporary-directory', 'parallel'] } },
  uniq: { example: 'uniq in /tmp/out (the second file is written)', positionals: 'second', options: { shortWithValue: 'fsw', long: ['count', 'repeated', 'all-repeated', 'skip-fields', 'group', 'ignore-case', 'skip-chars', 'unique', 'zero-terminated', 'check-chars'], longWithValue: ['skip-fields', 'skip-chars', 'check-chars'] } },
  xxd: { example: 'xxd -r dump /tmp/bin (the second file is written)', positionals: 'second', options: { wordWithValue: ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek', '-groupsize', '-offset', '-name'], shortWithValue: 'cglson' } },
  shuf: { example: 'shuf -o /tmp/x f', targetOptions: ['-o', '--output'], positionals: 'none', options: { shortWithValue: 'inro', long: ['echo', 'input-range', 'head-count', 'output', 'random-source', 'repeat', 'zero-terminated'], longWithValue: ['input-range', 'head-count', 'output', 'random-source'] } },
  iconv: { example: 'iconv -f latin1 -t utf8 -o /tmp/x f', targetOptions: ['-o', '--output'], positionals: 'none', options: { shortWithValue: 'fto', long: ['from-code', 'to-code', 'output', 'list', 'silent', 'verbose'], longWithValue: ['from-code', 'to-code', 'output'] } },
  sdiff: { example: 'sdiff -o /tmp/merged a b', targetOptions: ['-o', '--output'], positionals: 'none', options: { shortWithValue: 'ow', longWithValue: ['output', 'width', 'diff-program'] } },
  split: { example: 'split -l 100 big /tmp/part- (the prefix; default x in the working directory)', custom: splitTargets },
  csplit: { example: 'csplit -f /tmp/part f /x/ (the prefix; default xx)', custom: csplitTargets },
  patch: { example: 'patch -o /tmp/out f < p (files named in the patch: relative to -d or the working directory)', targetOptions: ['-o', '--output', '-r', '--reject-file'], positionals: 'first', onlyTargets: false, options: { shortWithValue: 'BDdFiopPrVYzg', long: ['backup', 'prefix', 'ifdef', 'directory', 'fuzz', 'input', 'output', 'strip', 'reject-file', 'basename-prefix', 'suffix', 'version-control', 'get', 'quoting-style', 'reject-format', 'read-only', 'dry-run'], longWithValue: ['prefix', 'ifdef', 'directory', 'fuzz', 'input', 'output', 'strip', 'reject-file', 'basename-prefix', 'suffix', 'version-control', 'get', 'quoting-style', 'reject-format', 'read-only'] }, custom: patchTargets },
  tar: { example: 'tar -xf a.tar -C /tmp, tar -czf /tmp/a.tgz src, tar xf a.tar (into the working directory)', custom: tarTargets },
  zip: { example: 'zip -r /tmp/a.zip src (the archive)', custom: zipTargets },
  unzip: { example: 'unzip a.zip -d /tmp/x (default: the working directory; not -l, -t, -p)', custom: unzipTargets },
  gzip: GZIP_LIKE,
  gunzip: { ...GZIP_LIKE, example: 'gunzip /tmp/x.gz' },
  bzip2: { ...GZIP_LIKE, example: 'bzip2 /tmp/x' },
  bunzip2: { ...GZIP_LIKE, example: 'bunzip2 /tmp/x.bz2' },
  xz: { ...GZIP_LIKE, example: 'xz -d /tmp/x.xz' },
  unxz: { ...GZIP_LIKE, example: 'unxz /tmp/x.xz' },
  zstd: { example: 'zstd f -o /tmp/f.zst', custom: zstdTargets },
  lz4: { example: 'lz4 f /tmp/f.lz4 (the second file)', positionals: 'second' },
  compress: { ...GZIP_LIKE, example: 'compress /tmp/x' },
  mktemp: { example: 'mktemp (a file in $TMPDIR: outside the project), mktemp -p . x.XXX, mktemp -u (writes nothing)', custom: mktempTargets },
  sqlite3: { example: "sqlite3 /tmp/x.db 'create table t(a)', sqlite3 db \"attach '/tmp/y' as y\"", custom: sqliteTargets },
  git: { example: 'git clone url /tmp/x, git init /tmp/x, git worktree add /tmp/w, git archive -o /tmp/a.tar HEAD, git config --global x y', custom: gitTargets },
  npm: { example: 'npm install --prefix /tmp/x, npm ls --cache=/tmp/c, npm install -g x (the global folder), npm config set x y (~/.npmrc)', custom: npmTargets },
  pip: { example: 'pip install --target /tmp/x y, pip install --user x (~/.local), pip download -d /tmp/x y', custom: pipTargets },
  rsync: { example: 'rsync -a src/ /tmp/dest (the last argument; it may receive links)', positionals: 'last', containers: true, onlyTargets: false, options: { shortWithValue: 'BeTfM', longWithValue: ['rsh', 'rsync-path', 'exclude', 'exclude-from', 'include', 'include-from', 'files-from', 'filter', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'backup-dir', 'suffix', 'log-file', 'partial-dir', 'password-file', 'out-format', 'chmod', 'chown', 'block-size', 'timeout', 'port', 'bwlimit', 'max-size', 'min-size', 'max-delete', 'info', 'debug', 'usermap', 'groupmap'] }, targetOptions: ['--log-file', '--backup-dir', '--temp-dir', '--partial-dir'] },
  make: { example: 'make -C /tmp/x (works in /tmp/x), make install DESTDIR=/tmp/x', custom: (words) => directoryOption(words, { shortWithValue: 'CfIjloW', long: ['jobs'], longWithValue: ['directory', 'file', 'makefile', 'include-dir', 'old-file', 'what-if', 'assume-old', 'assume-new', 'new-file'] }, ['-C', '--directory']) },
};

const writers = new Map(Object.entries(WRITE_TARGETS));

/** Names that are one program: `pip3.12` is `pip`. */
function programKey(name: string): string {
  if (/^pip[\d.]*$/.test(name)) return 'pip';
  if (/^sqlite3?$/.test(name)) return 'sqlite3';
  return name;
}

/** Whether the table knows `name`. */
export function knowsWriter(name: string): boolean {
  return writers.has(programKey(name));
}

/**
 * What `name words…` writes. Programs in {@link WRITE_TARGETS} by their row; others by
 * {@link genericTargets} (the caller skips read-only commands, which write nothing).
 */
export function commandWrites(name: string, words: readonly ShellWord[], context: WriterContext): CommandWrites {
  const found = localCommandWrites(name, words, context);
  if (!REMOTE_COPIERS.has(programKey(name))) return found;
  const remote = (w: ShellWord) => w.literal && REMOTE_PATH.test(w.value);
  const targets = found.targets.filter((t) => !remote(t.word));
  // the last remote word (scp has no row of its own, so every remote word is looked at)
  const remoteWord = words.filter(remote).at(-1);
  if (remoteWord) targets.push(unknownPlace(`${remoteWord.text} (on another machine)`));
  return { ...found, targets };
}

/** Programs that copy to another machine: `rsync -a f user@host:/tmp/`, `scp f host:` (a place outside the project). */
const REMOTE_COPIERS = new Set(['rsync', 'scp', 'sftp']);
/** `[user@]host:path` (no `/` before the colon) or `rsync://host/path`. */
const REMOTE_PATH = /^(?:[^/:@]+@)?[^/:]+:|^rsync:\/\//;

function localCommandWrites(name: string, words: readonly ShellWord[], context: WriterContext): CommandWrites {
  // `python3 -m pip install --user x` writes where `pip install --user x` does
  const pip = pythonPipWords(name, words);
  if (pip) return localCommandWrites('pip', pip, context);
  const key = programKey(name);
  const spec = writers.get(key);
  const home = homeWriterPlace(key, words);
  if (!spec)
    return {
      targets: [
        ...genericTargets(words),
        ...(home ? [unknownPlace(`${home} (${name} ${words.map((w) => w.text).join(' ')})`, { outside: true })] : []),
      ],
      onlyTargets: false,
    };
  const found = spec.custom ? spec.custom(words, context) : tableTargets(spec, words);
  if (home)
    found.targets.push(unknownPlace(`${home} (${name} ${words.map((w) => w.text).join(' ')})`, { outside: true }));
  if (OPERANDS_ONLY.has(key)) return found;
  // `cp "$X" a b` with X=-t/tmp, `sort $OPTS f` with OPTS=-o/tmp/x: an expansion may be an option naming a target
  const hidden = expansionsBeforeEndOfOptions(words);
  if (hidden.length)
    found.targets.push(...hidden.map((w) => unknownPlace(`${w.text} (may be an option naming a file to write)`)));
  return found;
}

/**
 * Programs with no option that names a file to write (an expansion among their words can only be an
 * operand, already a target), and those whose row looks at expansions itself (git: only the
 * subcommands with `--output`; `git commit -m "$MSG"` is common and harmless).
 */
// prettier-ignore
const OPERANDS_ONLY = new Set(['rm', 'rmdir', 'unlink', 'shred', 'touch', 'mkdir', 'mkfifo', 'truncate', 'chmod', 'chown', 'chgrp', 'tee', 'git', 'make']);

function tableTargets(spec: WriterSpec, words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, spec.options ?? {});
  const targets: WriterTargetList = new WriterTargetList();
  const links = spec.links === true || (Array.isArray(spec.links) && hasOption(parsed, ...spec.links));
  const containers =
    spec.containers === true || (Array.isArray(spec.containers) && hasOption(parsed, ...spec.containers));
  const targetOptions = optionValues(parsed, ...(spec.targetOptions ?? []));
  const via = spec.via ?? 'other';
  for (const value of targetOptions) targets.add(value, via, links);
  const sourcesOnly = spec.positionalsAreSourcesWith && hasOption(parsed, ...spec.positionalsAreSourcesWith);
  if (!sourcesOnly) {
    for (const target of pickPositionals(parsed.positionals, spec.positionals ?? 'all'))
      targets.add(target, via, links);
  }
  for (const unknown of parsed.unknownWords) targets.add(unknown, via, links);
  if (spec.placesIntoFolder) {
    // a destination that is certainly a folder gets each source by its own name (the folder alone would hide it)
    const last = sourcesOnly ? undefined : parsed.positionals.at(-1);
    const folders = [...targetOptions, ...(last && parsed.positionals.length > 1 ? [last] : [])].filter((w) =>
      CERTAINLY_A_FOLDER.test(w.value),
    );
    const sources = sourcesOnly ? parsed.positionals : parsed.positionals.slice(0, -1);
    for (const folder of folders) {
      for (const source of sources) {
        if (!folder.literal || !source.literal) continue;
        const name = posix.basename(source.value);
        if (name === '' || name === '.' || name === '..') continue;
        const value = posix.join(folder.value, name);
        targets.add({ ...folder, text: value, value }, via, links);
      }
    }
  }
  if (containers) for (const target of targets.list) if (!target.link) target.container = true;
  return { targets: targets.list, onlyTargets: spec.onlyTargets ?? true };
}

/** `.`, `..`, and a path ending in `/`, `/.` or `/..`: a folder, whatever the disk holds. */
const CERTAINLY_A_FOLDER = /^\.\.?$|\/$|\/\.\.?$/;

class WriterTargetList {
  readonly list: WriteTarget[] = [];
  add(target: ShellWord, via: WriteVia, link = false, within?: ShellWord[]): void {
    this.list.push({ word: target, via, ...(link && { link }), ...(within?.length && { within }) });
  }
}

function pickPositionals(positionals: ShellWord[], which: NonNullable<WriterSpec['positionals']>): ShellWord[] {
  switch (which) {
    case 'all':
      return positionals;
    case 'last':
      return positionals.slice(-1);
    case 'after-first':
      return positionals.slice(1);
    case 'first':
      return positionals.slice(0, 1);
    case 'second':
      return positionals.slice(1, 2);
    case 'none':
      return [];
  }
}

// ---- generic: programs the table does not know

const URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** A value that starts with an expansion followed by `/` (`$HOME/x`, `${D}/x`, `$(pwd)/../x`): a path we can't place. */
const EXPANDED_PATH = /^(\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^)]*\)|`[^`]*`)\/|^\$\{?(HOME|TMPDIR|OLDPWD)\}?$/;

/**
 * The words of a program we know nothing about that may name a place outside the directory it runs
 * in: absolute paths, `~`, paths that climb out with `..`, values of options (`--out=/x`, `-o/x`),
 * and words that start with an expansion followed by `/` (`"$HOME/.bashrc"`). URLs are not paths.
 * Plain relative words (`test`, `src/a.ts`) stay where the program runs and are not listed.
 */
export function genericTargets(words: readonly ShellWord[]): WriteTarget[] {
  const targets: WriteTarget[] = [];
  for (const w of words) {
    let candidate: ShellWord = w;
    const assigned = assignmentValue(w);
    if (assigned) candidate = assigned;
    else if (w.literal && w.value.startsWith('--') && w.value.includes('='))
      candidate = attachedWord(w, w.value.slice(w.value.indexOf('=') + 1));
    else if (w.literal && /^-[A-Za-z](\/|~\/)/.test(w.value)) candidate = attachedWord(w, w.value.slice(2));
    if (leavesDirectory(candidate, w)) targets.push({ word: candidate, via: 'argument' });
  }
  return targets;
}

/**
 * The value of an argument shaped like an assignment (`PREFIX=~/x`, `of=/tmp/b`), as bash passes it:
 * outside POSIX mode bash expands an unquoted `~` right after the `=` (or after a `:`) of such a word
 * (bash(1), "Tilde Expansion"), so `make PREFIX=~/x` gets the home folder. Undefined for other words.
 */
export function assignmentValue(w: ShellWord): ShellWord | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value);
  if (!match) return undefined;
  const value = attachedWord(w, w.value.slice(match[0].length));
  const tilde = w.literal && /^[A-Za-z_][A-Za-z0-9_]*=~(\/|$)/.test(w.text);
  return tilde ? { ...value, tilde: true } : value;
}

function leavesDirectory(candidate: ShellWord, original: ShellWord): boolean {
  const value = candidate.value;
  if (URL.test(value) || original.processSubstitution) return false;
  if (!candidate.literal)
    return value.startsWith('/') || value.startsWith('~') || EXPANDED_PATH.test(value) || /^\.\.(\/|$)/.test(value);
  if (candidate.tilde) return true; // ~/x: the home folder
  return value.startsWith('/') || posix.normalize(value).split('/')[0] === '..';
}

// ---- custom readers

/** bash's history builtin: `-a` and `-w` write the file named (or $HISTFILE); other forms write no file. */
function historyTargets(words: readonly ShellWord[]): CommandWrites {
  const options = words
    .filter((w) => /^-[A-Za-z]+$/.test(w.value))
    .map((w) => w.value)
    .join('');
  if (!/[aw]/.test(options)) return { onlyTargets: true, targets: [] };
  const file = words.find((w) => !/^-/.test(w.value));
  return { onlyTargets: true, targets: [file ? { word: file, via: 'other' } : unknownPlace('$HISTFILE (history)')] };
}

function installTargets(words: readonly ShellWord[]): CommandWrites {
  const spec = WRITE_TARGETS.install!;
  const parsed = parseOptions(words, spec.options!);
  if (hasOption(parsed, '-d', '--directory')) {
    return {
      onlyTargets: true,
      targets: [...parsed.positionals, ...parsed.unknownWords].map((w) => ({ word: w, via: 'other' })),
    };
  }
  return tableTargets({ ...spec, custom: undefined }, words);
}

const CHMOD_MODE = /^([0-7]{1,4}|[ugoa]*([-+=][rwxXstugo]*)+(,[ugoa]*([-+=][rwxXstugo]*)+)*)$/;

function chmodTargets(words: readonly ShellWord[]): CommandWrites {
  // chmod -x f: the mode looks like an option; the first word that is a mode is the mode
  const mode = words.findIndex((w) => CHMOD_MODE.test(w.value));
  const rest = words.filter((_, i) => i !== mode);
  const parsed = parseOptions(rest, {
    long: ['changes', 'no-preserve-root', 'preserve-root', 'quiet', 'silent', 'verbose', 'reference', 'recursive'],
    longWithValue: ['reference'],
  });
  return {
    onlyTargets: true,
    targets: [...parsed.positionals, ...parsed.unknownWords].map((w) => ({ word: w, via: 'other' })),
  };
}

function ownerTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, WRITE_TARGETS.chown!.options!);
  const owner = hasOption(parsed, '--reference') ? 0 : 1;
  return {
    onlyTargets: true,
    targets: [...parsed.positionals.slice(owner), ...parsed.unknownWords].map((w) => ({ word: w, via: 'other' })),
  };
}

function teeTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, { long: ['append', 'ignore-interrupts', 'output-error'] });
  const targets = parsed.positionals.filter(
    (w) =>
      !w.processSubstitution &&
      w.value !== '-' &&
      !(w.literal && ['/dev/null', '/dev/stdout', '/dev/stderr'].includes(w.value)),
  );
  return { onlyTargets: true, targets: targets.map((w) => ({ word: w, via: 'tee' })) };
}

function sedTargets(words: readonly ShellWord[]): CommandWrites {
  const sed = parseSed(words.map((w) => w.value));
  const targets: WriteTarget[] = [];
  if (sed.inPlace) for (const index of sed.fileIndexes) targets.push({ word: words[index]!, via: 'sed -i' });
  const script = readSedScript(sed.scripts.join('\n'));
  for (const file of script.writes) {
    if (!SED_OUTPUT_STREAMS.has(file)) targets.push({ word: word(file), via: 'sed w' });
  }
  const fileWords = new Set(sed.fileIndexes);
  const hidden = words.some((w, i) => !w.literal && !fileWords.has(i));
  if (hidden || (!script.valid && /[wW]/.test(sed.scripts.join('\n'))))
    targets.push({ ...unknownPlace('(a file the sed script may write)'), via: 'sed w' });
  if (sed.opaque && sed.scriptFiles)
    targets.push({ ...unknownPlace('(a file a sed script file may write)'), via: 'sed w' });
  const runsCode = script.executes ? 'sed runs a shell command from its script (the e command or flag)' : undefined;
  return { onlyTargets: true, targets, ...(runsCode && { runsCode }) };
}

function splitTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, {
    shortWithValue: 'abClnt',
    long: [
      'suffix-length',
      'additional-suffix',
      'bytes',
      'line-bytes',
      'lines',
      'number',
      'separator',
      'numeric-suffixes',
      'hex-suffixes',
      'elide-empty-files',
      'filter',
      'unbuffered',
      'verbose',
    ],
    longWithValue: ['suffix-length', 'additional-suffix', 'bytes', 'line-bytes', 'lines', 'number', 'separator'],
  });
  const filter = parsed.options.find((o) => o.name === '--filter');
  if (filter)
    return {
      onlyTargets: true,
      targets: [],
      runsCode: `split --filter runs a shell command: ${filter.value?.value ?? ''}`,
    };
  const prefix = parsed.positionals[1] ?? word('x');
  return {
    onlyTargets: true,
    targets: [{ word: prefix, via: 'other' }, ...parsed.unknownWords.map((w) => ({ word: w, via: 'other' as const }))],
  };
}

function csplitTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, {
    shortWithValue: 'bfn',
    long: [
      'suffix-format',
      'prefix',
      'keep-files',
      'suppress-matched',
      'digits',
      'quiet',
      'silent',
      'elide-empty-files',
    ],
    longWithValue: ['suffix-format', 'prefix', 'digits'],
  });
  const prefix = optionValues(parsed, '-f', '--prefix').at(-1) ?? word('xx');
  return { onlyTargets: true, targets: [{ word: prefix, via: 'other' }] };
}

function patchTargets(words: readonly ShellWord[]): CommandWrites {
  const spec = WRITE_TARGETS.patch!;
  const parsed = parseOptions(words, spec.options!);
  const targets = optionValues(parsed, '-o', '--output', '-r', '--reject-file').map((w) => ({
    word: w,
    via: 'other' as const,
  }));
  if (!hasOption(parsed, '-o', '--output'))
    targets.push(...parsed.positionals.slice(0, 1).map((w) => ({ word: w, via: 'other' as const })));
  const directory = optionValues(parsed, '-d', '--directory');
  return { onlyTargets: false, targets, ...(directory.length && { directory }) };
}

function mktempTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, {
    shortWithValue: 'p',
    long: ['directory', 'dry-run', 'quiet', 'suffix', 'tmpdir'],
    longWithValue: ['suffix'],
  });
  if (hasOption(parsed, '-u', '--dry-run')) return { onlyTargets: true, targets: [] };
  const template = parsed.positionals[0];
  const directory = parsed.options.filter((o) => o.name === '-p' || o.name === '--tmpdir').at(-1);
  const inTmp =
    hasOption(parsed, '-t') || (directory !== undefined && directory.value === undefined) || (!template && !directory);
  if (inTmp || (template && !template.value.includes('/') && !directory)) {
    return { onlyTargets: true, targets: [unknownPlace('$TMPDIR (mktemp)')] };
  }
  const name = template ?? word('tmp.XXXXXXXXXX');
  return {
    onlyTargets: true,
    targets: [{ word: name, via: 'other', ...(directory?.value && { within: [directory.value] }) }],
  };
}

function directoryOption(words: readonly ShellWord[], spec: OptionSpec, names: string[]): CommandWrites {
  const parsed = parseOptions(words, spec);
  const directory = optionValues(parsed, ...names);
  // its other words are judged as any program's: `make install PREFIX=~/x`
  return { onlyTargets: false, targets: genericTargets(parsed.positionals), ...(directory.length && { directory }) };
}
