/**
 * Opaque code: commands whose effect the shell analysis cannot see through, because
 * they run code given as text to another language (`python3 -c`, `node -e`, `awk 'BEGIN{system(…)}'`,
 * `vim -es -c '!…'`) or read their program from input (`echo … | python3`, `make -f -`). Code bash
 * itself hides in arithmetic and variables (`[ -v 'a[$(rm x)]' ]`, `export PATH=…`) is in
 * `bash-evaluation.ts`; git that runs code is in `git-code.ts`.
 *
 * The policy (`policy.ts`) never allows opaque code by the read-only list or by a wildcard rule: only
 * a rule that names the program does, and while any `deny` rule exists for bash it asks.
 *
 * Pure functions over a command's name and its arguments (quotes removed). Sources: each program's
 * manual page (python(1), node(1), perlrun(1), ruby(1), php(1), lua(1), gawk(1), make(1), vim(1),
 * sqlite3(1)).
 */
import type { CommandArg } from './safe-command-types.js';
import { splitLong } from './safe-commands.js';

/** The plain-words reason a request carries, e.g. `runs code the check cannot see: python3 -c …`. */
export function opaqueReason(detail: string): string {
  return `runs code the check cannot see: ${shorten(detail)}`;
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}

/** A language whose code can be given on the command line or read from input. */
export interface Interpreter {
  /** the program's names */
  names: readonly string[];
  example: string;
  /** options whose value (next word or attached) is code: `-c`, `-e`, `--eval=` */
  codeOptions: readonly string[];
  /** options that take a value that is not the program: `-m module`, `-I dir` (so the program file is found) */
  valueOptions?: readonly string[];
  /** options after which the program file is given (`-f file`), whose value `-` means standard input */
  fileOptions?: readonly string[];
  /** with no program file, reads its program from standard input (`echo … | python3`) */
  readsStdin: boolean;
  /** every use runs commands it reads from its input or arguments (an editor or calculator with `!cmd`): opaque unless it only prints its version */
  alwaysOpaque?: boolean;
}

/** Interpreters whose one-liners are opaque. One row per language, with an example. */
// prettier-ignore
export const INTERPRETERS: readonly Interpreter[] = [
  { names: ['python', 'python2', 'python3', 'pypy', 'pypy3'], example: "python3 -c 'import os; os.remove(\"x\")'", codeOptions: ['-c'], valueOptions: ['-m', '-W', '-X', '-Q'], readsStdin: true },
  { names: ['node', 'nodejs'], example: "node -e 'require(\"fs\").rmSync(\"x\")'", codeOptions: ['-e', '--eval', '-p', '--print'], valueOptions: ['-r', '--require', '--import', '--input-type', '--loader', '--experimental-loader', '-C', '--conditions'], readsStdin: true },
  { names: ['ts-node', 'tsx'], example: "tsx -e 'require(\"fs\").rmSync(\"x\")'", codeOptions: ['-e', '--eval', '-p', '--print'], valueOptions: ['-r', '--require', '--import'], readsStdin: true },
  { names: ['bun'], example: "bun -e 'await Bun.write(\"x\", \"\")'", codeOptions: ['-e', '--eval', '-p', '--print'], readsStdin: false },
  { names: ['deno'], example: "deno eval 'Deno.removeSync(\"x\")'", codeOptions: ['eval'], readsStdin: false },
  { names: ['perl', 'perl5'], example: "perl -e 'unlink \"x\"'", codeOptions: ['-e', '-E'], valueOptions: ['-I', '-x'], readsStdin: true },
  { names: ['ruby', 'irb'], example: "ruby -e 'File.delete(\"x\")'", codeOptions: ['-e'], valueOptions: ['-I', '-r', '-C', '-E'], readsStdin: true },
  { names: ['php'], example: "php -r 'unlink(\"x\");'", codeOptions: ['-r', '-B', '-R', '-E'], valueOptions: ['-c', '-d', '-z'], fileOptions: ['-f'], readsStdin: true },
  { names: ['lua', 'luajit', 'lua5.1', 'lua5.3', 'lua5.4'], example: "lua -e 'os.remove(\"x\")'", codeOptions: ['-e'], valueOptions: ['-l'], readsStdin: true },
  { names: ['Rscript'], example: "Rscript -e 'unlink(\"x\")'", codeOptions: ['-e'], readsStdin: false },
  { names: ['julia'], example: "julia -e 'rm(\"x\")'", codeOptions: ['-e', '--eval', '-E', '--print'], readsStdin: true },
  { names: ['osascript'], example: "osascript -e 'do shell script \"rm x\"'", codeOptions: ['-e'], readsStdin: true },
  { names: ['pwsh', 'powershell'], example: "pwsh -c 'Remove-Item x'", codeOptions: ['-c', '-Command', '-command', '-EncodedCommand', '-e'], readsStdin: true },
  { names: ['tclsh', 'wish', 'expect'], example: "expect -c 'exec rm x'", codeOptions: ['-c'], readsStdin: true },
  { names: ['fish', 'tcsh', 'csh', 'xonsh', 'nu'], example: "fish -c 'rm x' (not bash: its -c string is not analysed)", codeOptions: ['-c', '--command'], readsStdin: true },
  { names: ['gdb'], example: "gdb -batch -ex '!rm x'", codeOptions: ['-ex', '--ex', '-eval-command', '--eval-command', '-x', '--command', '-iex', '-ix'], readsStdin: false },
  { names: ['vim', 'vi', 'nvim', 'ex', 'view', 'gvim', 'vimdiff', 'rvim', 'vimx'], example: "vim -es -c '!rm x' -c q; echo '!rm x' | ex (without a terminal it reads commands from input)", codeOptions: ['-c', '--cmd', '-S', '-s', '-u'], readsStdin: true, alwaysOpaque: true },
  { names: ['emacs'], example: "emacs --batch --eval '(delete-file \"x\")'", codeOptions: ['--eval', '-eval', '-l', '--load', '-f', '--funcall', '--script', '-x'], readsStdin: false, alwaysOpaque: true },
  { names: ['ed', 'red'], example: "echo '!rm x' | ed f", codeOptions: [], readsStdin: true, alwaysOpaque: true },
  { names: ['dc'], example: "dc -e '!rm x'", codeOptions: ['-e', '--expression', '-f', '--file'], readsStdin: true, alwaysOpaque: true },
  { names: ['m4'], example: "echo 'syscmd(rm x)' | m4", codeOptions: [], readsStdin: true, alwaysOpaque: true },
  { names: ['sqlite3'], example: "sqlite3 db '.shell rm x' (dot-commands .shell, .system, .output)", codeOptions: ['-cmd', '--cmd', '-init', '--init'], readsStdin: false },
  { names: ['make', 'gmake'], example: 'echo "all:; rm x" | make -f -, make --eval=\'$(shell rm x)\'', codeOptions: ['-E', '--eval'], valueOptions: ['-C', '--directory', '-I', '--include-dir', '-j', '--jobs', '-l', '--load-average', '-o', '--old-file', '-W', '--what-if', '--new-file', '--assume-new', '--assume-old'], fileOptions: ['-f', '--file', '--makefile'], readsStdin: false },
];

const interpreters = new Map(INTERPRETERS.flatMap((entry) => entry.names.map((name) => [name, entry] as const)));

/** The interpreter for a program name, also with a version (`python3.12`, `perl5.36`, `lua5.4`, `node20`, `ruby3.2`). */
function interpreterFor(name: string): Interpreter | undefined {
  return (
    interpreters.get(name) ??
    interpreters.get(name.replace(/-?[\d.]+$/, '')) ??
    interpreters.get(name.replace(/[\d.]+$/, '3'))
  );
}

/** Files that are standard input. */
const STDIN_FILES = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/(self|\d+)\/fd\/0)$/;

/** Whether a path names standard input (or a descriptor: `/dev/fd/3`), so that what it holds is not known. */
export function isInputFile(path: string): boolean {
  return STDIN_FILES.test(path) || /^\/dev\/fd\/\d+$|^\/proc\/(self|\d+)\/fd\/\d+$/.test(path);
}

/**
 * Why an interpreter invocation is opaque code, or undefined when it runs a program file (or only
 * prints its version). `extraArgsUnknown`: more arguments come from input (`xargs python3`). `written`:
 * the command as written, for the reason.
 */
export function interpreterCode(
  name: string,
  args: readonly CommandArg[],
  extraArgsUnknown: boolean,
  written = [name, ...args.map((a) => a.value)].join(' '),
): string | undefined {
  if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk') return awkProgram(args, written).opaque;
  const entry = interpreterFor(name);
  if (!entry) return undefined;
  if (entry.alwaysOpaque && !isVersionQuery(args)) return opaqueReason(written);
  let programFile = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg.value;
    if (!arg.literal && value.startsWith('-')) return opaqueReason(`${written} (an option only known when it runs)`);
    if (value === '--') {
      programFile ||= i + 1 < args.length;
      break;
    }
    const [option, attached] = value.startsWith('--') ? splitLong(value) : [value, undefined];
    if (
      entry.codeOptions.includes(option) ||
      entry.codeOptions.some((o) => o.length === 2 && !option.startsWith('--') && option.startsWith(o))
    ) {
      return opaqueReason(written);
    }
    if (entry.names[0] === 'python' && /^-[A-Za-z]*c/.test(value) && !value.startsWith('--'))
      return opaqueReason(written); // python3 -Bc '…'
    if (entry.names[0] === 'perl' && /^-[a-zA-Z]*[eE]/.test(value) && !value.startsWith('--'))
      return opaqueReason(written); // perl -ne '…'
    if (entry.names[0] === 'ruby' && /^-[acdlnpsSvwy]+e/.test(value)) return opaqueReason(written); // ruby -ne '…', ruby -pe '…'
    if (name === 'sqlite3' && i > 0 && SQLITE_CODE.test(value)) return opaqueReason(written); // sqlite3 db '.shell rm x'
    if (entry.fileOptions?.includes(option)) {
      const file = attached ?? args[++i]?.value;
      if (file === undefined || isInputFile(file) || !args[i]?.literal)
        return opaqueReason(`${written} (the program is read from input)`);
      programFile = true;
      continue;
    }
    if (entry.valueOptions?.includes(option)) {
      if (attached === undefined) i++;
      if (option === '-m') programFile = true; // python3 -m module
      continue;
    }
    if (value.startsWith('-') && value !== '-') continue; // a flag
    if (isInputFile(value)) return opaqueReason(`${written} (the program is read from input)`);
    // python3 <(echo …), node "$F": the program file is only known when it runs
    if (!arg.literal) return opaqueReason(`${written} (the program file is only known when it runs)`);
    programFile = true;
    if (entry.names[0] !== 'make' && name !== 'sqlite3') break; // the rest are the program's own arguments
  }
  if (name === 'sqlite3' && !isVersionQuery(args) && args.filter((a) => !a.value.startsWith('-')).length < 2) {
    return opaqueReason(`${written} (its commands are read from input)`);
  }
  if (!programFile && entry.readsStdin && !extraArgsUnknown && !isVersionQuery(args)) {
    return opaqueReason(`${written} (the program is read from input)`);
  }
  if (!programFile && extraArgsUnknown && entry.readsStdin)
    return opaqueReason(`${written} (the program is named in the input)`);
  return undefined;
}

/** sqlite3 dot-commands and SQL functions that run programs, load code, or write files elsewhere. */
const SQLITE_CODE =
  /^\s*\.(sh|shell|system|output|once|import|load|read|backup|save|restore|open|excel|cd|log|trace|clone|archive|ar)\b|load_extension\s*\(|\battach\b|\bvacuum\s+into\b|writefile\s*\(|edit\s*\(/i;

function isVersionQuery(args: readonly CommandArg[]): boolean {
  return args.length === 1 && ['--version', '-v', '-V', '-version', 'version', '--help', '-h'].includes(args[0]!.value);
}

// ---- awk

/** What an awk command line does, from its program text. */
export interface AwkProgram {
  /** why it is opaque: runs commands (`system()`, pipes to or from a command), loads code, or reads its program from input */
  opaque?: string;
  /** files its program writes with `print > "file"` (undefined entries: a target only known when it runs) */
  writes: (string | undefined)[];
  /** files edited in place (`gawk -i inplace`) */
  inPlaceFiles: CommandArg[];
  /** the program is visible and only reads and prints */
  readOnly: boolean;
}

const AWK_VALUE_OPTIONS = ['-F', '-v', '--field-separator', '--assign'];
/** awk options that only change how it reads and prints. */
// prettier-ignore
const AWK_READING_FLAGS = ['--posix', '-P', '--traditional', '--compat', '-c', '-b', '--characters-as-bytes', '-N', '--use-lc-numeric', '-r', '--re-interval', '-S', '--sandbox', '-s', '--no-optimize', '-O', '--optimize', '-n', '--non-decimal-data', '-M', '--bignum', '-t', '--lint-old'];

/** Parses awk's arguments and looks at its program for commands and writes (gawk(1), POSIX awk). */
export function awkProgram(
  args: readonly CommandArg[],
  written = ['awk', ...args.map((a) => a.value)].join(' '),
): AwkProgram {
  const result: AwkProgram = { writes: [], inPlaceFiles: [], readOnly: false };
  let program: CommandArg | undefined;
  let fromFile = false;
  let inPlace = false;
  let otherOption = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    const [option, attached] = arg.value.startsWith('--') ? splitLong(arg.value) : [arg.value, undefined];
    if (!arg.literal && option.startsWith('-')) return { ...result, opaque: opaqueReason(written) };
    if (option === '--') {
      i++;
      break;
    }
    if (!option.startsWith('-') || option === '-') break;
    const short = option.slice(0, 2);
    const value = () =>
      attached ?? (option.length > 2 && !option.startsWith('--') ? option.slice(2) : args[++i]?.value);
    if (AWK_VALUE_OPTIONS.includes(option) || ((short === '-F' || short === '-v') && !option.startsWith('--'))) {
      value(); // a field separator or a variable: data, not code
      continue;
    }
    if (option === '-f' || option === '--file' || short === '-f') {
      const file = value();
      if (file === undefined || isInputFile(file))
        return { ...result, opaque: opaqueReason(`${written} (the program is read from input)`) };
      fromFile = true;
      continue;
    }
    if (option === '-e' || option === '--source' || short === '-e') {
      const text = value();
      program = { value: text ?? '', literal: args[i]?.literal ?? false };
      continue;
    }
    if (option === '-i' || option === '--include' || short === '-i') {
      const lib = value();
      if (lib === 'inplace' || lib === 'inplace.awk') inPlace = true;
      else return { ...result, opaque: opaqueReason(`${written} (includes awk code from a file)`) };
      continue;
    }
    if (
      option === '-l' ||
      option === '--load' ||
      short === '-l' ||
      option === '-E' ||
      option === '--exec' ||
      option === '-D' ||
      option === '--debug'
    ) {
      return { ...result, opaque: opaqueReason(`${written} (loads code)`) };
    }
    // other options run no code; those not known to only change how it reads (--profile, --dump-variables write files) leave it not read-only
    if (!AWK_READING_FLAGS.includes(option)) otherOption = true;
  }
  if (!program && !fromFile) program = args[i++];
  const operands = args.slice(i);
  if (inPlace) result.inPlaceFiles = operands.filter((a) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value));
  if (fromFile) return { ...result, opaque: opaqueReason(`${written} (its program is in a file)`) };
  if (!program) return result; // awk alone: a usage error
  if (!program.literal) return { ...result, opaque: opaqueReason(written) };
  const text = program.value;
  if (/\bsystem\s*\(/.test(text) || /@load\b|@include\b/.test(text))
    return { ...result, opaque: opaqueReason(written) };
  if (/\/inet[46]?\//.test(text)) return { ...result, opaque: opaqueReason(`${written} (gawk's network files)`) };
  const withoutOr = text.replace(/\|\|/g, ' ');
  if (/\|\s*(&|getline\b|"|[A-Za-z_][A-Za-z0-9_]*\s*($|[;}\n)]))/.test(withoutOr) || /\|&/.test(text)) {
    return { ...result, opaque: opaqueReason(`${written} (pipes to or from a command)`) };
  }
  for (const match of text.matchAll(/\bprintf?\b[^;}\n]*?(>>?)\s*("((?:[^"\\]|\\.)*)"|[^;}\n]+)/g)) {
    result.writes.push(match[3] !== undefined ? match[3] : undefined);
  }
  result.readOnly = result.writes.length === 0 && !inPlace && !otherOption;
  return result;
}

// ---- programs that run commands we cannot follow

/** Programs that run other commands in ways the analysis does not follow. One row each, with why. */
export const OPAQUE_RUNNERS: Readonly<Record<string, string>> = {
  parallel: 'runs a command template with arguments from its input', // parallel rm ::: a b
  chroot: 'runs programs of another root directory', // chroot /srv/x ls
  at: 'runs commands read from its input later', // echo 'rm x' | at now
  batch: 'runs commands read from its input later',
  'systemd-run': 'runs a command as a service', // systemd-run --user rm x
  nsenter: 'runs a command in another namespace',
  unshare: 'runs a command in new namespaces',
  firejail: 'runs a command in a sandbox it configures',
  bwrap: 'runs a command in a sandbox it configures',
  proot: 'runs programs of another root directory',
  strace: 'runs and traces a command', // strace -f rm x
  ltrace: 'runs and traces a command',
  valgrind: 'runs a command under instrumentation',
  numactl: 'runs a command with placement options',
  cpulimit: 'runs a command',
  prlimit: 'runs a command with limits',
  entr: 'runs a command when files change', // ls | entr rm x
  'ld.so': 'the dynamic loader runs any program', // /lib64/ld-linux-x86-64.so.2 ./k
  'nix-shell': 'runs a command in an environment it builds',
  direnv: "runs a command in the folder's environment (.envrc)",
  npx: "runs a package's program, downloading it if needed", // npx -c 'rm x'
  'xvfb-run': 'runs a command',
  crontab: 'installs commands that run later',
  tmux: 'runs commands in a terminal it keeps',
  fc: "runs commands again from the shell's history",
  ssh: 'runs a command string on another machine, or this one', // ssh localhost rm x
  sg: 'runs a command string with another group', // sg staff -c 'rm x'
  newgrp: 'runs a shell with another group',
  setpriv: 'runs a command with other privileges',
  capsh: 'runs a shell with other capabilities',
  chpst: 'runs a command with another environment',
  envdir: 'runs a command with variables from a folder', // set -o history; history -s 'rm x'; fc -s rm
  mise: 'runs a command with tools it installs', // mise exec -- rm x
  dotenv: 'runs a command with variables from a file', // dotenv -- rm x
  'env-cmd': 'runs a command with variables from a file',
  doppler: 'runs a command with variables it fetches',
  op: 'runs a command with secrets it fetches', // op run -- rm x
  'aws-vault': 'runs a command with credentials',
  concurrently: 'runs command strings', // concurrently 'rm x'
  hyperfine: 'runs command strings',
  watchexec: 'runs a command when files change',
  nodemon: 'runs a command when files change (--exec)',
  'npm-run-all': 'runs package scripts by pattern',
  'run-p': 'runs package scripts by pattern',
  'run-s': 'runs package scripts by pattern',
  bunx: "runs a package's program, downloading it if needed",
  'pnpm dlx': "runs a package's program, downloading it", // pnpm dlx rm x
  'yarn dlx': "runs a package's program, downloading it", // yarn dlx cowsay
  'bun x': "runs a package's program, downloading it if needed", // bun x cowsay
  screen: 'runs commands in a terminal it keeps',
  // more programs that run the command they are given (a breaker's round): seen as opaque, not followed
  toybox: 'runs the tool it is given (a multi-call binary, like busybox)', // toybox rm x
  coreutils: 'runs the tool it is given (a multi-call binary)', // coreutils --coreutils-prog=rm x
  cgexec: 'runs a command in a control group', // cgexec -g cpu:x rm x
  'dbus-run-session': 'runs a command in a new D-Bus session',
  'ssh-agent': 'runs a command with an agent', // ssh-agent rm x
  rlwrap: 'runs a command with line editing',
  'dumb-init': 'runs a command as an init process',
  tini: 'runs a command as an init process',
  chronic: 'runs a command, showing its output only on failure', // chronic rm x
  ifne: 'runs a command when its input is not empty',
  pee: 'runs each command string it is given', // pee 'rm x'
  retry: 'runs a command until it succeeds',
  tsp: 'queues a command to run later',
  nq: 'queues a command to run later',
  sem: 'runs a command under GNU parallel',
  eatmydata: 'runs a command without fsync',
  torsocks: 'runs a command through Tor',
  proxychains: 'runs a command through proxies',
  proxychains4: 'runs a command through proxies',
  trickle: 'runs a command with limited bandwidth',
  gtimeout: 'runs a command with a time limit (GNU timeout on macOS)',
  caffeinate: 'runs a command keeping the machine awake',
  runcon: 'runs a command in another SELinux context',
  setarch: 'runs a command with another architecture',
  linux32: 'runs a command with another architecture',
  linux64: 'runs a command with another architecture',
  i386: 'runs a command with another architecture',
  x86_64: 'runs a command with another architecture',
  softlimit: 'runs a command with limits',
  setuidgid: 'runs a command as another user',
  nocache: 'runs a command without the page cache',
  'sandbox-exec': 'runs a command in a sandbox (macOS)',
  'flatpak-spawn': 'runs a command on the host', // flatpak-spawn --host rm x
  'distrobox-host-exec': 'runs a command on the host',
  'toolbox run': 'runs a command in a container',
  mosh: 'runs a command on another machine',
  'parallel-ssh': 'runs a command on other machines',
  pssh: 'runs a command on other machines',
  pdsh: 'runs a command on other machines',
  uvx: "runs a package's program, downloading it if needed", // uvx rm
  'uv tool': "runs a package's program, downloading it if needed", // uv tool run rm
  'pipx run': "runs a package's program, downloading it if needed",
  'gem exec': "runs a gem's program, installing it if needed",
  'volta run': 'runs a command with a tool version',
  'fnm exec': 'runs a command with a Node version',
  'nvm exec': 'runs a command with a Node version',
  'nix run': "runs a package's program, downloading it if needed",
  'nix shell': 'runs a command with packages it downloads',
  'nix develop': 'runs a command in a development shell',
  'guix shell': 'runs a command with packages it downloads',
  'mamba run': 'runs a command in an environment',
  'micromamba run': 'runs a command in an environment',
  'hatch run': 'runs a command in an environment',
  'pdm run': 'runs a command or script in an environment',
  'rye run': 'runs a command or script in an environment',
  byobu: 'runs commands in a terminal it keeps',
  'docker exec': 'runs a command in a container', // docker exec c rm x
  'podman exec': 'runs a command in a container',
  'kubectl exec': 'runs a command in a pod',
  'lxc exec': 'runs a command in a container',
  'vagrant ssh': 'runs a command string in a virtual machine', // vagrant ssh -c 'rm x'
};

/** Why a program runs commands we cannot follow, or undefined. The dynamic loader also by its file names (`ld-linux-x86-64.so.2`). */
/** `uv tool` subcommands that run nothing of the package (uv's docs): the others (`run`) do. */
const UV_TOOL_NOT_RUNNING = new Set(['install', 'upgrade', 'uninstall', 'list', 'dir', 'update-shell', 'help']);

export function opaqueRunner(name: string, args: readonly CommandArg[] = []): string | undefined {
  // ssh -V, npx --version (not `npx version`, which runs a package named version)
  if (!name.includes(' ') && args.length === 1 && ['--version', '-V', '-v', '--help'].includes(args[0]!.value))
    return undefined;
  if (
    name === 'crontab' &&
    args.some((a) => a.value === '-l') &&
    args.every((a) => a.literal && (a.value === '-l' || a.value === '-u' || !a.value.startsWith('-')))
  ) {
    return undefined; // crontab -l [-u user] only lists
  }
  // `uv tool install ruff` and `uv tool list` run no program of the package (install is a write of the person's folders)
  if (name === 'uv tool' && args[0]?.literal && UV_TOOL_NOT_RUNNING.has(args[0].value)) return undefined;
  if (/^ld-linux.*\.so(\.\d+)*$|^ld-.*\.so(\.\d+)*$/.test(name)) return OPAQUE_RUNNERS['ld.so'];
  return Object.hasOwn(OPAQUE_RUNNERS, name) ? OPAQUE_RUNNERS[name] : undefined;
}

// ---- options that run a command

/**
 * Options of ordinary programs whose value is a command they run: `tar --to-command='rm x'`,
 * `rsync -e 'sh -c …'`. One row per program, with an example.
 */
// prettier-ignore
export const COMMAND_OPTIONS: Readonly<Record<string, { options: readonly string[]; example: string }>> = {
  tar: { options: ['--to-command', '-I', '--use-compress-program', '--checkpoint-action', '-F', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command'], example: "tar -xf a.tar --to-command='rm x'" },
  rsync: { options: ['-e', '--rsh', '--rsync-path'], example: "rsync -e 'sh -c \"rm x\"' a b:" },
  zip: { options: ['-TT', '--unzip-command'], example: "zip -T -TT 'rm x #' a.zip f" },
  sort: { options: ['--compress-program'], example: "sort --compress-program='./x.sh' f" },
  man: { options: ['-P', '--pager', '-H', '--html'], example: "man -P 'rm x;' ls" },
  diff: { options: ['--diff-program'], example: 'sdiff --diff-program=./x.sh a b' },
  sdiff: { options: ['--diff-program'], example: 'sdiff --diff-program=./x.sh a b' },
  tcpdump: { options: ['-z'], example: "tcpdump -z './x.sh' -w f" },
  ssh: { options: ['-o'], example: "ssh -o ProxyCommand='rm x' h" },
  scp: { options: ['-S', '-o'], example: 'scp -S ./x.sh a h:' },
  'apt-get': { options: ['-o'], example: "apt-get -o APT::Update::Pre-Invoke::='rm x' update" },
  apt: { options: ['-o'], example: "apt -o APT::Update::Pre-Invoke::='rm x' update" },
  npm: { options: ['--script-shell', '--node-options', '--call', '-c'], example: "npm exec -c 'rm x', npm run t --script-shell=./x.sh" },
  pnpm: { options: ['--script-shell', '-c', '--shell-mode'], example: "pnpm exec -c 'rm x'" },
};

/** Pagers whose `+cmd` argument is a command run at start, where `!cmd` and `|cmd` run a shell command (less(1) "+cmd"). */
const PAGERS_WITH_START_COMMANDS = new Set(['less', 'more', 'most', 'pg']);

/** Why a program's options make it run a command given as text, or undefined. */
export function commandOptionCode(name: string, args: readonly CommandArg[], written: string): string | undefined {
  if (
    PAGERS_WITH_START_COMMANDS.has(name) &&
    args.some((a) => a.value.startsWith('+') && (!a.literal || /[!|]/.test(a.value)))
  ) {
    return opaqueReason(`${written} (its +command runs a shell command)`); // less '+!rm x' f
  }
  const row = Object.hasOwn(COMMAND_OPTIONS, name) ? COMMAND_OPTIONS[name]! : undefined;
  if (!row) return undefined;
  for (const arg of args) {
    if (arg.value === '--') break;
    const [option] = splitLong(arg.value);
    // `-I cmd`, `-Icmd`, and a cluster holding the letter (`rsync -avze 'sh -c …'`)
    const hit = row.options.some(
      (o) => option === o || (o.length === 2 && /^-[A-Za-z]{2,}$/.test(option) && option.slice(1).includes(o[1]!)),
    );
    if (hit) return opaqueReason(`${written} (${option} runs a command)`);
  }
  return undefined;
}
