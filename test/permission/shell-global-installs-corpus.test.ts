/**
 * Commands that write outside the project without naming a path, or run as another user: package
 * managers' global and user installs (`pnpm add -g`, `bun install -g`, `deno install -g`, `npm link`,
 * `uv tool install`, `python3 -m pip install --user`) and `sudo`, `su -c`, `doas`, `pkexec`, `run0`.
 * Each asks whatever the rules allow, with the reason as one the rules cannot lift; a sandboxed one is
 * offered to run outside the sandbox at once (it cannot work inside). Their listing forms stay
 * allowed by a wildcard rule.
 *
 * Each row: [command, (a) no rules, (b) deny rules, (c) allow-all], as in `shell-unseen-classes-corpus.test.ts`.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { permissionChoices } from '../../src/permission/choices.js';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionDecision } from '../../src/permission/types.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

const RULE_SETS: Record<'none' | 'deny' | 'allowAll', PermissionSetting | undefined> = {
  none: undefined,
  deny: { bash: { 'rm *': 'deny', 'git push*': 'deny', 'curl*': 'deny' } },
  allowAll: { bash: { '*': 'allow', 'rm *': 'deny' } },
};
const RULE_SET_NAMES = ['none', 'deny', 'allowAll'] as const;

type Decision = 'allow' | 'ask' | 'deny';
type Row = [string, Decision, Decision, Decision];

async function decideUnderEach(command: string): Promise<Decision[]> {
  // an empty PATH: the rows are about the analysis; program identity has its own test
  const { subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
  return RULE_SET_NAMES.map(
    (name) =>
      evaluatePermission('bash', subject, { rules: permissionRules(RULE_SETS[name]), grants: [], cwd: CWD }).action,
  );
}

const CORPUS: Record<string, Row[]> = {
  "package managers' global and user installs write outside the project": [
    ['pnpm add -g typescript', 'ask', 'ask', 'ask'],
    ['pnpm i -g', 'ask', 'ask', 'ask'],
    ['pnpm -C sub add --global x', 'ask', 'ask', 'ask'],
    ['pnpm remove -g x', 'ask', 'ask', 'ask'],
    ['bun add -g x', 'ask', 'ask', 'ask'],
    ['bun install -g', 'ask', 'ask', 'ask'],
    ['bun link', 'ask', 'ask', 'ask'], // registers this package in bun's global folder
    ['npm link', 'ask', 'ask', 'ask'],
    ['npm link some-package', 'ask', 'ask', 'ask'],
    ['uv tool install ruff', 'ask', 'ask', 'ask'],
    ['uv tool update-shell', 'ask', 'ask', 'ask'],
    ['deno install -g jsr:@std/http/file-server', 'ask', 'ask', 'ask'],
    ['deno install --global -n serve x.ts', 'ask', 'ask', 'ask'],
    ['python3 -m pip install --user x', 'ask', 'ask', 'ask'],
    ['python -m pip install --user -r requirements.txt', 'ask', 'ask', 'ask'],
    ['python3 -I -m pip install --user x', 'ask', 'ask', 'ask'],
    ['python3 -m pip install --target /tmp/x y', 'ask', 'ask', 'ask'], // judged as pip: its options name places
    ['python3 -m pip install --target ./vendor y', 'ask', 'ask', 'allow'],
    ['pipx install black', 'ask', 'ask', 'ask'],
    // their listing forms, and the same managers working in the project
    ['pnpm list -g', 'ask', 'ask', 'allow'],
    ['bun pm ls -g', 'ask', 'ask', 'allow'],
    ['uv tool list', 'ask', 'ask', 'allow'],
    ['pip list --user', 'allow', 'allow', 'allow'],
    ['python3 -m pip list --user', 'ask', 'ask', 'allow'],
    ['python3 -m pip install -r requirements.txt', 'ask', 'ask', 'allow'],
    ['pnpm add -D vitest', 'ask', 'ask', 'allow'],
    ['pnpm run build -g', 'ask', 'ask', 'allow'], // -g is given to the script
    ['bun link some-package', 'ask', 'ask', 'allow'], // links into the project's node_modules
    ['deno install', 'ask', 'ask', 'allow'], // Deno 2: the project's dependencies
  ],
  'running as another user': [
    ['sudo make install', 'ask', 'ask', 'ask'],
    ['sudo ls', 'ask', 'ask', 'ask'],
    ['sudo -u www-data cat /var/log/x', 'ask', 'ask', 'ask'],
    ["sudo bash -c 'ls'", 'ask', 'ask', 'ask'],
    ['env sudo ls', 'ask', 'ask', 'ask'],
    ['sudo -l', 'ask', 'ask', 'ask'], // fails in the sandbox and may wait for a password
    ['su -c ls', 'ask', 'ask', 'ask'],
    ["su -c 'make install' root", 'ask', 'ask', 'ask'],
    ['doas ls', 'ask', 'ask', 'ask'],
    ['pkexec make install', 'ask', 'ask', 'ask'],
    ['run0 ls', 'ask', 'ask', 'ask'],
    ['run0 -u app make', 'ask', 'ask', 'ask'],
    ['sudo rm -rf build', 'ask', 'deny', 'deny'], // a deny rule still denies
  ],
};

describe.each(Object.entries(CORPUS))('%s', (_, rows) => {
  it.each(rows)('%j → %s, %s, %s', async (command, ...expected) => {
    expect(await decideUnderEach(command)).toEqual(expected);
  });
});

describe('the reasons a person reads', () => {
  it.each([
    [
      'pnpm add -g x',
      "writes outside the project, to a place known only when it runs: pnpm's global folder (pnpm add -g x)",
    ],
    ['python3 -m pip install --user x', 'writes outside the project: /home/u/.local'],
    [
      'sudo make install',
      "runs as another user (sudo), with rights the sandbox cannot give and beyond the person's own: sudo make install",
    ],
    [
      "su -c 'make install' root",
      "runs as another user (su), with rights the sandbox cannot give and beyond the person's own: su make install",
    ],
  ])('%s: %s', async (command, reason) => {
    const { subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
    const verdict = evaluatePermission('bash', subject, {
      rules: permissionRules(RULE_SETS.allowAll),
      grants: [],
      cwd: CWD,
    });
    expect(verdict).toMatchObject({ action: 'ask', reasons: [reason], beyondRules: [reason] });
  });
});

describe('the permission service: a sandboxed one is offered to run outside the sandbox at once', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  /** The choices the request for `command` offers, run by a sandboxed shell or not. */
  async function offered(command: string, sandboxed: boolean): Promise<PermissionDecision[]> {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-global-')));
    cleanup.push(() => rmSync(project, { recursive: true, force: true }));
    const service = new PermissionService(project);
    let choices: PermissionDecision[] = [];
    service.onRequest((request) => {
      choices = permissionChoices(request);
      queueMicrotask(() => service.respond(request.id, 'deny'));
    });
    const { subject } = await analyseForPermission(command, { cwd: project, home: HOME, pathEnv: '' });
    const input = { action: 'execute', description: command, params: { command }, ...(sandboxed && { sandboxed }) };
    await service.request('s1', 'bash', { ...input, subject }).catch(() => undefined);
    return choices;
  }

  it.each([
    'pnpm add -g x',
    'pnpm i -g',
    'bun add -g x',
    'bun install -g',
    'npm link',
    'uv tool install ruff',
    'deno install -g x',
    'deno install --global x',
    'python3 -m pip install --user x',
    'python -m pip install --user x',
    'pipx install black',
    'sudo make install',
    'sudo ls',
    'su -c ls',
    'doas ls',
    'pkexec ls',
    'run0 ls',
  ])('%s: offered when sandboxed, not otherwise', async (command) => {
    expect(await offered(command, true)).toEqual([
      'allow',
      'allow_session',
      'allow_always',
      'allow_outside_sandbox',
      'deny',
    ]);
    expect(await offered(command, false)).not.toContain('allow_outside_sandbox');
  });

  it.each(['pnpm list -g', 'bun pm ls -g', 'uv tool list', 'pip list --user'])(
    '%s: not offered (it writes nothing outside)',
    async (command) => {
      expect(await offered(command, true)).not.toContain('allow_outside_sandbox');
    },
  );
});
