/**
 * Read-only commands the bash tool runs without asking (reference §1.1, "Safe read-only list").
 *
 * An interim policy, to be replaced by real shell analysis in a later issue. It starts from the
 * original's list and rule (a command is safe when it starts with an entry's words) and closes the
 * holes that cost nothing to close:
 * - a command with any shell operator, redirection or substitution (`; & | < > \` $(` or a newline) is
 *   never safe, so `ls && rm -rf ~` and `echo x > ~/.bashrc` ask;
 * - entries match whole words (`ls-evil` is not `ls`);
 * - entries that change things or run any command were dropped ({@link NOT_SAFE_IN_THE_ORIGINAL});
 * - some entries are safe only with listing flags (`git branch -a`, not `git branch -D main`) or
 *   without a flag that writes (`git diff --output=file`).
 */

export interface SafeCommand {
  /** the leading words, lower case (commands are compared lower-cased, so flags here are lower case too) */
  prefix: string;
  example: string;
  /** when set, the command is safe only if every further word is one of these (empty: no arguments) */
  onlyFlags?: readonly string[];
  /** when set, a further word equal to one of these (or `flag=…`) makes the command unsafe */
  deniedFlags?: readonly string[];
}

const WRITES_A_FILE = ['--output']; // git diff/log/show --output=<file>

export const SAFE_READ_ONLY_COMMANDS: readonly SafeCommand[] = [
  { prefix: 'ls', example: 'ls -la src' },
  { prefix: 'echo', example: 'echo $HOME' },
  { prefix: 'pwd', example: 'pwd' },
  { prefix: 'date', example: 'date -u' },
  { prefix: 'cal', example: 'cal 2025' },
  { prefix: 'uptime', example: 'uptime' },
  { prefix: 'whoami', example: 'whoami' },
  { prefix: 'id', example: 'id -u' },
  { prefix: 'groups', example: 'groups' },
  { prefix: 'env', example: 'env (with arguments it runs a command: asks)', onlyFlags: [] },
  { prefix: 'printenv', example: 'printenv PATH' },
  { prefix: 'set', example: 'set (lists variables)', onlyFlags: [] },
  { prefix: 'unset', example: 'unset DEBUG' },
  { prefix: 'which', example: 'which node' },
  { prefix: 'type', example: 'type -a python' },
  { prefix: 'whereis', example: 'whereis gcc' },
  { prefix: 'whatis', example: 'whatis ls' },
  { prefix: 'uname', example: 'uname -a' },
  { prefix: 'hostname', example: 'hostname (with an argument it renames the host: asks)', onlyFlags: ['-f', '-s', '-i', '-d'] },
  { prefix: 'df', example: 'df -h' },
  { prefix: 'du', example: 'du -sh node_modules' },
  { prefix: 'free', example: 'free -m' },
  { prefix: 'top', example: 'top -b -n 1' },
  { prefix: 'ps', example: 'ps aux' },
  { prefix: 'git status', example: 'git status --short' },
  { prefix: 'git log', example: 'git log --oneline -5', deniedFlags: WRITES_A_FILE },
  { prefix: 'git diff', example: 'git diff HEAD~1', deniedFlags: WRITES_A_FILE },
  { prefix: 'git show', example: 'git show HEAD:src/a.ts', deniedFlags: WRITES_A_FILE },
  {
    prefix: 'git branch',
    example: 'git branch -a (not -D, -m or a new name)',
    onlyFlags: ['-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '-l', '--list', '--show-current', '--merged', '--no-merged'],
  },
  { prefix: 'git tag', example: 'git tag -l (not -d or a new tag)', onlyFlags: ['-l', '--list', '-n'] },
  { prefix: 'git remote', example: 'git remote -v (not add/remove/set-url)', onlyFlags: ['-v', '--verbose'] },
  { prefix: 'git ls-files', example: 'git ls-files src' },
  { prefix: 'git ls-remote', example: 'git ls-remote origin' },
  { prefix: 'git rev-parse', example: 'git rev-parse HEAD' },
  { prefix: 'git blame', example: 'git blame -L 10,20 a.ts' },
  { prefix: 'git grep', example: 'git grep -n TODO' },
  { prefix: 'git shortlog', example: 'git shortlog -sn' },
  { prefix: 'git describe', example: 'git describe --tags' },
  { prefix: 'git config --get', example: 'git config --get user.name' },
  { prefix: 'git config --get-all', example: 'git config --get-all remote.origin.fetch' },
  { prefix: 'git config --get-regexp', example: 'git config --get-regexp ^alias' },
  { prefix: 'git config --list', example: 'git config --list' },
  { prefix: 'git config -l', example: 'git config -l' },
  { prefix: 'go version', example: 'go version' },
  { prefix: 'go help', example: 'go help build' },
  { prefix: 'go list', example: 'go list ./...' },
  { prefix: 'go env', example: 'go env GOPATH (not -w/-u)', deniedFlags: ['-w', '-u'] },
  { prefix: 'go doc', example: 'go doc fmt.Println' },
  { prefix: 'go vet', example: 'go vet ./...' },
];

/** Entries of the original's list left out, and why (reference §1.1, crush#2882). */
export const NOT_SAFE_IN_THE_ORIGINAL: readonly { prefix: string; reason: string }[] = [
  { prefix: 'kill', reason: 'stops processes' },
  { prefix: 'killall', reason: 'stops processes' },
  { prefix: 'nice', reason: 'runs any command: nice rm -rf x' },
  { prefix: 'nohup', reason: 'runs any command' },
  { prefix: 'time', reason: 'runs any command' },
  { prefix: 'timeout', reason: 'runs any command: timeout 5 rm -rf x' },
  { prefix: 'go fmt', reason: 'rewrites source files' },
  { prefix: 'go mod', reason: 'go mod tidy edits go.mod and downloads' },
  { prefix: 'go test', reason: 'runs project code' },
  { prefix: 'go build', reason: 'writes binaries, runs cgo and generators' },
  { prefix: 'go run', reason: 'runs project code' },
  { prefix: 'go install', reason: 'writes binaries' },
  { prefix: 'go clean', reason: 'deletes files' },
];

/** Shell operators, redirections and substitutions: a command holding one is never treated as safe. */
const COMPOUND_OR_REDIRECT = /[;&|<>`\n\r]|\$\(/;

/**
 * Whether `command` may run without asking: it starts with an entry of
 * {@link SAFE_READ_ONLY_COMMANDS} (whole words, case-insensitive), respects the entry's flag rules,
 * and contains no shell operator, redirection or substitution.
 */
export function isSafeReadOnlyCommand(command: string): boolean {
  if (COMPOUND_OR_REDIRECT.test(command)) return false;
  const words = command.trim().toLowerCase().split(/\s+/);
  return SAFE_READ_ONLY_COMMANDS.some((entry) => matches(entry, words));
}

function matches(entry: SafeCommand, words: string[]): boolean {
  const prefix = entry.prefix.split(' ');
  if (!prefix.every((word, i) => words[i] === word)) return false;
  const rest = words.slice(prefix.length);
  if (entry.onlyFlags && !rest.every((w) => entry.onlyFlags!.includes(w))) return false;
  if (entry.deniedFlags?.some((flag) => rest.some((w) => w === flag || w.startsWith(`${flag}=`)))) return false;
  return true;
}
