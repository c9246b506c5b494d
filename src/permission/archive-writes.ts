/**
 * What archivers and compressors write, for `write-targets.ts`: tar's archive (`-f`) when it creates
 * one and the folder it extracts into (`-C`, else the working directory); zip's archive, `-O` and log;
 * unzip's `-d` folder; gzip's kin replace the files they are given; zstd's `-o` and output folders.
 * Options that make them run a program (`tar -I`, `--to-command`, `zip -TT`) are reported as running
 * code. Sources: the GNU tar and gzip manuals, Info-ZIP's zip(1)/unzip(1), zstd(1). Pure.
 */
import { attachedWord, hasOption, optionValues, parseOptions, type OptionSpec } from './getopt.js';
import type { ShellWord } from './shell-parse.js';
import { literalWord as word, unknownPlace, type CommandWrites, type WriteTarget } from './write-target-types.js';

/** The options gzip, bzip2, xz and compress share (gzip(1)). */
// prettier-ignore
export const GZIP_OPTIONS: OptionSpec = { shortWithValue: 'S', long: ['stdout', 'to-stdout', 'decompress', 'uncompress', 'force', 'keep', 'list', 'name', 'no-name', 'quiet', 'recursive', 'suffix', 'test', 'verbose', 'fast', 'best', 'rsyncable', 'synchronous'], longWithValue: ['suffix'] };

/** gzip and its kin replace each file named with the packed (or unpacked) one; not with `-c`, `-t` or `-l`. */
export function gzipTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, GZIP_OPTIONS);
  const toStdout = parsed.options.some((o) =>
    ['-c', '--stdout', '--to-stdout', '-t', '--test', '-l', '--list'].includes(o.name),
  );
  return {
    onlyTargets: true,
    targets: toStdout
      ? []
      : [...parsed.positionals, ...parsed.unknownWords].map((w) => ({ word: w, via: 'other' as const })),
  };
}

/** The options of tar that take a value (short, in GNU tar 1.35's `--help`). */
const TAR_SHORT_WITH_VALUE = 'bCfFgHIKLNTVX';
// prettier-ignore
const TAR_LONG = ['append', 'catenate', 'concatenate', 'create', 'delete', 'diff', 'compare', 'extract', 'get', 'list', 'update', 'test-label', 'file', 'directory', 'to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'checkpoint-action', 'listed-incremental', 'index-file', 'absolute-names', 'files-from', 'exclude-from', 'exclude', 'transform', 'xform', 'gzip', 'gunzip', 'bzip2', 'xz', 'zstd', 'verbose', 'owner', 'group', 'mode', 'mtime', 'strip-components', 'blocking-factor', 'format', 'label', 'null', 'auto-compress', 'keep-old-files', 'overwrite', 'backup', 'suffix', 'no-same-owner', 'preserve-permissions', 'same-permissions', 'one-file-system', 'totals', 'wildcards', 'anchored'];
// prettier-ignore
const TAR_LONG_WITH_VALUE = ['file', 'directory', 'to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'listed-incremental', 'index-file', 'files-from', 'exclude-from', 'exclude', 'transform', 'xform', 'owner', 'group', 'mode', 'mtime', 'strip-components', 'blocking-factor', 'format', 'label', 'suffix'];
const TAR_CODE_OPTIONS = [
  '-I',
  '--use-compress-program',
  '--to-command',
  '-F',
  '--info-script',
  '--new-volume-script',
  '--rsh-command',
];

/** See the `tar` row of the write-target table. */
export function tarTargets(words: readonly ShellWord[]): CommandWrites {
  // old style: `tar xzf a.tgz` (the first word is a bundle of letters without a dash, whose values follow in order)
  let args = [...words];
  const first = args[0];
  if (first?.literal && /^[A-Za-z]+$/.test(first.value)) {
    const expanded: ShellWord[] = [];
    let next = 1;
    for (const letter of first.value) {
      expanded.push(word(`-${letter}`));
      if (TAR_SHORT_WITH_VALUE.includes(letter) && args[next]) expanded.push(args[next++]!);
    }
    args = [...expanded, ...args.slice(next)];
  }
  const parsed = parseOptions(args, {
    shortWithValue: TAR_SHORT_WITH_VALUE,
    long: TAR_LONG,
    longWithValue: TAR_LONG_WITH_VALUE,
  });
  const code = parsed.options.find(
    (o) =>
      TAR_CODE_OPTIONS.includes(o.name) || (o.name === '--checkpoint-action' && /^exec=/.test(o.value?.value ?? '')),
  );
  if (code)
    return { onlyTargets: true, targets: [], runsCode: `tar ${code.name} runs a program: ${code.value?.value ?? ''}` };
  const has = (...names: string[]) => hasOption(parsed, ...names);
  const creates = has(
    '-c',
    '--create',
    '-r',
    '--append',
    '-u',
    '--update',
    '-A',
    '--catenate',
    '--concatenate',
    '--delete',
  );
  const extracts = has('-x', '--extract', '--get');
  const lists = has('-t', '--list', '-d', '--diff', '--compare', '--test-label');
  const known = creates || extracts || lists;
  const targets: WriteTarget[] = [];
  const files = optionValues(parsed, '-f', '--file');
  const directories = optionValues(parsed, '-C', '--directory');
  if (creates || !known) for (const f of files) targets.push({ word: f, via: 'other' });
  if (extracts || !known) {
    for (const d of directories.length ? directories : [word('.')])
      targets.push({ word: d, via: 'other', container: true });
    if (has('-P', '--absolute-names')) targets.push(unknownPlace('(absolute names inside the archive)'));
  }
  for (const f of optionValues(parsed, '-g', '--listed-incremental', '--index-file'))
    targets.push({ word: f, via: 'other' });
  for (const u of parsed.unknownWords) targets.push({ word: u, via: 'other' });
  return { onlyTargets: true, targets };
}

/** See the `zip` row of the write-target table. */
export function zipTargets(words: readonly ShellWord[]): CommandWrites {
  const valueOptions = [
    '-b',
    '-n',
    '-t',
    '-tt',
    '-O',
    '--output-file',
    '-P',
    '--password',
    '-s',
    '--split-size',
    '-sp',
    '-Z',
    '--compression-method',
    '-la',
    '-lf',
    '--logfile-path',
    '-x',
    '-i',
    '-TT',
    '--unzip-command',
  ];
  const targets: WriteTarget[] = [];
  let archive: ShellWord | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.value === '-TT' || w.value.startsWith('--unzip-command')) {
      return { onlyTargets: true, targets, runsCode: `zip ${w.value} runs a program` };
    }
    if (['-O', '--output-file', '-b', '-lf', '--logfile-path'].includes(w.value) && words[i + 1]) {
      targets.push({ word: words[++i]!, via: 'other' });
    } else if (w.value === '-x' || w.value === '-i')
      break; // patterns follow
    else if (valueOptions.includes(w.value)) i++;
    else if (!w.value.startsWith('-') || !w.literal) {
      if (!archive) archive = w;
    }
  }
  if (archive) targets.unshift({ word: archive, via: 'other' });
  return { onlyTargets: true, targets };
}

/** See the `unzip` row of the write-target table. */
export function unzipTargets(words: readonly ShellWord[]): CommandWrites {
  let directory: ShellWord | undefined;
  let readOnly = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.value === '-d' && words[i + 1]) directory = words[++i];
    else if (w.value.startsWith('-d') && w.value.length > 2) directory = attachedWord(w, w.value.slice(2));
    else if (/^-[a-zA-Z]*[ltpvcZz]/.test(w.value)) readOnly = true;
  }
  if (readOnly) return { onlyTargets: true, targets: [] };
  return { onlyTargets: true, targets: [{ word: directory ?? word('.'), via: 'other', container: true }] };
}

/** See the `zstd` row of the write-target table. */
export function zstdTargets(words: readonly ShellWord[]): CommandWrites {
  const parsed = parseOptions(words, {
    shortWithValue: 'oD',
    long: ['stdout', 'test', 'list', 'output-dir-flat', 'output-dir-mirror', 'rm', 'keep', 'decompress'],
    longWithValue: ['output-dir-flat', 'output-dir-mirror'],
  });
  if (hasOption(parsed, '-c', '--stdout', '-t', '--test', '-l', '--list')) return { onlyTargets: true, targets: [] };
  const output = optionValues(parsed, '-o', '--output-dir-flat', '--output-dir-mirror');
  const targets = output.length ? output : parsed.positionals;
  return { onlyTargets: true, targets: [...targets, ...parsed.unknownWords].map((w) => ({ word: w, via: 'other' })) };
}
