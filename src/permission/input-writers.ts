/**
 * Writers whose targets come from their input or from a folder operand: an archive's member names, a
 * patch's file names, another commit's tree, the contents of a folder copied with `cp -a dir/. .`.
 * The analysis sees the command but not the names it will write, and those may be the files that
 * decide what runs (`.opencode.json`, `.opencode/plugins/…`, `.git/hooks/…` through a link). So such a
 * command is treated like code the analysis cannot see (`policy.ts`): it asks unless an `allow` rule
 * names its program (`"tar *": "allow"`), and never runs by the read-only list or a `*` rule.
 *
 * One row a program (or git subcommand), with the forms that write and an example. Pure.
 * Sources: tar(1), unzip(1), 7z(1), cpio(1), ar(1), patch(1), gzip(1), xz(1), zstd(1), cp(1),
 * rsync(1), git-restore(1), git-apply(1), git-merge(1), git-stash(1), git-checkout(1), git-reset(1).
 */
import { splitLong } from './getopt.js';
import type { CommandArg } from './safe-command-types.js';

/** One writer: when it writes names taken from its input, and an example. */
export interface InputNamedWriter {
  /** the program, or `git <subcommand>` */
  command: string;
  example: string;
  /** whether these arguments (after the program, or after the git subcommand) write such names; default: always */
  writes?: (args: readonly string[]) => boolean;
}

/** Short options in any cluster before `--`: `-xzf` holds `x`. */
function hasShort(args: readonly string[], letters: string): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (/^-[A-Za-z0-9]+$/.test(arg) && [...arg.slice(1)].some((c) => letters.includes(c))) return true;
  }
  return false;
}

/** A long option (or a GNU abbreviation of it) before `--`. */
function hasLong(args: readonly string[], names: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    const [flag] = splitLong(arg);
    if (flag.startsWith('--') && flag.length > 3 && names.some((n) => `--${n}`.startsWith(flag))) return true;
  }
  return false;
}

/** tar and bsdtar extract with `x` (also old-style `xf a.tar`) or `--extract`/`--get`. */
function tarExtracts(args: readonly string[]): boolean {
  const first = args[0] ?? '';
  if (/^[A-Za-z]+$/.test(first) && first.includes('x')) return true;
  return hasShort(args, 'x') || hasLong(args, ['extract', 'get']);
}

/** Decompressors: `-d`/`--decompress` without `-c`/`--stdout` (which writes only to standard output), `-t` or `-l`. */
function decompressesToFile(args: readonly string[]): boolean {
  const decompress = hasShort(args, 'd') || hasLong(args, ['decompress', 'uncompress']);
  return decompress && !toStandardOutput(args);
}

function toStandardOutput(args: readonly string[]): boolean {
  return hasShort(args, 'ctl') || hasLong(args, ['stdout', 'to-stdout', 'test', 'list']);
}

/** A source operand whose contents are copied, not the folder itself: `dir/.`, `dir/`, `.`, or one only known when it runs. */
const FOLDER_CONTENTS = /(^|\/)\.?$|\/\.\/?$/;

/**
 * A destination that may be the project's own folder, where `.opencode.json`, `.opencode/` and `.git/`
 * live: `.`, `..`, an absolute path, or one only known when it runs (a subfolder such as `backup/` is not).
 */
const MAY_BE_PROJECT_ROOT = /^(\.\.?\/?|(\.\.\/)+\.?\.?\/?|\/.*|.*\$.*|.*\/\.\.?\/?)$/;

/** `cp -r`/`-a` and `rsync -r`/`-a` copying a folder's contents into what may be the project's folder (`cp -a dir/. .`, `rsync -a src/ .`). */
function copiesFolderContents(args: readonly string[], recursive: string, long: readonly string[]): boolean {
  const operands = args.filter((a) => !a.startsWith('-'));
  const destination = operands.at(-1) ?? '';
  if (!MAY_BE_PROJECT_ROOT.test(destination)) return false;
  const sources = operands.slice(0, -1);
  if (sources.some(namesFromFolder)) return true;
  return (hasShort(args, recursive) || hasLong(args, long)) && sources.some((a) => FOLDER_CONTENTS.test(a));
}

/** A source whose names the folder decides: an expansion, or a glob that matches dot names (`dir/.*`, `dir/.[!.]*`). */
function namesFromFolder(source: string): boolean {
  const name = source.slice(source.lastIndexOf('/') + 1);
  return /[$`]/.test(source) || (/^(\.|\[\.)/.test(name) && /[*?[]/.test(name));
}

/** `git checkout`/`switch` with an operand besides a new branch's name: another commit or paths to check out. */
function namesACommitOrPath(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (['-b', '-B', '-c', '-C', '--orphan'].includes(arg))
      i++; // the new branch's name
    else if (!arg.startsWith('-')) return true;
  }
  return false;
}

export const INPUT_NAMED_WRITERS: readonly InputNamedWriter[] = [
  {
    command: 'tar',
    example: 'tar -xf a.tar (its members may be .opencode.json or a link into .git)',
    writes: tarExtracts,
  },
  { command: 'bsdtar', example: 'bsdtar -xf a.zip', writes: tarExtracts },
  {
    command: 'unzip',
    example: 'unzip a.zip (not -l, -v, -Z, -t, -p or -c, which only list or print)',
    writes: (a) =>
      !hasShort(
        a.filter((x) => x.startsWith('-')),
        'lvZtpc',
      ),
  },
  { command: '7z', example: '7z x a.7z', writes: (a) => a[0] === 'x' || a[0] === 'e' },
  { command: '7za', example: '7za x a.7z', writes: (a) => a[0] === 'x' || a[0] === 'e' },
  { command: '7zr', example: '7zr x a.7z', writes: (a) => a[0] === 'x' || a[0] === 'e' },
  { command: 'unrar', example: 'unrar x a.rar', writes: (a) => a[0] === 'x' || a[0] === 'e' },
  { command: 'cpio', example: 'cpio -id < a.cpio', writes: (a) => hasShort(a, 'i') || hasLong(a, ['extract']) },
  { command: 'ar', example: 'ar x lib.a', writes: (a) => /^-?[a-zA-Z]*x/.test(a[0] ?? '') },
  { command: 'jar', example: 'jar xf a.jar', writes: (a) => /^-?[a-zA-Z]*x/.test(a[0] ?? '') },
  { command: 'pax', example: 'pax -r < a.pax', writes: (a) => hasShort(a, 'r') },
  {
    command: 'dpkg-deb',
    example: 'dpkg-deb -x a.deb .',
    writes: (a) => hasShort(a, 'xXR') || hasLong(a, ['extract', 'vextract', 'raw-extract']),
  },
  { command: 'unar', example: 'unar a.rar' },
  { command: 'cabextract', example: 'cabextract a.cab', writes: (a) => !hasShort(a, 'lt') },
  {
    command: 'uudecode',
    example: 'uudecode f.uu (writes the file the input names; not -o)',
    writes: (a) => !hasShort(a, 'o'),
  },
  { command: 'brotli', example: 'brotli -d f.br', writes: decompressesToFile },
  { command: 'pigz', example: 'pigz -d f.gz', writes: decompressesToFile },
  { command: 'unpigz', example: 'unpigz f.gz', writes: (a) => !toStandardOutput(a) },
  { command: 'lzip', example: 'lzip -d f.lz', writes: decompressesToFile },
  {
    command: 'patch',
    example: 'patch -p1 < p.diff (the patch names the files; not --dry-run)',
    writes: (a) => !hasLong(a, ['dry-run']),
  },
  { command: 'gzip', example: 'gzip -d -N f.gz (-N restores the name stored in the file)', writes: decompressesToFile },
  { command: 'gunzip', example: 'gunzip f.gz (not -c, -t or -l)', writes: (a) => !toStandardOutput(a) },
  { command: 'bzip2', example: 'bzip2 -d f.bz2', writes: decompressesToFile },
  { command: 'bunzip2', example: 'bunzip2 f.bz2', writes: (a) => !toStandardOutput(a) },
  { command: 'xz', example: 'xz -d f.xz', writes: decompressesToFile },
  { command: 'unxz', example: 'unxz f.xz', writes: (a) => !toStandardOutput(a) },
  { command: 'lzma', example: 'lzma -d f.lzma', writes: decompressesToFile },
  { command: 'unlzma', example: 'unlzma f.lzma', writes: (a) => !toStandardOutput(a) },
  { command: 'zstd', example: 'zstd -d f.zst', writes: decompressesToFile },
  { command: 'unzstd', example: 'unzstd f.zst', writes: (a) => !toStandardOutput(a) },
  { command: 'lz4', example: 'lz4 -d f.lz4', writes: decompressesToFile },
  { command: 'unlz4', example: 'unlz4 f.lz4', writes: (a) => !toStandardOutput(a) },
  { command: 'uncompress', example: 'uncompress f.Z', writes: (a) => !toStandardOutput(a) },
  {
    command: 'cp',
    example: 'cp -a dir/. ., cp dir/.* . (the folder decides the names written)',
    writes: (a) => copiesFolderContents(a, 'rRa', ['recursive', 'archive']),
  },
  {
    command: 'rsync',
    example: 'rsync -a src/ . (the folder decides the names written)',
    writes: (a) => copiesFolderContents(a, 'ra', ['recursive', 'archive']),
  },
  {
    command: 'mv',
    example: 'mv dir/.* . (the folder decides the names written)',
    writes: (a) => copiesFolderContents(a, '', []),
  },
  // git: the files come from another commit, a stash, a patch or a branch
  {
    command: 'git restore',
    example: 'git restore --source=HEAD~3 . (without --source it restores from the index)',
    writes: (a) => hasShort(a, 's') || hasLong(a, ['source']),
  },
  {
    command: 'git checkout',
    example:
      'git checkout other -- . , git checkout branch (not `git checkout -b new`, which starts a branch where HEAD is)',
    writes: namesACommitOrPath,
  },
  { command: 'git switch', example: 'git switch branch (not `git switch -c new`)', writes: namesACommitOrPath },
  {
    command: 'git reset',
    example: 'git reset --hard HEAD~3 (not a reset of the index alone)',
    writes: (a) => hasLong(a, ['hard', 'merge', 'keep']),
  },
  { command: 'git merge', example: 'git merge feature' },
  { command: 'git pull', example: 'git pull' },
  { command: 'git rebase', example: 'git rebase main' },
  { command: 'git cherry-pick', example: 'git cherry-pick abc123' },
  { command: 'git revert', example: 'git revert abc123' },
  { command: 'git am', example: 'git am < p.mbox' },
  {
    command: 'git apply',
    example: 'git apply p.diff (not --check, --stat, --numstat or --summary alone)',
    writes: (a) => hasLong(a, ['apply']) || !hasLong(a, ['check', 'stat', 'numstat', 'summary']),
  },
  {
    command: 'git stash',
    example: 'git stash pop, git stash apply, git stash branch b',
    writes: (a) => ['pop', 'apply', 'branch'].includes(a.find((x) => !x.startsWith('-')) ?? ''),
  },
  { command: 'git read-tree', example: 'git read-tree -u --reset other', writes: (a) => hasShort(a, 'u') },
  { command: 'git checkout-index', example: 'git checkout-index -a -f' },
  { command: 'git bisect', example: 'git bisect good (checks out another commit)' },
];

const byCommand = new Map(INPUT_NAMED_WRITERS.map((w) => [w.command, w]));

/**
 * Why `name args…` writes files whose names come from its input or a folder (see the module's
 * comment), or undefined. For git, `subcommand` and its arguments are given apart from git's own
 * options.
 */
export function inputNamedWrite(name: string, args: readonly CommandArg[], written: string): string | undefined {
  const row = byCommand.get(name);
  if (!row) return undefined;
  if (row.writes && !row.writes(args.map((a) => a.value))) return undefined;
  return `${short(written)}: writes files whose names come from its input or a folder, which may be opencode's or git's own; only a rule that names ${name.split(' ')[0]} allows it`;
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
