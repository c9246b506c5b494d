/**
 * A breaker's corpus: new variants of each class of bypass, written the way an outside
 * tester would try them — `command`/`exec`/`time --` prefixes, `env -S`, `$'…'` and concatenated
 * quoting, brace expansion, aliases and functions shadowing names, busybox shells, here-strings and
 * here-documents into interpreters, process substitution, `${x@P}` prompt expansion, `for PATH in`,
 * `unset PATH`, `HOME=… git`, `LESS='+!…'`, `pnpm dlx`/`yarn dlx`/`npm x`, git's spellings and
 * options, writes outside through redirections, `tee -a`, `dd of=`, option targets, remote copies and
 * `history -w`, and the reverse: plainly read-only commands that must not ask.
 *
 * The rows live in `breaker-corpus/`, by class. Each row: [command, (a) no rules, (b) deny rules, (c)
 * allow-all], as in `shell-opaque-corpus.test.ts`:
 *   (a) no rules; (b) {"rm *": "deny", "git push*": "deny", "curl*": "deny"}; (c) {"*": "allow", "rm *": "deny"}.
 * `banned` is the bash tool's refusal before any rule. Rows that `allow` under (c) are harmless by
 * design: a program file (`python3 -m http.server`, `bash < script.sh`, `make -f ../Makefile`) or
 * project script run by path is what `*` allows; `test 1 -lt 'a[$(…)]'` and `shift 'a[$(…)]'`
 * do not evaluate arithmetic (checked against bash 5.2); a project's own task runner (`just x`, `go run
 * ./x`, `docker run`) runs the project's code, as `*` allows.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import { BREAKER_ROWS_CODE } from './breaker-corpus/code.js';
import { BREAKER_ROWS_MORE } from './breaker-corpus/more.js';
import type { BreakerDecision, BreakerRow } from './breaker-corpus/types.js';
import { BREAKER_ROWS_WRAPPERS } from './breaker-corpus/wrappers.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

const RULE_SETS: Record<'none' | 'deny' | 'allowAll', PermissionSetting | undefined> = {
  none: undefined,
  deny: { bash: { 'rm *': 'deny', 'git push*': 'deny', 'curl*': 'deny' } },
  allowAll: { bash: { '*': 'allow', 'rm *': 'deny' } },
};
const RULE_SET_NAMES = ['none', 'deny', 'allowAll'] as const;

type Decision = BreakerDecision;

async function decide(command: string, setting: PermissionSetting | undefined): Promise<Decision> {
  // an empty PATH: the rows are about the analysis; program identity has its own test
  const { analysis, subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
  if (analysis.banned) return 'banned';
  return evaluatePermission('bash', subject, { rules: permissionRules(setting), grants: [], cwd: CWD }).action;
}

/**
 * The decisions under each of {@link RULE_SET_NAMES}, in order. The analysis takes no rules, so one
 * analysis serves the three rule sets (it is the costly part: a parse and a walk of the command).
 */
async function decideUnderEach(command: string): Promise<Decision[]> {
  const { analysis, subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
  if (analysis.banned) return RULE_SET_NAMES.map(() => 'banned');
  return RULE_SET_NAMES.map(
    (name) =>
      evaluatePermission('bash', subject, { rules: permissionRules(RULE_SETS[name]), grants: [], cwd: CWD }).action,
  );
}

type Row = BreakerRow;

const CORPUS: Record<string, Row[]> = { ...BREAKER_ROWS_CODE, ...BREAKER_ROWS_WRAPPERS, ...BREAKER_ROWS_MORE };

/**
 * Plainly read-only commands of the reverse class that still ask with no rules, each with why. Not in
 * the read-only corpus's count (`shell-read-only-corpus.test.ts`): they reach the network, may write a
 * cache or lock file, or run a program the check cannot see.
 */
const KNOWN_ASKS: [string, Decision, string][] = [
  ['npm view react version', 'ask', "writes npm's cache"],
  ['npm outdated', 'ask', "asks the registry and writes npm's cache"],
  ['rustup show', 'ask', 'installs the toolchain rust-toolchain.toml names'],
  ['cat f | less', 'ask', 'as less'],
  ['less f', 'ask', 'less keeps ~/.lesshst and runs the LESSOPEN preprocessor'],
  ['more f', 'ask', 'as less'],
  ["yq '.a' f.yaml", 'ask', 'yq -i edits in place and its expressions can load files: not in the table'],
  ['git remote show origin', 'ask', 'contacts the remote (runs the ssh of the configuration)'],
  ['npm audit', 'ask', 'sends the dependency list to the registry; `npm audit fix` writes'],
  ['npm bin', 'ask', 'removed from npm 9; not in the table'],
  ['pip index versions requests', 'ask', 'asks the network; not in the table'],
  ['cargo tree', 'ask', 'may resolve dependencies and write Cargo.lock'],
  ['cargo metadata --format-version 1', 'ask', 'may resolve dependencies and write Cargo.lock'],
  ['kubectl get pods', 'ask', "kubeconfig's exec credential plugins run programs"],
  ['curl --version', 'banned', 'curl is banned by name, whatever its arguments'],
  ['tldr tar', 'ask', 'downloads and writes its page cache'],
  ['identify img.png', 'ask', "ImageMagick's delegates run programs for some formats"],
  ['exiftool img.jpg', 'ask', 'writes tags with -TAG=value and -o; not in the table'],
  ['ldd /bin/ls', 'ask', 'ldd may run the program it inspects'],
  ['dust', 'ask', 'not a common tool; not in the table'],
  ['ncdu -o- .', 'ask', 'not a common tool; -o writes its export'],
  [
    'openssl x509 -in cert.pem -noout -text',
    'ask',
    'openssl subcommands write files with -out; only `openssl version` is in the table',
  ],
  ['gpg --list-keys', 'ask', 'creates and updates ~/.gnupg (trustdb) on first use'],
  ['sqlite3 --version', 'ask', "sqlite3's row treats every use as possibly writing files its SQL names"],
  ['alias', 'banned', 'alias is banned by name (aliases hide what a command does)'],
];

describe.each(Object.entries(CORPUS))('%s', (_, rows) => {
  it.each(rows)('%j → %s, %s, %s', async (command, ...expected) => {
    expect(await decideUnderEach(command)).toEqual(expected);
  });
});

describe('read-only commands that still ask, and why', () => {
  it.each(KNOWN_ASKS)('%j → %s (%s)', async (command, expected) => {
    expect(await decide(command, undefined)).toBe(expected);
  });

  it('fewer than 1 in 5 of the reverse class still asks, each listed with a reason', () => {
    const reverse = CORPUS['plainly read-only: the reverse (must not ask)']!;
    expect(reverse.every(([, none]) => none === 'allow')).toBe(true);
    expect(KNOWN_ASKS.length * 5).toBeLessThan(reverse.length + KNOWN_ASKS.length);
  });
});
