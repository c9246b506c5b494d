/**
 * Environment variables that make a program run code the shell analysis cannot see:
 * `BASH_ENV=./x.sh bash -c ls` sources x.sh,
 * `PATH=./bin:$PATH ls` runs the project's `bin/ls`, `GIT_SSH_COMMAND='rm -rf ~' git fetch` runs rm.
 *
 * Setting one of these, in any form — `VAR=x cmd`, `env VAR=x cmd`, `export VAR=x`, `declare -x VAR`,
 * a bare `VAR=x` (the shell persists between calls, and `PATH` is already exported) — makes that
 * command opaque code: never allowed by the read-only list or by a wildcard rule (`policy.ts`).
 *
 * Sources: bash(1) INVOCATION and Shell Variables, git(1) ENVIRONMENT VARIABLES and git-config(1)
 * "GIT_CONFIG_COUNT", ld.so(8), node(1), python(1), perlrun(1), ruby(1), the JDK's "JAVA_TOOL_OPTIONS".
 * Pure data and pure functions.
 */

/** One row: a variable name, or a pattern of names, with an example of the code it runs. */
export interface CodeEnvironmentVariable {
  /** the exact name, or a pattern (`GIT_CONFIG_KEY_<n>`) given by `pattern` */
  name: string;
  pattern?: RegExp;
  /** how it runs code */
  example: string;
}

export const CODE_ENVIRONMENT: readonly CodeEnvironmentVariable[] = [
  // shells
  { name: 'BASH_ENV', example: 'BASH_ENV=./x.sh bash -c ls (a non-interactive bash sources it first)' },
  { name: 'ENV', example: 'ENV=./x.sh sh -i (sh and bash in POSIX mode source it)' },
  { name: 'PROMPT_COMMAND', example: 'PROMPT_COMMAND="rm x" bash -i' },
  { name: 'PS4', example: "PS4='$(rm x)' bash -xc ls (expanded before each traced command)" },
  { name: 'SHELLOPTS', example: 'SHELLOPTS=xtrace PS4=… bash -c ls' },
  { name: 'BASHOPTS', example: 'BASHOPTS=extdebug bash -c …' },
  { name: 'IFS', example: 'IFS=/ changes how every later unquoted word splits' },
  { name: 'CDPATH', example: 'CDPATH=/ cd etc (cd goes elsewhere than it reads)' },
  {
    name: 'BASH_FUNC_<name>%%',
    pattern: /^BASH_FUNC_/,
    example: "env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls (an exported function)",
  },
  { name: 'PATH', example: "PATH=./bin:$PATH ls (runs the project's bin/ls)" },
  {
    name: 'BASH_CMDS',
    pattern: /^BASH_CMDS(\[|$)/,
    example: "BASH_CMDS[ls]=./x; ls (bash's table of command paths: ls runs ./x)",
  },
  { name: 'BASH_ALIASES', pattern: /^BASH_ALIASES(\[|$)/, example: "BASH_ALIASES[ls]='rm -rf ~' (bash's alias table)" },
  { name: 'BASH_LOADABLES_PATH', example: 'BASH_LOADABLES_PATH=. bash -c "enable x" (loads ./x as a builtin)' },
  { name: 'SHELL', example: 'SHELL=./x.sh script -c ls, xargs, make and editors run $SHELL' },
  // the dynamic loader
  { name: 'LD_PRELOAD', example: 'LD_PRELOAD=./x.so ls (x.so runs inside ls)' },
  { name: 'LD_LIBRARY_PATH', example: 'LD_LIBRARY_PATH=./lib ls (a libc.so.6 of the project)' },
  { name: 'LD_AUDIT', example: 'LD_AUDIT=./x.so ls' },
  { name: 'DYLD_INSERT_LIBRARIES', example: 'DYLD_INSERT_LIBRARIES=./x.dylib ls (macOS)' },
  { name: 'DYLD_LIBRARY_PATH', example: 'DYLD_LIBRARY_PATH=./lib ls (macOS)' },
  // git
  {
    name: 'GIT_CONFIG_COUNT',
    example: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0="rm x" git log',
  },
  { name: 'GIT_CONFIG_KEY_<n>', pattern: /^GIT_CONFIG_KEY_\d+$/, example: 'GIT_CONFIG_KEY_0=core.fsmonitor' },
  { name: 'GIT_CONFIG_VALUE_<n>', pattern: /^GIT_CONFIG_VALUE_\d+$/, example: 'GIT_CONFIG_VALUE_0="rm x"' },
  { name: 'GIT_CONFIG_PARAMETERS', example: "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm x'\" git log" },
  { name: 'GIT_CONFIG', example: 'GIT_CONFIG=./evil git log' },
  { name: 'GIT_CONFIG_GLOBAL', example: 'GIT_CONFIG_GLOBAL=./evil git status' },
  { name: 'GIT_CONFIG_SYSTEM', example: 'GIT_CONFIG_SYSTEM=./evil git status' },
  { name: 'GIT_EXTERNAL_DIFF', example: 'GIT_EXTERNAL_DIFF=./x.sh git diff' },
  { name: 'GIT_SSH_COMMAND', example: "GIT_SSH_COMMAND='rm x' git fetch" },
  { name: 'GIT_SSH', example: 'GIT_SSH=./x.sh git fetch' },
  { name: 'GIT_PROXY_COMMAND', example: 'GIT_PROXY_COMMAND=./x.sh git fetch git://…' },
  { name: 'GIT_ASKPASS', example: 'GIT_ASKPASS=./x.sh git push' },
  { name: 'SSH_ASKPASS', example: 'SSH_ASKPASS=./x.sh git push' },
  { name: 'GIT_EDITOR', example: "GIT_EDITOR='rm x;' git commit" },
  { name: 'GIT_SEQUENCE_EDITOR', example: 'GIT_SEQUENCE_EDITOR=./x.sh git rebase -i' },
  { name: 'GIT_PAGER', example: "GIT_PAGER='rm x;' git log (GIT_PAGER=cat is harmless)" },
  { name: 'PAGER', example: "PAGER='rm x;' git log (PAGER=cat is harmless)" },
  { name: 'MANPAGER', example: "MANPAGER='rm x;' man ls" },
  { name: 'EDITOR', example: "EDITOR='rm x;' git commit" },
  { name: 'VISUAL', example: "VISUAL='rm x;' crontab -e" },
  {
    name: 'HOME',
    example: 'HOME=/tmp/evil git status (git reads $HOME/.gitconfig, whose core.fsmonitor runs a program)',
  },
  { name: 'XDG_CONFIG_HOME', example: 'XDG_CONFIG_HOME=./x git log (git reads ./x/git/config)' },
  { name: 'GIT_EXEC_PATH', example: 'GIT_EXEC_PATH=./bin git status (runs ./bin/git-status)' },
  { name: 'GIT_DIR', example: 'GIT_DIR=./evil.git git status (its config runs core.fsmonitor)' },
  { name: 'GIT_WORK_TREE', example: 'GIT_WORK_TREE=/elsewhere git status' },
  { name: 'GIT_TEMPLATE_DIR', example: 'GIT_TEMPLATE_DIR=./t git init (copies hooks)' },
  {
    name: 'GIT_COMMON_DIR',
    example: 'GIT_COMMON_DIR=sub/.git git status (reads that config, whose core.fsmonitor runs a program)',
  },
  { name: 'GIT_INDEX_FILE', example: 'GIT_INDEX_FILE=../x git add . (writes the index there)' },
  { name: 'GIT_OBJECT_DIRECTORY', example: 'GIT_OBJECT_DIRECTORY=../o git commit (writes objects there)' },
  {
    name: 'GIT_TRACE*',
    pattern: /^GIT_TRACE/,
    example: 'GIT_TRACE_PACKET=/tmp/x git fetch, GIT_TRACE2_EVENT=../x git log (a path value is a file git writes)',
  },
  {
    name: 'GIT_ALLOW_PROTOCOL',
    example: "GIT_ALLOW_PROTOCOL=ext git fetch 'ext::sh -c rm% x' (the ext transport runs a command)",
  },
  { name: 'LESSOPEN', example: "LESSOPEN='|rm x' less f" },
  { name: 'LESS', example: "LESS='+!rm x' less f (a less command run at start)" },
  { name: 'SYSTEMD_PAGER', example: "SYSTEMD_PAGER='rm x;' systemctl status" },
  { name: 'SYSTEMD_LESS', example: "SYSTEMD_LESS='+!rm x' systemctl status" },
  { name: 'GCONV_PATH', example: 'GCONV_PATH=. iconv -l (loads a conversion module of the project)' },
  { name: 'LESSCLOSE', example: "LESSCLOSE='rm x' less f" },
  { name: 'BROWSER', example: 'BROWSER=./x.sh python3 -m webbrowser …' },
  { name: 'TAR_OPTIONS', example: "TAR_OPTIONS=--to-command='rm x' tar xf a.tar" },
  { name: 'RSYNC_RSH', example: "RSYNC_RSH='rm x;' rsync …" },
  // language runtimes
  { name: 'NODE_OPTIONS', example: 'NODE_OPTIONS="--require ./x.js" npm ls' },
  { name: 'NODE_PATH', example: 'NODE_PATH=./evil node -e …' },
  { name: 'PYTHONPATH', example: 'PYTHONPATH=. python3 -m json.tool (./json is imported)' },
  { name: 'PYTHONSTARTUP', example: 'PYTHONSTARTUP=./x.py python3 -i' },
  { name: 'PYTHONHOME', example: 'PYTHONHOME=./py python3' },
  { name: 'PYTHONWARNINGS', example: 'PYTHONWARNINGS=error::x.W python3 … (imports ./x.py for the category)' },
  { name: 'PYTHONUSERBASE', example: 'PYTHONUSERBASE=./u python3 (site-packages run .pth files)' },
  { name: 'PERL5OPT', example: "PERL5OPT=-Mx perl …, PERL5OPT='-e system(q(rm x))'" },
  { name: 'PERL5LIB', example: 'PERL5LIB=. perl -MFoo' },
  { name: 'PERLLIB', example: 'PERLLIB=. perl -MFoo' },
  { name: 'PERL5DB', example: "PERL5DB='system(q(rm x))' perl -d f" },
  { name: 'RUBYOPT', example: 'RUBYOPT=-r./x ruby f' },
  { name: 'RUBYLIB', example: 'RUBYLIB=. ruby -rfoo' },
  { name: 'JAVA_TOOL_OPTIONS', example: 'JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version' },
  { name: '_JAVA_OPTIONS', example: '_JAVA_OPTIONS=-javaagent:x.jar java -version' },
  { name: 'JDK_JAVA_OPTIONS', example: 'JDK_JAVA_OPTIONS=-javaagent:x.jar java …' },
  { name: 'CLASSPATH', example: 'CLASSPATH=. java Main' },
  { name: 'GOFLAGS', example: 'GOFLAGS=-toolexec=./x go vet' },
  { name: 'RUSTC_WRAPPER', example: 'RUSTC_WRAPPER=./x.sh cargo check' },
  { name: 'CARGO_BUILD_RUSTC_WRAPPER', example: 'CARGO_BUILD_RUSTC_WRAPPER=./x.sh cargo check' },
  { name: 'MAKEFLAGS', example: "MAKEFLAGS='--eval=$(shell rm x)' make -n" },
  { name: 'GNUMAKEFLAGS', example: "GNUMAKEFLAGS='--eval=$(shell rm x)' make (GNU make reads it as MAKEFLAGS)" },
  { name: 'MAKEFILES', example: 'MAKEFILES=./x.mk make (reads x.mk first, whose recipes run)' },
  {
    name: 'PIP_<option>',
    pattern: /^PIP_/,
    example: 'PIP_LOG=../x pip list (every pip option: a log file, a config file, an index)',
  },
  {
    name: 'RUSTUP_TOOLCHAIN',
    example: 'RUSTUP_TOOLCHAIN=./tc cargo build (a toolchain given as a path runs its programs)',
  },
  { name: 'RUSTUP_HOME', example: 'RUSTUP_HOME=./r cargo build (its toolchains run)' },
  { name: 'CARGO_HOME', example: 'CARGO_HOME=./c cargo build (its config.toml names programs to run)' },
  { name: 'RUSTC', example: 'RUSTC=./x.sh cargo check' },
  { name: 'RUSTDOC', example: 'RUSTDOC=./x.sh cargo doc' },
  { name: 'PYTHONBREAKPOINT', example: 'PYTHONBREAKPOINT=x.run python3 f.py (imports ./x.py at breakpoint())' },
  { name: 'PYTHONPYCACHEPREFIX', example: 'PYTHONPYCACHEPREFIX=/tmp/x python3 f.py (writes its caches there)' },
  { name: 'SSLKEYLOGFILE', example: 'SSLKEYLOGFILE=../k node f.js (writes TLS secrets to that file)' },
  { name: 'LD_DEBUG_OUTPUT', example: 'LD_DEBUG=all LD_DEBUG_OUTPUT=../x ls (the loader writes its log there)' },
  { name: 'MALLOC_TRACE', example: 'MALLOC_TRACE=../x prog (glibc writes its trace there)' },
  { name: 'ZDOTDIR', example: 'ZDOTDIR=. zsh -c ls (zsh sources ./.zshenv first)' },
  { name: 'DOCKER_HOST', example: 'DOCKER_HOST=ssh://u@h docker ps (runs ssh to another machine)' },
  {
    name: 'DOCKER_CONFIG',
    example: 'DOCKER_CONFIG=./d docker ps (its config.json names credential helpers, which run)',
  },
  { name: 'DOCKER_CONTEXT', example: 'DOCKER_CONTEXT=remote docker ps (another daemon, reached over the network)' },
  {
    name: 'npm_config_<key>',
    pattern: /^npm_config_/i,
    example: 'npm_config_script_shell=./x.sh npm run t, npm_config_node_options=…',
  },
];

const byName = new Map(CODE_ENVIRONMENT.filter((v) => !v.pattern).map((v) => [v.name, v]));
const byPattern = CODE_ENVIRONMENT.filter((v) => v.pattern);

/** Pagers that only copy their input: `GIT_PAGER=cat git log` runs nothing else. */
const HARMLESS_PAGERS = new Set(['', 'cat']);
const PAGERS = new Set(['PAGER', 'GIT_PAGER', 'MANPAGER']);

/**
 * The row for an environment variable that makes programs run code, when setting `name` to `value`
 * (undefined: the value is not known, or the variable is only exported) can do that. `PAGER=cat` and
 * `GIT_PAGER=` are harmless.
 */
export function codeEnvironmentVariable(name: string, value?: string): CodeEnvironmentVariable | undefined {
  if (PAGERS.has(name) && value !== undefined && HARMLESS_PAGERS.has(value)) return undefined;
  return byName.get(name) ?? byPattern.find((v) => v.pattern!.test(name));
}

/**
 * Whether a value stores an array subscript holding a command substitution (`a[$(rm x)]`): bash runs
 * it when the variable is later used in arithmetic (`(( n ))`, `[[ $n -eq 1 ]]`), even though the
 * assignment itself ran nothing.
 */
export function storesSubscriptCode(value: string): boolean {
  return /\[[^\]]*(\$\(|`)/.test(value);
}
