/**
 * Writes outside the project that the analysis missed, as a table: each command with
 * its decision under (a) no rules, (b) a set of deny rules, (c) everything allowed but `rm`. A write
 * outside the project, or to a place that cannot be known, asks every time ("always": no rule and
 * no session grant reaches it), whatever the rules. In-project twins show the same forms are not
 * over-asked when the rules allow them.
 *
 * Decisions: `allow`; `ask` (a rule or a session grant could allow it); `always` (asks whatever the
 * rules: outside the project, an unknown place, or code the check cannot see); `deny`.
 */
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission, projectPathCheck } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

const RULE_SETS: Record<'none' | 'deny' | 'allowAll', PermissionSetting | undefined> = {
  none: undefined,
  deny: { bash: { 'git push*': 'deny', 'npm publish*': 'deny', 'rm -rf*': 'deny' } },
  allowAll: { bash: { '*': 'allow', 'rm *': 'deny' } },
};

type Decision = 'allow' | 'ask' | 'always' | 'deny';

async function decide(
  command: string,
  setting: PermissionSetting | undefined,
  where = { cwd: CWD, home: HOME },
  inside?: (path: string) => boolean,
): Promise<Decision | `banned ${string}`> {
  const { analysis, subject } = await analyseForPermission(command, { ...where, pathEnv: '' });
  if (analysis.banned) return `banned ${analysis.banned.name}`;
  const verdict = evaluatePermission('bash', subject, {
    rules: permissionRules(setting),
    grants: [],
    cwd: where.cwd,
    ...(inside && { isInsideProject: inside }),
  });
  if (verdict.action !== 'ask') return verdict.action;
  // asks every time: nothing beyond this call can be granted and no rule can allow it
  const always = verdict.reasons.some((r) =>
    /outside the project|cannot be known|could not be analysed|runs code the check cannot see/.test(r),
  );
  return always ? 'always' : 'ask';
}

/** [command, [no rules, deny rules, allow all]] */
type Row = [string, [Decision, Decision, Decision]];
const ALWAYS: [Decision, Decision, Decision] = ['always', 'always', 'always'];

const CORPUS: Record<string, Row[]> = {
  'the target given as an option': [
    ['cp -t /tmp/x a', ALWAYS],
    ['cp --target-directory=/tmp/x a b', ALWAYS],
    ['cp --target=/tmp/x a', ALWAYS], // getopt_long: a unique prefix of --target-directory
    ['cp -vt/tmp/x a', ALWAYS],
    ['cp -v -t ~ a', ALWAYS],
    ['install -t /usr/local/bin tool', ALWAYS],
    ['install -m 755 tool /usr/local/bin/tool', ALWAYS],
    ['install -d /opt/x', ALWAYS],
    ['mv -t /tmp a', ALWAYS],
    ['mv --target-dir=/tmp a', ALWAYS],
    ['ln -t /tmp a', ALWAYS],
    ['ln -s "$PWD/a" /usr/local/bin/a', ALWAYS],
    ['cp -t build a b', ['ask', 'ask', 'allow']],
    ['mv --target=build a', ['ask', 'ask', 'allow']],
  ],
  'abbreviated long options and in-place editing': [
    ['sed --in-pl s/a/b/ /etc/hosts', ALWAYS],
    ['sed --in-place=.bak s/a/b/ ~/.bashrc', ALWAYS],
    ['sed --i s/a/b/ /etc/hosts', ALWAYS],
    ['sed -i.bak s/a/b/ ../other/f', ALWAYS],
    ['sort --out=/tmp/x names', ALWAYS],
    ['sort -uo/tmp/x names', ALWAYS],
    ['git log --out=/tmp/log', ALWAYS],
    ['git diff --output /tmp/d', ALWAYS],
    ['shuf -o /tmp/x names', ALWAYS],
    ['iconv -f latin1 -t utf8 -o /tmp/x f', ALWAYS],
    ['sed --in-pl s/a/b/ f', ['ask', 'ask', 'allow']],
    ['sort --out=sorted names', ['ask', 'ask', 'allow']],
  ],
  'sed scripts that write': [
    ["sed 's/a/b/w /tmp/out' f", ALWAYS],
    ["sed -n 'w /tmp/out' f", ALWAYS],
    ["sed -n '/x/W /tmp/out' f", ALWAYS],
    ["sed -e 's/a/b/gw ../out' f", ALWAYS],
    ["sed -n '1,5{w /tmp/out\n}' f", ALWAYS],
    ["sed 's/a/b/w out' f", ['ask', 'ask', 'allow']],
    ["sed -n 'w /dev/stdout' f", ['ask', 'ask', 'allow']], // sed's own output stream, not a file
  ],
  'find that deletes or writes': [
    ['find -L /tmp/x -delete', ALWAYS],
    ['find -H /tmp -name "*.log" -delete', ALWAYS],
    ['find -P -O2 /var/tmp -delete', ALWAYS],
    ['find . -fprint /tmp/list', ALWAYS],
    ['find . -fls ../list', ALWAYS],
    ['find . -fprintf /tmp/l "%p"', ALWAYS],
    ['find -L build -name "*.o" -delete', ['ask', 'ask', 'allow']],
  ],
  'git that writes outside': [
    ['git archive -o /tmp/a.tar HEAD', ALWAYS],
    ['git archive --output=/tmp/a.tar HEAD', ALWAYS],
    ['git config --global user.name x', ALWAYS], // ~/.gitconfig
    ['git config --system core.editor vim', ALWAYS],
    ['git config --file /tmp/c a.b c', ALWAYS],
    ['git clone https://example.com/a/b.git /tmp/b', ALWAYS],
    ['git init /tmp/r', ALWAYS],
    ['git worktree add /tmp/w main', ALWAYS],
    ['git format-patch -o /tmp/p HEAD~1', ALWAYS],
    ['git bundle create /tmp/r.bundle HEAD', ALWAYS],
    ['git submodule add https://example.com/x.git /tmp/x', ALWAYS],
    ['git config --global --get user.name', ['allow', 'allow', 'allow']], // reading
    ['git clone https://example.com/a/b.git vendor/b', ['ask', 'ask', 'allow']],
    ['git worktree add ../wt main', ALWAYS],
  ],
  'programs the table knows to write': [
    ['tar -C /tmp -xf a.tar', ALWAYS],
    ['tar xf a.tar -C /tmp', ALWAYS],
    ['tar --directory=/tmp -xzf a.tgz', ALWAYS],
    ['tar -czf /tmp/a.tgz src', ALWAYS],
    ['tar cf ../a.tar src', ALWAYS],
    ['tar -xPf a.tar', ALWAYS], // absolute names inside the archive
    ['zip -r /tmp/a.zip src', ALWAYS],
    ['unzip a.zip -d /tmp/x', ALWAYS],
    ['gzip /tmp/log', ALWAYS],
    ['gunzip ~/x.gz', ALWAYS],
    ['xz -d /tmp/a.xz', ALWAYS],
    ['split -l 10 big /tmp/part-', ALWAYS],
    ['csplit -f /tmp/p f /x/', ALWAYS],
    ['mktemp', ALWAYS],
    ['mktemp -d', ALWAYS],
    ['mktemp -t x.XXXX', ALWAYS],
    ['sqlite3 /tmp/x.db "create table t(a)"', ALWAYS],
    ['sqlite3 app.db "attach \'/tmp/y.db\' as y"', ALWAYS],
    ['sqlite3 app.db ".output /tmp/dump"', ALWAYS],
    ['sqlite3 app.db < schema.sql', ALWAYS], // SQL read from input can attach any file
    ['uniq names /tmp/out', ALWAYS],
    ['xxd -r dump /tmp/bin', ALWAYS],
    ['dd if=a of=/tmp/b', ALWAYS],
    ['rsync -a src/ /tmp/dest', ALWAYS],
    ['npm ls --cache=/tmp/c', ALWAYS],
    ['npm root --logs-dir=/tmp/l', ALWAYS],
    ['npm install --prefix /tmp/x', ALWAYS],
    ['npm install -g typescript', ALWAYS],
    ['npm config set registry http://x', ALWAYS], // ~/.npmrc
    ['pip install --target /tmp/x requests', ALWAYS],
    ['pip install --targ=/tmp/x requests', ALWAYS],
    ['pip install --user requests', ALWAYS],
    ['pip download -d /tmp/x requests', ALWAYS],
    ['go install golang.org/x/tools/gopls@latest', ALWAYS], // ~/go/bin
    ['cargo install ripgrep', ALWAYS],
    ['pip config set global.index-url http://x', ALWAYS],
    ['yarn config set registry http://x', ALWAYS],
    ['rustup default nightly', ALWAYS],
    ['brew install jq', ALWAYS],
    ['rustup show', ['ask', 'ask', 'allow']], // a listing form
    ['go test ./...', ['ask', 'ask', 'allow']],
    ['tar -C build -xf a.tar', ['ask', 'ask', 'ask']], // the archive names the files: only a rule naming tar allows it
    ['zip -r dist/a.zip src', ['ask', 'ask', 'allow']],
    ['mktemp -p . x.XXXX', ['ask', 'ask', 'allow']],
    ['gzip build/log', ['ask', 'ask', 'allow']],
    ['npm install', ['ask', 'ask', 'allow']],
  ],
  'programs the analysis does not know: a path argument outside': [
    ['python3 tool.py --out=/tmp/x', ALWAYS],
    ['node build.js ../outside/x', ALWAYS],
    ['./gen -o/tmp/out', ALWAYS],
    ['cargo build --target-dir /tmp/t', ALWAYS],
    ['make install PREFIX=~/x', ALWAYS], // bash expands ~ after the = of an assignment-like argument: make gets /home/u/x
    ['make install "PREFIX=~/x"', ['ask', 'ask', 'allow']], // quoted: make gets the text ~/x
    ['dd if=a of=~/b', ALWAYS],
    ['./gen "$HOME/.config/x"', ALWAYS],
    ['python3 tool.py --out=build/x', ['ask', 'ask', 'allow']],
    ['curl-like-tool https://example.com/a/b', ['ask', 'ask', 'allow']], // a URL is not a path
  ],
  'the directory a command runs in': [
    ['cd /tmp && make', ALWAYS],
    ['(cd /tmp; npm install)', ALWAYS],
    ['pushd /tmp && ./configure', ALWAYS],
    ['env -C /tmp make', ALWAYS],
    ['make -C /tmp/x', ALWAYS],
    ['cd "$D" && make', ALWAYS],
    ['f(){ cd /tmp; }; f; echo x > y', ALWAYS],
    ['f() { cd /tmp; }; f && touch y', ALWAYS],
    ['g() { echo x > out; }; cd /tmp; g', ALWAYS],
    ['shopt -s cdable_vars; cd d; echo x > y', ALWAYS],
    ['export CDPATH=/tmp; cd sub; echo x > y', ALWAYS],
    ['cd sub && make', ['ask', 'ask', 'allow']],
    ['f(){ cd sub; }; f; echo x > y', ['ask', 'ask', 'allow']],
  ],
  'expansions that may be options or scripts': [
    ['cp "$X" a b', ALWAYS], // X=-t/tmp
    ['sort $OPTS names', ALWAYS], // OPTS=-o/tmp/x
    ['git log "$X"', ALWAYS], // X=--output=/tmp/x
    ['sed "$S" f', ALWAYS], // S='w /tmp/x'
    ['dd $ARGS', ALWAYS], // ARGS=of=/tmp/x
    ['find . $ACTION', ALWAYS], // ACTION=-delete, or -fprint with a file
    ['tar $FLAGS a.tar', ALWAYS],
    ['git commit -m "$MSG"', ['ask', 'ask', 'allow']],
    ['cp -- "$f" build/', ['ask', 'ask', 'allow']], // after --, only a file
    ['find . -name "$P"', ['ask', 'ask', 'allow']],
  ],
  'links made in the same line': [
    ['ln -s /outside L && echo x > L/n', ALWAYS],
    ['ln -s /etc L; echo x >> L/passwd', ALWAYS],
    ['ln -sf ~/.bashrc rc && echo x >> rc', ALWAYS],
    ['cp -s /etc/passwd p && echo x >> p', ALWAYS],
    ['ln -s /outside L && cd L && touch n', ALWAYS],
    ['git clone https://example.com/r.git r && echo x > r/link', ALWAYS], // a clone may hold links
    ['tar xf a.tar && echo x >> notes', ALWAYS], // so may an archive
    ['cp -l /etc/passwd p && echo x >> p', ALWAYS], // a hard link
    ['cp -a /etc/skel s && echo x > s/.bashrc', ALWAYS], // -a copies links as links
    ['rsync -a /etc/ e && echo x > e/hosts', ALWAYS],
    ['for CDPATH in /tmp; do cd sub; echo x > y; done', ALWAYS],
    ['git checkout b && echo x >> notes', ALWAYS], // the branch may hold notes -> ~/.bashrc
    ['git pull && echo x > log.txt', ALWAYS],
    ['git worktree add w && echo x > w/y', ALWAYS],
    ['git checkout b', ['ask', 'ask', 'ask']], // the branch decides the files written: only a rule naming git allows it
    ['git stash && echo x > y', ['ask', 'ask', 'allow']],
    ['ln -s src L && echo x > other', ['ask', 'ask', 'allow']],
    ['cp a b && echo x > b2', ['ask', 'ask', 'allow']],
  ],
};

describe('writes outside the project ask, whatever the rules', () => {
  const rows = Object.entries(CORPUS).flatMap(([kind, list]) =>
    list.map(([command, expected]) => [kind, command, expected] as const),
  );

  it('holds several examples of each kind, each once', () => {
    for (const list of Object.values(CORPUS)) expect(list.length).toBeGreaterThanOrEqual(6);
    expect(new Set(rows.map(([, command]) => command)).size).toBe(rows.length);
  });

  it.each(rows)('%s: %j → %j', async (_, command, expected) => {
    const got = [
      await decide(command, RULE_SETS.none),
      await decide(command, RULE_SETS.deny),
      await decide(command, RULE_SETS.allowAll),
    ];
    expect(got).toEqual(expected);
  });
});

describe('what the person is told', () => {
  it('names the outside place', async () => {
    const { subject } = await analyseForPermission('cp --target=/tmp/x a', { cwd: CWD, home: HOME });
    const verdict = evaluatePermission('bash', subject, {
      rules: permissionRules(RULE_SETS.allowAll),
      grants: [],
      cwd: CWD,
    });
    expect(verdict).toEqual({
      action: 'ask',
      scopes: [],
      grants: [],
      reasons: ['writes outside the project: /tmp/x'],
      beyondRules: ['writes outside the project: /tmp/x'],
      // the sandbox refuses it even when approved: Run outside the sandbox is offered at once
      leavesSandbox: true,
    });
  });

  it('says a place is unknown and why', async () => {
    const { subject } = await analyseForPermission('mktemp -d', { cwd: CWD, home: HOME });
    const verdict = evaluatePermission('bash', subject, {
      rules: permissionRules(RULE_SETS.allowAll),
      grants: [],
      cwd: CWD,
    });
    expect(verdict).toEqual({
      action: 'ask',
      scopes: [],
      grants: [],
      reasons: ['writes to a place that cannot be known before it runs: $TMPDIR (mktemp)'],
      beyondRules: ['writes to a place that cannot be known before it runs: $TMPDIR (mktemp)'],
    });
  });
});

describe('hard links: a file in the project may be another name of one outside it', () => {
  let root: string;
  let project: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-hardlink-')));
    project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(join(root, 'secret'), 'outside\n');
    linkSync(join(root, 'secret'), join(project, 'notes')); // two names, one file
    writeFileSync(join(project, 'plain'), 'inside\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const decideHere = (command: string, setting: PermissionSetting | undefined) =>
    decide(command, setting, { cwd: project, home: HOME }, projectPathCheck(project));

  it.each<Row>([
    ['echo x >> notes', ALWAYS],
    ['echo x > notes', ALWAYS],
    ['cat a | tee -a notes', ALWAYS],
    ['cp a notes', ALWAYS],
    ['echo x >> plain', ['ask', 'ask', 'allow']],
    ['echo x > new-file', ['ask', 'ask', 'allow']],
  ])('%j → %j', async (command, expected) => {
    const got = [
      await decideHere(command, RULE_SETS.none),
      await decideHere(command, RULE_SETS.deny),
      await decideHere(command, RULE_SETS.allowAll),
    ];
    expect(got).toEqual(expected);
  });

  it('tells why', async () => {
    const { subject } = await analyseForPermission('echo x >> notes', { cwd: project, home: HOME });
    const verdict = evaluatePermission('bash', subject, {
      rules: permissionRules(RULE_SETS.allowAll),
      grants: [],
      cwd: project,
      isInsideProject: projectPathCheck(project),
    });
    expect(verdict.action === 'ask' && verdict.reasons).toEqual([
      'writes to a place that cannot be known before it runs: notes (a file with 2 names: the others may be outside the project)',
    ]);
  });
});

describe('a shell an earlier command left outside the project', () => {
  const decideIn = async (
    shellDir: string,
    command: string,
    setting: PermissionSetting | undefined,
  ): Promise<Decision> => {
    const { subject } = await analyseForPermission(command, {
      cwd: shellDir,
      home: HOME,
      pathEnv: '',
      projectDir: CWD,
    });
    const verdict = evaluatePermission('bash', subject, { rules: permissionRules(setting), grants: [], cwd: CWD });
    if (verdict.action !== 'ask') return verdict.action;
    return verdict.reasons.some((r) => /outside the project|cannot be known|runs code/.test(r)) ? 'always' : 'ask';
  };

  it.each<[string, string, [Decision, Decision, Decision]]>([
    ['/tmp', 'make', ALWAYS], // make writes where it runs: /tmp
    ['/tmp', 'npm install', ALWAYS],
    ['/tmp', 'echo x > y', ALWAYS],
    ['/tmp', 'ls -la', ['allow', 'allow', 'allow']], // reading is fine anywhere
    ['/tmp', 'rm -rf ~/x', ['always', 'deny', 'deny']], // a deny rule still denies
    [`${CWD}/sub`, 'make', ['ask', 'ask', 'allow']], // a folder of the project
  ])('in %s: %j → %j', async (shellDir, command, expected) => {
    const got = [
      await decideIn(shellDir, command, RULE_SETS.none),
      await decideIn(shellDir, command, RULE_SETS.deny),
      await decideIn(shellDir, command, RULE_SETS.allowAll),
    ];
    expect(got).toEqual(expected);
  });
});
