/**
 * The wrapper table: commands that run another command, which the shell
 * analysis (`shell-analysis.ts`) sees through to judge the command they run — `sudo rm x` is `rm x`,
 * `flock /tmp/l -c 'make'` is `make`, `uv run pytest` is `uv run pytest` and `pytest`. One row per
 * wrapper with an example; options from each program's manual (GNU coreutils, util-linux, sudo(8),
 * doas(1), findutils, procps' watch(1), su(1), runuser(1), uv, poetry, npm, bundler).
 *
 * A wrapper whose command is a string (`su -c TEXT`, `script -c TEXT`, `watch TEXT`) has the string
 * analysed when it is literal, and is opaque code when it is not. Pure data.
 */

export interface WrapperSpec {
  example: string;
  /** options without a value; long ones may carry an attached optional value (`--preserve-env=A`) */
  flags: readonly string[];
  /** options that take a value: the next word, or attached (`-uroot`, `--user=root`) */
  valueOptions?: readonly string[];
  /** one-letter options whose optional value can only be attached (`xargs -i{}`) */
  attachedOptions?: readonly string[];
  /** options after which nothing is run: `command -v git` looks git up, `sudo -l` lists */
  noCommandOptions?: readonly string[];
  /** options that hide the command from us: `env -S 'cmd args'` */
  opaqueOptions?: readonly string[];
  /** `NAME=value` words may come after the options */
  assignments?: boolean;
  /** positional words before the command: timeout's duration */
  operands?: number;
  /** options whose value is the directory the command runs in */
  directoryOptions?: readonly string[];
  /** options whose value is a file the wrapper writes */
  outputOptions?: readonly string[];
  /** the command runs with another user's rights: never read-only */
  privileged?: boolean;
  /** the command gets more arguments we can't see (xargs): only commands safe with any arguments stay read-only */
  appendsArguments?: boolean;
  /** with no command, the wrapper runs this one (xargs runs echo) */
  defaultCommand?: string;
  /** options whose value is a command string the wrapper runs with a shell: `su -c 'cmd'`, `flock lock -c 'cmd'` (analysed when literal, else opaque) */
  commandStringOptions?: readonly string[];
  /** the words after the options are never a command: only a command-string option runs one, else an interactive shell reads its input (`su`, `script`) */
  stringOnly?: boolean;
  /** the words after the options are joined and run by `sh -c` (`watch git status`), unless one of these options is given */
  joinsCommand?: { unlessOptions: readonly string[] };
  /** also a command of its own, which rules and grants name (`uv run pytest *`); the command it runs is judged as well (`uv run rm x` meets `rm *`) */
  alsoRecorded?: boolean;
  /** options that set a replacement string whose occurrences become input (`xargs -I {}`; `-i` and `--replace` default to `{}`) */
  replaceOptions?: readonly string[];
}

/** Commands that run another command, seen through to it. Options from GNU coreutils, sudo(8), doas(1), findutils. */
/** The options of `su` (and of `runuser`, which takes the same): everything but the example. */
const SU_OPTIONS: Omit<WrapperSpec, 'example'> = {
  flags: ['-', '-l', '--login', '-m', '-p', '--preserve-environment', '-f', '--fast', '-P', '--pty'],
  valueOptions: ['-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'],
  commandStringOptions: ['-c', '--command', '--session-command'],
  stringOnly: true,
  privileged: true,
};

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    example: 'env -i FOO=1 make test',
    flags: [
      '-i',
      '--ignore-environment',
      '-',
      '-0',
      '--null',
      '-v',
      '--debug',
      '--block-signal',
      '--default-signal',
      '--ignore-signal',
    ],
    valueOptions: ['-u', '--unset', '-C', '--chdir'],
    noCommandOptions: ['--list-signal-handling', '--help', '--version'],
    opaqueOptions: ['-S', '--split-string'],
    assignments: true,
    directoryOptions: ['-C', '--chdir'],
  },
  command: {
    example: 'command git status (command -v git only looks up)',
    flags: ['-p'],
    noCommandOptions: ['-v', '-V'],
  },
  builtin: { example: 'builtin cd src', flags: [] },
  exec: { example: 'exec node server.js', flags: ['-c', '-l'], valueOptions: ['-a'] },
  nice: {
    example: 'nice -n 10 make',
    flags: [],
    valueOptions: ['-n', '--adjustment'],
    noCommandOptions: ['--help', '--version'],
  },
  nohup: { example: 'nohup npm start', flags: [], noCommandOptions: ['--help', '--version'] },
  time: {
    example: '/usr/bin/time -v make (the `time` keyword is parsed as such)',
    flags: ['-p', '--portability', '-v', '--verbose', '-q', '--quiet', '-a', '--append'],
    valueOptions: ['-f', '--format', '-o', '--output'],
    noCommandOptions: ['--help', '--version'],
    outputOptions: ['-o', '--output'],
  },
  timeout: {
    example: 'timeout 30s npm test',
    flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
    valueOptions: ['-s', '--signal', '-k', '--kill-after'],
    noCommandOptions: ['--help', '--version'],
    operands: 1,
  },
  stdbuf: {
    example: 'stdbuf -oL make',
    flags: [],
    valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'],
    noCommandOptions: ['--help', '--version'],
  },
  sudo: {
    example: 'sudo -u www-data ls (always asks)',
    flags: [
      '-A',
      '--askpass',
      '-b',
      '--background',
      '-E',
      '--preserve-env',
      '-H',
      '--set-home',
      '-i',
      '--login',
      '-n',
      '--non-interactive',
      '-P',
      '--preserve-groups',
      '-S',
      '--stdin',
      '-s',
      '--shell',
      '-k',
      '--reset-timestamp',
      '-B',
      '--bell',
      '-N',
      '--no-update',
    ],
    valueOptions: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-C',
      '--close-from',
      '-r',
      '--role',
      '-t',
      '--type',
      '-T',
      '--command-timeout',
      '-D',
      '--chdir',
      '-U',
      '--other-user',
      '-R',
      '--chroot',
    ],
    noCommandOptions: [
      '-l',
      '--list',
      '-v',
      '--validate',
      '-K',
      '--remove-timestamp',
      '-e',
      '--edit',
      '-V',
      '--version',
      '--help',
    ],
    assignments: true,
    directoryOptions: ['-D', '--chdir'],
    privileged: true,
  },
  doas: {
    example: 'doas -u root ls (always asks)',
    flags: ['-n', '-s'],
    valueOptions: ['-u'],
    noCommandOptions: ['-L', '-C'],
    privileged: true,
  },
  xargs: {
    example: 'xargs grep -l TODO (only commands safe with any arguments stay read-only)',
    flags: [
      '-0',
      '--null',
      '-r',
      '--no-run-if-empty',
      '-t',
      '--verbose',
      '-p',
      '--interactive',
      '-x',
      '--exit',
      '-o',
      '--open-tty',
      '--show-limits',
      '--eof',
      '--replace',
      '--max-lines',
    ],
    valueOptions: [
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-E',
      '-I',
      '-L',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '--process-slot-var',
    ],
    attachedOptions: ['-e', '-i', '-l'],
    noCommandOptions: ['--help', '--version'],
    appendsArguments: true,
    defaultCommand: 'echo',
    replaceOptions: ['-I', '-i', '--replace'],
  },
  setsid: {
    example: 'setsid -f npm start',
    flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'],
    noCommandOptions: ['-h', '--help', '-V', '--version'],
  },
  flock: {
    example: 'flock /tmp/x.lock make; flock /tmp/x.lock -c "make test" (the string is analysed)',
    flags: [
      '-s',
      '--shared',
      '-x',
      '-e',
      '--exclusive',
      '-u',
      '--unlock',
      '-n',
      '--nb',
      '--nonblock',
      '-o',
      '--close',
      '-F',
      '--no-fork',
      '--verbose',
    ],
    valueOptions: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code'],
    noCommandOptions: ['-h', '--help', '-V', '--version'],
    commandStringOptions: ['-c', '--command'],
    operands: 1,
  },
  ionice: {
    example: 'ionice -c 3 make',
    flags: ['-t', '--ignore'],
    valueOptions: ['-c', '--class', '-n', '--classdata'],
    noCommandOptions: ['-p', '--pid', '-P', '--pgid', '-u', '--uid', '-h', '--help', '-V', '--version'],
  },
  taskset: {
    example: 'taskset -c 0,1 make (taskset -p 1 looks at a process)',
    flags: ['-a', '--all-tasks', '-c', '--cpu-list'],
    noCommandOptions: ['-p', '--pid', '-h', '--help', '-V', '--version'],
    operands: 1,
  },
  chrt: {
    example: 'chrt -b 0 make',
    flags: [
      '-a',
      '--all-tasks',
      '-b',
      '--batch',
      '-d',
      '--deadline',
      '-f',
      '--fifo',
      '-i',
      '--idle',
      '-o',
      '--other',
      '-r',
      '--rr',
      '-R',
      '--reset-on-fork',
      '-v',
      '--verbose',
    ],
    valueOptions: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'],
    noCommandOptions: ['-p', '--pid', '-m', '--max', '-h', '--help', '-V', '--version'],
    operands: 1,
  },
  unbuffer: { example: 'unbuffer -p make', flags: ['-p'] },
  script: {
    example: "script -qc 'make test' /dev/null (the string is analysed; without -c it runs a shell reading its input)",
    flags: ['-a', '--append', '-e', '--return', '-f', '--flush', '-q', '--quiet', '--force'],
    valueOptions: [
      '-E',
      '--echo',
      '-t',
      '--timing',
      '-T',
      '--log-timing',
      '-I',
      '--log-in',
      '-O',
      '--log-out',
      '-B',
      '--log-io',
      '-m',
      '--logging-format',
      '-o',
      '--output-limit',
    ],
    outputOptions: ['-t', '--timing', '-T', '--log-timing', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io'],
    commandStringOptions: ['-c', '--command'],
    stringOnly: true,
  },
  watch: {
    example: 'watch -n 5 git status (joined and run by sh -c; with -x run directly)',
    flags: [
      '-b',
      '--beep',
      '-c',
      '--color',
      '-C',
      '--no-color',
      '-d',
      '--differences',
      '-e',
      '--errexit',
      '-g',
      '--chgexit',
      '-t',
      '--no-title',
      '-w',
      '--no-wrap',
      '-x',
      '--exec',
      '-p',
      '--precise',
      '-r',
      '--no-rerun',
      '-f',
      '--follow',
    ],
    valueOptions: ['-n', '--interval', '-q', '--equexit', '-s', '--shotsdir'],
    noCommandOptions: ['-h', '--help', '-v', '--version'],
    joinsCommand: { unlessOptions: ['-x', '--exec'] },
  },
  su: {
    ...SU_OPTIONS,
    example: "su -c 'make install' root (always asks; the string is analysed; without -c a shell reads its input)",
  },
  // util-linux's runuser takes su's options
  runuser: { ...SU_OPTIONS, example: "runuser -l app -c 'make' (always asks, as su)" },
  pkexec: {
    example: 'pkexec make install (always asks)',
    flags: ['--disable-internal-agent', '--keep-cwd'],
    valueOptions: ['--user'],
    noCommandOptions: ['--version', '--help'],
    privileged: true,
  },
  // systemd's run0(1): sudo's work done by the service manager
  run0: {
    example: 'run0 make install (always asks)',
    flags: ['--no-ask-password', '--slice-inherit'],
    valueOptions: [
      '-u',
      '--user',
      '-g',
      '--group',
      '--unit',
      '--property',
      '--description',
      '--slice',
      '--nice',
      '--setenv',
      '--background',
      '--machine',
    ],
    noCommandOptions: ['-h', '--help', '--version'],
    directoryOptions: ['-D', '--chdir'],
    privileged: true,
  },
  busybox: {
    example: 'busybox rm x (the applet is the command)',
    flags: [],
    noCommandOptions: ['--list', '--list-full', '--help', '--install'],
  },
  catchsegv: { example: 'catchsegv ./a.out', flags: [] },
  fakeroot: {
    example: 'fakeroot make deb',
    flags: ['--unknown-is-real'],
    valueOptions: ['-l', '--lib', '--faked', '-s', '-i', '-b'],
    noCommandOptions: ['-h', '--help', '-v', '--version'],
  },
  // package and version managers that run a command in their environment: `uv run pytest`, `npm exec -- tsc`
  'uv run': {
    alsoRecorded: true,
    example: 'uv run pytest -q',
    flags: [
      '--no-project',
      '--isolated',
      '--frozen',
      '--locked',
      '--no-sync',
      '--all-extras',
      '--no-dev',
      '--dev',
      '-q',
      '--quiet',
      '-v',
      '--verbose',
      '--offline',
      '--active',
      '--no-active',
      '--exact',
      '--no-cache',
    ],
    valueOptions: [
      '--with',
      '--python',
      '-p',
      '--directory',
      '--project',
      '--extra',
      '--group',
      '--package',
      '--index',
      '--with-requirements',
    ],
    opaqueOptions: ['--env-file', '--script', '-s', '-m', '--module'],
    directoryOptions: ['--directory'],
  },
  'poetry run': {
    alsoRecorded: true,
    example: 'poetry run pytest',
    flags: [
      '-q',
      '--quiet',
      '-v',
      '-vv',
      '-vvv',
      '--verbose',
      '-n',
      '--no-interaction',
      '--ansi',
      '--no-ansi',
      '--no-plugins',
      '--no-cache',
    ],
    valueOptions: ['-C', '--directory', '-P', '--project'],
    directoryOptions: ['-C', '--directory'],
  },
  'pipenv run': { alsoRecorded: true, example: 'pipenv run pytest', flags: [] },
  'conda run': {
    alsoRecorded: true,
    example: 'conda run -n env pytest',
    flags: ['--no-capture-output', '--live-stream', '-v', '--verbose'],
    valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'],
    directoryOptions: ['--cwd'],
  },
  'bundle exec': {
    alsoRecorded: true,
    example: 'bundle exec rspec',
    flags: ['--keep-file-descriptors'],
    valueOptions: ['--gemfile'],
  },
  'npm exec': {
    alsoRecorded: true,
    example: 'npm exec -- tsc --noEmit (-c runs a string)',
    flags: ['-y', '--yes', '--no', '--no-install'],
    valueOptions: ['--package', '-w', '--workspace'],
    commandStringOptions: ['-c', '--call'],
  },
  'npm x': {
    alsoRecorded: true,
    example: 'npm x -- tsc --noEmit (npm exec by its alias)',
    flags: ['-y', '--yes', '--no', '--no-install'],
    valueOptions: ['--package', '-w', '--workspace'],
    commandStringOptions: ['-c', '--call'],
  },
  'pnpm exec': {
    alsoRecorded: true,
    example: 'pnpm exec tsc',
    flags: ['-r', '--recursive', '--parallel', '--no-bail', '--report-summary'],
    valueOptions: ['--filter', '-F', '--workspace-concurrency', '-C', '--dir'],
    opaqueOptions: ['-c', '--shell-mode'],
    directoryOptions: ['-C', '--dir'],
  },
  'yarn exec': { alsoRecorded: true, example: 'yarn exec tsc', flags: [] },
  'pyenv exec': { alsoRecorded: true, example: 'pyenv exec python script.py', flags: [] },
  'rbenv exec': { alsoRecorded: true, example: 'rbenv exec ruby script.rb', flags: [] },
  'asdf exec': { alsoRecorded: true, example: 'asdf exec node script.js', flags: [] },
  'cross-env': { example: 'cross-env NODE_ENV=test jest', flags: [], assignments: true },
  faketime: {
    example: "faketime '2020-01-01' date",
    flags: ['-m', '-f'],
    valueOptions: ['-p'],
    noCommandOptions: ['--help', '--version'],
    operands: 1,
  },
};

// Maps, not the objects: a command may be named `constructor` or `__proto__`
export const wrappers = new Map(Object.entries(WRAPPERS));
/** Wrappers that run their command with another user's rights. */
export const PRIVILEGED_WRAPPERS = new Set(
  Object.entries(WRAPPERS)
    .filter(([, spec]) => spec.privileged)
    .map(([name]) => name),
);
