/**
 * Needless asks: plainly read-only commands, the kind a session runs to look around,
 * must run without asking when there are no rules. Target: no more than 1 false "ask" per 100; the
 * table lists the ones that still ask, each with why, and the test holds them to that list.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

async function decide(command: string): Promise<string> {
  const { analysis, subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
  if (analysis.banned) return `banned ${analysis.banned.name}`;
  return evaluatePermission('bash', subject, { rules: [], grants: [], cwd: CWD }).action;
}

const READ_ONLY: readonly string[] = [
  // files and text
  'ls -la',
  'ls -R src | head -50',
  'cat package.json',
  'head -n 40 README.md',
  'tail -n 100 build.log',
  'wc -l src/*.ts',
  'sort -u names.txt',
  'uniq -c counts',
  'cut -d: -f1 /etc/passwd',
  "tr 'a-z' 'A-Z' < f",
  'nl -ba src/a.ts',
  'tac log',
  'column -t data.tsv',
  'od -c a.bin | head',
  'xxd a.bin | head',
  'strings a.out | grep GLIBC',
  'grep -rn TODO src',
  'rg -n "fn main" --type rust',
  'fd -e ts',
  'find . -name "*.ts" -not -path "./node_modules/*"',
  'find src -type f | xargs wc -l',
  "sed -n '1,80p' src/index.ts",
  "sed 's/foo/bar/g' a.txt",
  'jq .scripts package.json',
  'diff -u a.txt b.txt',
  'cmp a.bin b.bin',
  'file logo.png',
  'stat -c %s build.zip',
  'du -sh node_modules',
  'df -h',
  'tree -L 2 src',
  'realpath ../x',
  'readlink -f node_modules/.bin/tsc',
  'sha256sum dist/app.js',
  'md5sum a b',
  'zcat logs/old.gz | tail',
  'tar -tzf release.tgz',
  'tar tvf backup.tar',
  'unzip -l bundle.zip',
  'base64 -d token.txt',
  'basename src/a.ts .ts',
  'dirname src/a.ts',
  'comm -12 a b',
  'paste a b',
  'fold -w 80 f',
  'iconv -l',
  // shell builtins: information only
  'pwd',
  'echo $HOME',
  "printf '%s\\n' a b",
  'type -a python3',
  'which node',
  'command -v git',
  'ulimit -a',
  'ulimit -n',
  'umask',
  'export',
  'export -p',
  'set -o',
  'declare -p HOME',
  'declare -F',
  'typeset -f',
  'shopt',
  'shopt extglob',
  'hash',
  'jobs',
  'dirs -v',
  'help cd',
  'true',
  'test -f package.json && echo yes',
  '[ -d node_modules ] || echo none',
  // system information
  'uname -a',
  'uname -r',
  'whoami',
  'id',
  'id -u',
  'groups',
  'hostname',
  'uptime',
  'nproc',
  'arch',
  'free -m',
  'date -u +%s',
  'cal',
  'locale',
  'locale -a',
  'lscpu',
  'lsmem',
  'lsblk',
  'getconf PAGESIZE',
  'tty',
  'stty -a',
  'ps aux | grep node',
  'pgrep -fl node',
  'top -b -n 1 | head -20',
  'who',
  'w',
  'lsb_release -a',
  'findmnt /',
  'lsof -i :3000',
  'vmstat 1 2',
  'dmesg | tail',
  // git
  'git status',
  'git status --short',
  'git log --oneline -10',
  'git log -p -1 -- src/a.ts',
  'git diff HEAD~1 --stat',
  'git show HEAD:src/a.ts',
  'git branch -a',
  'git tag -l "v*"',
  'git remote -v',
  'git config --get user.email',
  'git stash list',
  'git blame -L 1,20 src/a.ts',
  'git ls-files src',
  'git rev-parse --abbrev-ref HEAD',
  'git describe --tags',
  'git shortlog -sn',
  'git grep -n TODO',
  'git -C . log -1',
  // toolchains: versions and queries
  'node --version',
  'python3 --version',
  'npm --version',
  'npm ls --depth 0',
  'npm ls --all --json',
  'npm root -g',
  'npm run',
  'npm config get registry',
  'npm config list',
  'npm explain react',
  'pip list',
  'pip3 list --format=json',
  'pip show requests',
  'pip freeze',
  'go version',
  'go env GOPATH',
  'go list ./...',
  'cargo --version',
  'rustc --version',
  'java -version',
  'gcc --version',
  'make --version',
  'tsc --version',
  'xargs --version',
  'git config user.name',
  'file dist/*',
  'ls src/*.ts',
  'ip addr',
  'ip -br link',
  'systemctl status nginx',
  'journalctl -n 20 -u nginx',
  'docker ps -a',
  'while read -r l; do echo "$l"; done < f',
  'mapfile -t lines < f',
];

/** Their forms that change something, or that a listing option hides, still ask. */
const NOT_READ_ONLY: readonly string[] = [
  'git config user.name Bob',
  'sort x$Y',
  'file *.ts',
  'ip route add 10.0.0.0/8 dev x',
  'ip netns exec x sh',
  'systemctl restart nginx',
  'journalctl --vacuum-time=1s',
  'npm ls --cache=/tmp/c',
  'npm ls --cach=/tmp/c',
  'npm run build',
  'npm config set x y',
  'pip list --outdated',
  'pip list --log /tmp/x',
  'pip list --lo=/tmp/x',
  'ulimit -n 100',
  'umask 000',
  'export X=1',
  'declare X=1',
  'declare -x X',
  'shopt -s extglob',
  'hash -p ./x ls',
  'stty raw',
  'tar -xf a.tar',
  'tar tIf prog a.tar',
  'unzip a.zip',
  'sysctl -w x=1',
  'dmesg -c',
  'ss -K dst 1.2.3.4',
  'set -e',
  'mapfile -C cb x < f',
  'sort -T /tmp f',
  'getent passwd root',
  'getent hosts localhost', // name lookups may reach the network
];

/** The read-only commands that still ask with no rules, and why: at most 1 per 100. */
const STILL_ASKS: Readonly<Record<string, string>> = {};

describe('plainly read-only commands run without asking', () => {
  it('has at least 100 commands, each once, and at most 1 in 100 still asks', () => {
    expect(READ_ONLY.length).toBeGreaterThanOrEqual(100);
    expect(new Set(READ_ONLY).size).toBe(READ_ONLY.length);
    expect(Object.keys(STILL_ASKS).length).toBeLessThanOrEqual(Math.floor(READ_ONLY.length / 100));
  });

  it.each(READ_ONLY)('%j', async (command) => {
    expect(await decide(command)).toBe(STILL_ASKS[command] !== undefined ? 'ask' : 'allow');
  });

  it.each(NOT_READ_ONLY)('%j asks', async (command) => {
    expect(await decide(command)).toBe('ask');
  });
});
