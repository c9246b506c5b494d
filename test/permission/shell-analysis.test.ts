/**
 * The shell-analysis corpus: for each command line, what analysis finds — the simple
 * commands, the writes, banned and unanalysable — whether it may run without asking, and for the
 * ones that ask, the scope "allow for session" would grant for each part.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommand, sessionScope, type ShellWrite } from '../../src/permission/shell-analysis.js';

const CWD = '/work/project';
const HOME = '/home/dev';

interface Row {
  command: string;
  readOnly: boolean;
  /** names of the simple commands found, in order */
  commands: string[];
  /** [target as written, via, absolute path if known] */
  writes?: [string, ShellWrite['via'], string?][];
  banned?: string;
  unanalysable?: boolean;
  /** the session scope of each simple command, for commands that ask */
  scopes?: string[];
}

const row = (
  command: string,
  readOnly: boolean,
  commands: string[],
  more: Omit<Row, 'command' | 'readOnly' | 'commands'> = {},
): Row => ({ command, readOnly, commands, ...more });

const CORPUS: Row[] = [
  // --- the cases the issue names
  row('ls && rm -rf ~', false, ['ls', 'rm'], { writes: [['~', 'other', HOME]], scopes: ['ls *', 'rm *'] }),
  row('ls; rm x', false, ['ls', 'rm'], { writes: [['x', 'other', `${CWD}/x`]], scopes: ['ls *', 'rm *'] }),
  row('echo x > ~/.bashrc', false, ['echo'], {
    writes: [['~/.bashrc', 'redirect', `${HOME}/.bashrc`]],
    scopes: ['echo *'],
  }),
  row('echo x >/dev/null', true, ['echo']),
  row('git branch', true, ['git']),
  row('git branch -D main', false, ['git'], { scopes: ['git branch *'] }),
  row('CI=true git commit -m x', false, ['git'], { scopes: ['git commit *'] }),
  row('sudo curl x', false, ['curl'], { banned: 'curl' }),
  row('/usr/bin/curl x', false, ['curl'], { banned: 'curl' }),
  row('X=1 wget x', false, ['wget'], { banned: 'wget' }),
  row('bash -c "curl x | sh"', false, ['curl', 'sh'], { banned: 'curl' }),
  row('git status && curl x | sh', false, ['git', 'curl', 'sh'], { banned: 'curl' }),
  row('ls $(rm -rf x)', false, ['ls', 'rm'], { writes: [['x', 'other', `${CWD}/x`]], scopes: ['ls *', 'rm *'] }),
  row('ls `rm x`', false, ['ls', 'rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('echo ok\nrm -rf x', false, ['echo', 'rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('timeout 5 rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]], scopes: ['rm *'] }),
  row('find . -delete', false, ['find'], { writes: [['.', 'other', CWD]], scopes: ['find *'] }),
  row('find . -exec rm {} \\;', false, ['find', 'rm'], { writes: [['{}', 'other']], scopes: ['find *', 'rm *'] }),
  row('cat a | tee b', false, ['cat', 'tee'], { writes: [['b', 'tee', `${CWD}/b`]] }),
  row('sed -i s/a/b/ f', false, ['sed'], { writes: [['f', 'sed -i', `${CWD}/f`]], scopes: ['sed *'] }),
  row('git log --output=x', false, ['git'], { writes: [['x', 'git --output', `${CWD}/x`]], scopes: ['git log *'] }),
  row('sort -o f f', false, ['sort'], { writes: [['f', 'sort -o', `${CWD}/f`]] }),
  row("echo 'unterminated", false, [], { unanalysable: true }),
  row('cat <<EOF\nhello $(whoami)\nEOF', true, ['cat', 'whoami']),
  row("cat <<'EOF'\n$(rm -rf x)\nEOF", true, ['cat']),
  row('cat <<EOF\n$(rm -rf x)\nEOF', false, ['cat', 'rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('diff <(ls a) <(ls b)', true, ['diff', 'ls', 'ls']),
  row('diff <(sort a) <(rm b)', false, ['diff', 'sort', 'rm'], { writes: [['b', 'other', `${CWD}/b`]] }),
  row('xargs rm', false, ['rm'], { writes: [['(files read by xargs)', 'other']], scopes: ['rm *'] }),
  row('eval "rm x"', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('env -i FOO=1 rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('nice -n 5 make', false, ['make'], { scopes: ['make'] }),
  row('command -v git', true, ['command']),
  row('cd dir && ls', true, ['cd', 'ls']),
  row('echo $(cat x)', true, ['echo', 'cat']),
  row('git -C sub status', true, ['git']),
  row('git --no-pager log', true, ['git']),
  row('npm test', false, ['npm'], { scopes: ['npm test *'] }),
  row('npm run build', false, ['npm'], { scopes: ['npm run build *'] }),
  row('cargo build --release', false, ['cargo'], { scopes: ['cargo build *'] }),
  row('kill 1', false, ['kill'], { scopes: ['kill *'] }),
  row('go test ./...', false, ['go'], { scopes: ['go test *'] }),

  // --- read-only lines
  row('ls -la | grep x | head -5', true, ['ls', 'grep', 'head']),
  row('git diff HEAD~1 -- src', true, ['git']),
  row('ps aux | grep node', true, ['ps', 'grep']),
  row('true && false || echo x', true, ['true', 'false', 'echo']),
  row('test -f x && echo yes', true, ['test', 'echo']),
  row('[[ -f x ]] && cat x', true, ['cat']),
  row('if [ -f x ]; then cat x; fi', true, ['[', 'cat']),
  row('for f in $(ls); do wc -l "$f"; done', true, ['wc', 'ls']),
  row('echo $((1 + 2))', true, ['echo']),
  row('ls 2>/dev/null', true, ['ls']),
  row('ls > /dev/stdout 2>&1', true, ['ls']),
  row('ls >&2', true, ['ls']),
  row('cat < input.txt', true, ['cat']),
  row('wc -w <<< "a b"', true, ['wc']),
  row('echo curl', true, ['echo']),
  row('', true, []),
  row('   \n  ', true, []),
  row('# only a comment', true, []),
  row('env', true, ['env']),
  row('printenv PATH', true, ['printenv']),
  row('set', true, ['set']),
  row('stdbuf -oL tail -n 5 log', true, ['tail']),
  row('timeout --signal=KILL 10s cat x', true, ['cat']),
  row('builtin cd x', true, ['cd']),
  row('GIT_PAGER=cat git log -5', true, ['git']),
  row('LANG=C sort names', true, ['sort']),
  row('node --version && python3 --version', true, ['node', 'python3']),
  row('go version', true, ['go']),
  row('go env GOPATH', true, ['go']),
  row('npm ls --depth 0', true, ['npm']),
  row('rg -n TODO src', true, ['rg']),
  row('date -u +%s', true, ['date']),
  row('date -Iseconds', true, ['date']),
  row('hostname', true, ['hostname']),
  row('find . -name "*.ts" | xargs grep -l TODO', true, ['find', 'grep']),
  row('find . -name "*.log" -exec grep -l x {} +', true, ['find', 'grep']),
  row('xargs', true, ['echo']),
  row('bash -lc "ls src"', true, ['ls']),
  row('cat ~/notes.txt', true, ['cat']),

  // --- git: listing forms only
  row('git branch -a', true, ['git']),
  row('git branch --list "feat*"', true, ['git']),
  row('git branch --contains HEAD', true, ['git']),
  row('git branch new-feature', false, ['git'], { scopes: ['git branch *'] }),
  row('git branch -m old new', false, ['git', '.git'], { writes: [['.git/config', 'other', `${CWD}/.git/config`]] }),
  row('git branch --set-upstream-to=origin/main', false, ['git', '.git'], {
    writes: [['.git/config', 'other', `${CWD}/.git/config`]],
  }),
  row('git tag', true, ['git']),
  row('git tag -l "v1*"', true, ['git']),
  row('git tag v1.0', false, ['git'], { scopes: ['git tag *'] }),
  row('git tag -d v1', false, ['git']),
  row('git remote -v', true, ['git']),
  row('git remote show origin', false, ['git'], { scopes: ['git remote show *'] }),
  row('git remote set-url origin x', false, ['git', '.git'], {
    writes: [['.git/config', 'other', `${CWD}/.git/config`]],
    scopes: ['git remote set-url *', 'other *'],
  }),
  row('git config --get user.name', true, ['git']),
  row('git config --list', true, ['git']),
  row('git config user.name Bob', false, ['git', '.git'], {
    writes: [['.git/config', 'other', `${CWD}/.git/config`]],
    scopes: ['git config user.name *', 'other *'],
  }),
  row('git stash list', true, ['git']),
  row('git stash', false, ['git'], { scopes: ['git stash'] }),
  row('git -c core.pager=sh log', false, ['git']),
  row('git ls-remote origin', false, ['git']),
  row('git grep -O TODO', false, ['git']),
  row('git -C sub log --output=x', false, ['git'], { writes: [['x', 'git --output', `${CWD}/sub/x`]] }),

  // --- not read-only in themselves
  row('kill -9 $(pgrep node)', false, ['kill', 'pgrep']),
  row('killall node', false, ['killall']),
  row('go run .', false, ['go'], { scopes: ['go run *'] }),
  row('go mod tidy', false, ['go'], { scopes: ['go mod tidy *'] }),
  row('go env -w GOFLAGS=x', false, ['go']),
  row('python -m pytest -x', false, ['python'], { scopes: ['python -m pytest *'] }),
  row('python3 scripts/gen.py', false, ['python3'], { scopes: ['python3 scripts/gen.py *'] }),
  row('env rm -rf x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('set -e', false, ['set']),
  row('nohup npm start &', false, ['npm'], { scopes: ['npm start *'] }),
  row('time npm test', false, ['npm'], { scopes: ['npm test *'] }),
  row('/usr/bin/time -o t.txt make test', false, ['make'], {
    writes: [['t.txt', 'other', `${CWD}/t.txt`]],
    scopes: ['make test *'],
  }),
  row('sudo ls', false, ['ls'], { scopes: ['ls *'] }),
  row('sudo -u www-data rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('doas rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('exec rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('command rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('sudo -l', false, ['sudo']),
  row('PATH=/tmp/evil:$PATH ls', false, ['ls']),
  row('GIT_EXTERNAL_DIFF=./x git diff', false, ['git']),
  row('X=1', false, []),
  row('export FOO=1', false, ['export']),
  row('sh -c "ls && rm x"', false, ['ls', 'rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('bash script.sh', false, ['bash'], { scopes: ['bash script.sh *'] }),
  row('sh <<< "rm -rf /"', false, ['rm'], { writes: [['/', 'other', '/']] }),
  row('echo "rm x" | sh', false, ['echo', 'sh'], { scopes: ['echo *', 'sh'] }),
  row('find . | xargs git branch', false, ['find', 'git']),
  // the string is analysed; the sh is opaque code, for xargs puts its input into the string
  row('xargs -I{} sh -c "rm {}"', false, ['sh', 'rm'], { writes: [['{}', 'other', `${CWD}/{}`]] }),
  row('trap "rm -f lock" EXIT', false, ['rm'], { writes: [['lock', 'other', `${CWD}/lock`]] }),
  row('while read l; do echo "$l"; done < f', true, ['read', 'echo']), // read only sets a variable (needless asks)
  row('case $x in a) rm y;; esac', false, ['rm'], { writes: [['y', 'other', `${CWD}/y`]] }),
  row('f() { rm -rf x; }; f', false, ['rm', 'f'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('coproc rm x', false, ['rm'], { writes: [['x', 'other', `${CWD}/x`]] }),
  row('echo "${x:-$(rm y)}"', false, ['echo', 'rm'], { writes: [['y', 'other', `${CWD}/y`]] }),
  row('git log | less', false, ['git', 'less']),
  row("awk '{print}' f", true, ['awk']), // a program that only reads and prints (awk is looked at)
  row('npm view react', false, ['npm'], { scopes: ['npm view *'] }),
  row('rg --pre=./x TODO', false, ['rg']),
  row('date -s "2020-01-01"', false, ['date']),
  row('hostname newname', false, ['hostname']),
  row('uniq a b', false, ['uniq'], { writes: [['b', 'other', `${CWD}/b`]] }), // uniq's second file is its output
  row('ls-evil', false, ['ls-evil'], { scopes: ['ls-evil *'] }),
  row('constructor x && __proto__ y', false, ['constructor', '__proto__'], {
    scopes: ['constructor *', '__proto__ *'],
  }),
  row('docker compose up -d', false, ['docker'], { scopes: ['docker compose up *'] }),
  row('kubectl -n prod get pods', false, ['kubectl'], { scopes: ['kubectl -n prod get *'] }),
  row('make', false, ['make'], { scopes: ['make'] }),
  row('yarn workspace app build', false, ['yarn'], { scopes: ['yarn workspace app build *'] }),

  // --- writes
  row('{ ls; echo hi; } > out.txt', false, ['ls', 'echo'], { writes: [['out.txt', 'redirect', `${CWD}/out.txt`]] }),
  row('ls &> log', false, ['ls'], { writes: [['log', 'redirect', `${CWD}/log`]] }),
  row('ls 2>>err.log', false, ['ls'], { writes: [['err.log', 'redirect', `${CWD}/err.log`]] }),
  row('ls >& out', false, ['ls'], { writes: [['out', 'redirect', `${CWD}/out`]] }),
  row('ls >| out', false, ['ls'], { writes: [['out', 'redirect', `${CWD}/out`]] }),
  row('echo x >> "$HOME/.bashrc"', false, ['echo'], { writes: [['"$HOME/.bashrc"', 'redirect']] }),
  row('echo x > /etc/hosts', false, ['echo'], { writes: [['/etc/hosts', 'redirect', '/etc/hosts']] }),
  row('echo x > $(mktemp)', false, ['echo', 'mktemp'], {
    writes: [
      ['$(mktemp)', 'redirect'],
      ['$TMPDIR (mktemp)', 'other'],
    ],
  }), // mktemp creates a file in $TMPDIR
  row('ls | sudo tee /etc/hosts', false, ['ls', 'tee'], { writes: [['/etc/hosts', 'tee', '/etc/hosts']] }),
  row('tee -a log', false, ['tee'], { writes: [['log', 'tee', `${CWD}/log`]] }),
  row('echo hi | tee >(cat) out', false, ['echo', 'tee', 'cat'], { writes: [['out', 'tee', `${CWD}/out`]] }),
  row('cd .. && echo x > f', false, ['cd', 'echo'], { writes: [['f', 'redirect', '/work/f']] }),
  row('(cd /tmp && rm -rf x); rm y', false, ['cd', 'rm', 'rm'], {
    writes: [
      ['x', 'other', '/tmp/x'],
      ['y', 'other', `${CWD}/y`],
    ],
  }),
  row('cd "$DIR" && echo x > f', false, ['cd', 'echo'], { writes: [['f', 'redirect']] }),
  row('sed -n "1,20p" file.txt', true, ['sed']),
  row('sed "s/a/b/g" f', true, ['sed']),
  row('sed -e 1d -e "s/x/y/" f', true, ['sed']),
  row('sed "s/a/b/w out" f', false, ['sed'], { writes: [['out', 'sed w', `${CWD}/out`]] }), // the w flag writes a file
  row("sed -ni 's/a/b/p' f", false, ['sed'], { writes: [['f', 'sed -i', `${CWD}/f`]] }),
  row("sed -i '' 's/a/b/' f", false, ['sed'], { writes: [['f', 'sed -i', `${CWD}/f`]] }),
  row('sort --output=sorted names', false, ['sort'], { writes: [['sorted', 'sort -o', `${CWD}/sorted`]] }),
  row('sort -uo s names', false, ['sort'], { writes: [['s', 'sort -o', `${CWD}/s`]] }),
  row('find . -fprint out.txt', false, ['find'], { writes: [['out.txt', 'other', `${CWD}/out.txt`]] }),
  row('cp a b', false, ['cp'], { writes: [['b', 'other', `${CWD}/b`]], scopes: ['cp *'] }),
  row('mv a b', false, ['mv'], {
    writes: [
      ['a', 'other', `${CWD}/a`],
      ['b', 'other', `${CWD}/b`],
    ],
  }),
  row('cp -t dest a b', false, ['cp'], { writes: [['dest', 'other', `${CWD}/dest`]] }),
  row('mkdir -p build/x', false, ['mkdir'], { writes: [['build/x', 'other', `${CWD}/build/x`]] }),
  row('chmod +x run.sh', false, ['chmod'], { writes: [['run.sh', 'other', `${CWD}/run.sh`]] }),
  row('ln -s /a link', false, ['ln'], { writes: [['link', 'other', `${CWD}/link`]] }),
  row('rm -rf /', false, ['rm'], { writes: [['/', 'other', '/']] }),
  row('for f in *.ts; do rm "$f"; done', false, ['rm'], { writes: [['"$f"', 'other']] }),
  row('dd if=/dev/zero of=disk.img bs=1M count=1', false, ['dd'], {
    writes: [['disk.img', 'other', `${CWD}/disk.img`]],
  }),

  // --- banned, wherever it hides
  row('curl https://example.com', false, ['curl'], { banned: 'curl' }),
  row("c''url x", false, ['curl'], { banned: 'curl' }),
  row('\\curl x', false, ['curl'], { banned: 'curl' }),
  row("$'\\x63url' x", false, ['curl'], { banned: 'curl' }),
  row('CURL x', false, ['CURL'], { banned: 'curl' }),
  row('nc -l 4444', false, ['nc'], { banned: 'nc' }),
  row('alias ll="ls -l"', false, ['alias'], { banned: 'alias' }),
  row('zsh -c "curl x"', false, ['curl'], { banned: 'curl' }),
  row('bash <<EOF\nwget x\nEOF', false, ['wget'], { banned: 'wget' }),
  row('find . -execdir sh -c "curl x" \\;', false, ['find', 'curl'], { banned: 'curl' }),
  row('echo $(wget -qO- x)', false, ['echo', 'wget'], { banned: 'wget' }),
  row('timeout 5 env X=1 nice -n 3 /usr/bin/curl x', false, ['curl'], { banned: 'curl' }),
  row("curl 'unterminated", false, [], { banned: 'curl', unanalysable: true }),

  // --- what cannot be seen through
  row('ls &&', false, [], { unanalysable: true }),
  row('echo $(', false, [], { unanalysable: true }),
  row('$CMD x', false, [], { unanalysable: true }),
  row('{curl,x}', false, [], { unanalysable: true }),
  row('/usr/bin/cur? x', false, [], { unanalysable: true }),
  row('"$(echo rm)" -rf x', false, ['echo'], { unanalysable: true }),
  row('eval "$CODE"', false, [], { unanalysable: true }),
  row('bash -c "$CODE"', false, [], { unanalysable: true }),
  row('env -S "rm x"', false, [], { unanalysable: true }),
  row('timeout --bogus 5 rm x', false, [], { unanalysable: true }),
  row('bash -c "echo \'x"', false, [], { unanalysable: true }),
];

describe('shell analysis corpus', () => {
  it('has at least 80 commands', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CORPUS.map((r) => r.command)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((r) => [JSON.stringify(r.command), r] as const))('%s', (_, r) => {
    const analysis = analyzeCommand(r.command, { cwd: CWD, home: HOME });
    expect(analysis.commands.map((c) => c.name)).toEqual(r.commands);
    expect(analysis.readOnly).toBe(r.readOnly);
    expect(analysis.banned?.name).toBe(r.banned);
    expect(analysis.unanalysable !== undefined).toBe(r.unanalysable ?? false);
    const writes = analysis.writes.map((w) => (w.path === undefined ? [w.target, w.via] : [w.target, w.via, w.path]));
    expect(writes).toEqual(r.writes ?? []);
    if (r.scopes) expect(analysis.commands.map(sessionScope)).toEqual(r.scopes);
  });
});
