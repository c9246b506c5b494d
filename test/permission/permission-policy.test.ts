/**
 * The permission decision as a table: rules × what a call touches → allow / ask / deny, and for asks
 * what "allow for session" would cover. Commands are given here already analysed (the analysis has its
 * own corpus, shell-analysis*.test.ts), so these rows read as the policy alone.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePermission, type Verdict } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import type { CommandPart, CommandSubject, CommandWrite, SessionGrant } from '../../src/permission/types.js';

const CWD = '/home/u/project';

/** A simple command; by default not read-only, scope `<first word> *`. */
function part(text: string, opts: Partial<CommandPart> = {}): CommandPart {
  return { text, wrappers: [], readOnly: false, scope: `${text.split(' ')[0]} *`, ...opts };
}
const ro = (text: string, opts: Partial<CommandPart> = {}) => part(text, { readOnly: true, ...opts });

function command(
  raw: string,
  parts: CommandPart[],
  writes: CommandWrite[] = [],
  extra: Partial<CommandSubject> = {},
): CommandSubject {
  const readOnly = parts.every((p) => p.readOnly) && writes.length === 0;
  return { kind: 'command', command: raw, parts, writes, readOnly, ...extra };
}

function decide(
  tool: string,
  subject: Parameters<typeof evaluatePermission>[1],
  setting?: PermissionSetting,
  grants: SessionGrant[] = [],
): Verdict {
  return evaluatePermission(tool, subject, { rules: permissionRules(setting), grants, cwd: CWD });
}

/** `allow`, `deny`, or `ask <scopes>` */
function summary(v: Verdict): string {
  return v.action === 'ask' ? `ask ${JSON.stringify(v.scopes)}` : v.action;
}

describe('bash: defaults with no rules (the original behaviour, holes closed)', () => {
  it.each<[string, CommandSubject, string]>([
    ['a read-only command runs', command('ls -la', [ro('ls -la')]), 'allow'],
    [
      'a read-only compound runs',
      command('git status && git diff', [
        ro('git status', { scope: 'git status *' }),
        ro('git diff', { scope: 'git diff *' }),
      ]),
      'allow',
    ],
    [
      'any other command asks, scoped to itself',
      command('npm run test', [part('npm run test', { scope: 'npm run test *' })]),
      'ask ["npm run test *"]',
    ],
    ['ls && rm -rf ~ asks for the rm only', command('ls && rm -rf ~', [ro('ls'), part('rm -rf ~')]), 'ask ["rm *"]'],
    [
      'echo x > notes.txt asks: a write in the project',
      command(
        'echo x > notes.txt',
        [ro('echo x')],
        [{ target: 'notes.txt', path: `${CWD}/notes.txt`, via: 'redirect' }],
      ),
      'ask ["echo *"]',
    ],
    [
      'echo x >/dev/null runs',
      command('echo x >/dev/null', [ro('echo x')], [{ target: '/dev/null', path: '/dev/null', via: 'redirect' }], {
        readOnly: true,
      }),
      'allow',
    ],
    [
      'echo x > ~/.bashrc asks and cannot be granted',
      command(
        'echo x > ~/.bashrc',
        [ro('echo x')],
        [{ target: '~/.bashrc', path: '/home/u/.bashrc', via: 'redirect' }],
      ),
      'ask []',
    ],
    [
      'echo x > /tmp/out asks and cannot be granted',
      command('echo x > /tmp/out', [ro('echo x')], [{ target: '/tmp/out', path: '/tmp/out', via: 'redirect' }]),
      'ask []',
    ],
    [
      'a write to an unknown place asks',
      command('echo x > $F', [ro('echo x')], [{ target: '$F', via: 'redirect' }]),
      'ask []',
    ],
    [
      'an unanalysable command asks every time',
      command("ls 'x", [], [], { unanalysable: 'unterminated quote', readOnly: false }),
      'ask []',
    ],
    [
      'a command that is not read-only as a whole asks for its parts',
      command('diff <(ls) <(ls)', [ro('diff'), ro('ls')], [], { readOnly: false }),
      'ask ["diff *","ls *"]',
    ],
  ])('%s', (_name, subject, expected) => {
    expect(summary(decide('bash', subject))).toBe(expected);
  });
});

describe('bash: rules', () => {
  const rules: PermissionSetting = {
    bash: { '*': 'ask', 'git status*': 'allow', 'npm test*': 'allow', 'rm *': 'deny' },
  };

  it.each<[string, CommandSubject, string]>([
    ['an allowed command runs', command('npm test -- a', [part('npm test -- a')]), 'allow'],
    [
      'a denied part denies the whole line',
      command('git status && rm -rf x', [ro('git status'), part('rm -rf x')]),
      'deny',
    ],
    [
      'a denied part after an allowed one denies (; too)',
      command('npm test; rm x', [part('npm test'), part('rm x')]),
      'deny',
    ],
    [
      'an asking part makes the line ask, scoped to that part',
      command('npm test && make', [part('npm test'), part('make')]),
      'ask ["make *"]',
    ],
    ['"*": "ask" makes read-only commands ask too', command('ls', [ro('ls')]), 'ask ["ls *"]'],
  ])('%s', (_name, subject, expected) => {
    expect(summary(decide('bash', subject, rules))).toBe(expected);
  });

  it('an env prefix does not change which rule matches: CI=true git commit asks under "git commit*": "ask"', () => {
    // the analysis gives the command without the prefix; an earlier "*": "allow" loses to the later rule
    const subject = command('CI=true git commit -m x', [part('git commit -m x', { scope: 'git commit *' })]);
    expect(summary(decide('bash', subject, { bash: { '*': 'allow', 'git commit*': 'ask' } }))).toBe(
      'ask ["git commit *"]',
    );
  });

  it('a wrapper does not change which rule matches: timeout 5 ls is ls', () => {
    const subject = command('timeout 5 ls', [ro('ls', { wrappers: ['timeout'] })]);
    expect(summary(decide('bash', subject, { bash: { '*': 'deny', 'ls*': 'allow' } }))).toBe('allow');
  });

  it('a rule that names a wrapper holds for what runs through it: "sudo *": "deny"', () => {
    const subject = command('sudo rm x', [part('rm x', { wrappers: ['sudo'] })]);
    expect(summary(decide('bash', subject, { bash: { 'rm *': 'allow', 'sudo *': 'deny' } }))).toBe('deny');
    expect(summary(decide('bash', subject, { bash: { 'rm *': 'allow', 'sudo *': 'ask' } }))).toBe('ask ["sudo rm *"]');
  });

  it('the deny message names the command and the rule', () => {
    const v = decide('bash', command('ls && rm -rf victim', [ro('ls'), part('rm -rf victim')]), {
      bash: { '*': 'deny', 'ls*': 'allow' },
    });
    expect(v).toEqual({
      action: 'deny',
      message:
        'Permission denied: `rm -rf victim` is denied by the permission rule bash "*": "deny". ' +
        "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
    });
  });

  it('writes outside the project ask even when every rule allows', () => {
    const subject = command(
      'echo x > /tmp/out',
      [ro('echo x')],
      [{ target: '/tmp/out', path: '/tmp/out', via: 'redirect' }],
    );
    const v = decide('bash', subject, 'allow');
    expect(v).toMatchObject({ action: 'ask', scopes: [], reasons: ['writes outside the project: /tmp/out'] });
  });

  it('an allow rule covers a write inside the project made by the allowed command', () => {
    const subject = command(
      'npm test > log.txt',
      [part('npm test')],
      [{ target: 'log.txt', path: `${CWD}/log.txt`, via: 'redirect' }],
    );
    expect(summary(decide('bash', subject, rules))).toBe('allow');
  });

  it('an unanalysable command is denied when a deny rule matches its raw text, and asks otherwise even under "allow"', () => {
    const broken = command("rm -rf 'x", [], [], { unanalysable: 'unterminated quote', readOnly: false });
    expect(summary(decide('bash', broken, rules))).toBe('deny');
    expect(summary(decide('bash', broken, 'allow'))).toBe('ask []');
  });

  it('the global action applies to bash: "permission": "deny" denies even ls', () => {
    expect(summary(decide('bash', command('ls', [ro('ls')]), 'deny'))).toBe('deny');
  });
});

describe('bash: session grants', () => {
  const grant = (pattern: string): SessionGrant => ({ tool: 'bash', pattern, literal: false });

  it('a grant of git checkout * approves git checkout b but not git push', () => {
    const grants = [grant('git checkout *')];
    expect(
      summary(
        decide(
          'bash',
          command('git checkout b', [part('git checkout b', { scope: 'git checkout *' })]),
          undefined,
          grants,
        ),
      ),
    ).toBe('allow');
    expect(
      summary(decide('bash', command('git push', [part('git push', { scope: 'git push *' })]), undefined, grants)),
    ).toBe('ask ["git push *"]');
  });

  it('a grant covers one part; the line still asks for the others', () => {
    const subject = command('git checkout b && npm i', [
      part('git checkout b', { scope: 'git checkout *' }),
      part('npm i', { scope: 'npm i *' }),
    ]);
    expect(summary(decide('bash', subject, undefined, [grant('git checkout *')]))).toBe('ask ["npm i *"]');
  });

  it('a grant does not reach a write outside the project', () => {
    const subject = command(
      'echo x > /tmp/out',
      [ro('echo x')],
      [{ target: '/tmp/out', path: '/tmp/out', via: 'redirect' }],
    );
    expect(summary(decide('bash', subject, undefined, [grant('echo *'), grant('*')]))).toBe('ask []');
  });

  it('a grant does not override a deny rule', () => {
    expect(
      summary(decide('bash', command('rm x', [part('rm x')]), { bash: { 'rm *': 'deny' } }, [grant('rm *')])),
    ).toBe('deny');
  });

  it('a grant does not reach a command that could not be analysed', () => {
    const broken = command("ls 'x", [], [], { unanalysable: 'unterminated quote', readOnly: false });
    expect(summary(decide('bash', broken, undefined, [grant('*')]))).toBe('ask []');
  });

  it('a command run with sudo is granted apart: rm * does not cover sudo rm, sudo rm * does', () => {
    const sudoRm = command('sudo rm y', [part('rm y', { wrappers: ['sudo'] })]);
    expect(summary(decide('bash', sudoRm, undefined, [grant('rm *')]))).toBe('ask ["sudo rm *"]');
    expect(summary(decide('bash', sudoRm, undefined, [grant('sudo rm *')]))).toBe('allow');
    // rules still match the command itself
    expect(summary(decide('bash', sudoRm, { bash: { 'rm *': 'deny' } }, [grant('sudo rm *')]))).toBe('deny');
  });

  it('grants are per tool', () => {
    expect(
      summary(
        decide('bash', command('make', [part('make')]), undefined, [{ tool: 'other', pattern: '*', literal: false }]),
      ),
    ).toBe('ask ["make *"]');
  });
});

describe('edit, write, patch: the file path', () => {
  const file = (...paths: string[]) => ({ kind: 'files' as const, paths });

  it.each<[string, string, PermissionSetting | undefined, string]>([
    ['asks by default, scoped to the file', `${CWD}/src/a.ts`, undefined, 'ask ["src/a.ts"]'],
    ['a pattern on the relative path allows', `${CWD}/src/a.ts`, { edit: { 'src/*': 'allow' } }, 'allow'],
    ['a pattern on the absolute path allows', `${CWD}/src/a.ts`, { edit: { [`${CWD}/*`]: 'allow' } }, 'allow'],
    ['a deny rule denies', `${CWD}/.env`, { edit: { '*': 'allow', '.env*': 'deny' } }, 'deny'],
    ['a rule for another tool does not apply', `${CWD}/src/a.ts`, { write: 'allow' }, 'ask ["src/a.ts"]'],
    ['outside the project it asks, whatever allows it', '/tmp/x', { edit: 'allow' }, 'ask []'],
    ['outside the project a deny rule still denies', '/etc/passwd', { edit: { '/etc/*': 'deny' } }, 'deny'],
    ['a sibling directory with the same prefix is outside', '/home/u/project2/a.ts', 'allow', 'ask []'],
    ['.. that leaves the project is outside', `${CWD}/../b/a.ts`, 'allow', 'ask []'],
  ])('%s', (_name, path, setting, expected) => {
    expect(summary(decide('edit', file(path), setting))).toBe(expected);
  });

  it('a grant for a.ts does not cover b.ts', () => {
    const grants: SessionGrant[] = [{ tool: 'edit', pattern: 'src/a.ts', literal: true }];
    expect(summary(decide('edit', file(`${CWD}/src/a.ts`), undefined, grants))).toBe('allow');
    expect(summary(decide('edit', file(`${CWD}/src/b.ts`), undefined, grants))).toBe('ask ["src/b.ts"]');
  });

  it('a file grant is literal: a file named * covers only itself', () => {
    const grants: SessionGrant[] = [{ tool: 'edit', pattern: '*', literal: true }];
    expect(summary(decide('edit', file(`${CWD}/src/b.ts`), undefined, grants))).toBe('ask ["src/b.ts"]');
  });

  it('an edit of /tmp/x from a project elsewhere asks even after a session grant for it', () => {
    const grants: SessionGrant[] = [{ tool: 'edit', pattern: '/tmp/x', literal: true }];
    expect(decide('edit', file('/tmp/x'), undefined, grants)).toEqual({
      action: 'ask',
      scopes: [],
      grants: [],
      reasons: ['outside the project: /tmp/x'],
      beyondRules: ['outside the project: /tmp/x'],
    });
  });

  it('a move is judged by both paths', () => {
    expect(summary(decide('patch', file(`${CWD}/a.ts`, `${CWD}/lib/a.ts`)))).toBe('ask ["a.ts","lib/a.ts"]');
    expect(summary(decide('patch', file(`${CWD}/a.ts`, '/tmp/a.ts'), { patch: 'allow' }))).toBe('ask []');
    expect(
      summary(
        decide('patch', file(`${CWD}/a.ts`, `${CWD}/secret/a.ts`), { patch: { '*': 'allow', 'secret/*': 'deny' } }),
      ),
    ).toBe('deny');
  });
});

describe('fetch: the URL and its host', () => {
  const url = (u: string) => ({ kind: 'url' as const, url: u });

  it.each<[string, string, PermissionSetting | undefined, string]>([
    ['asks by default, scoped to the host', 'https://docs.example.com/a?b', undefined, 'ask ["docs.example.com"]'],
    ['a host pattern allows', 'https://docs.example.com/a', { fetch: { '*.example.com': 'allow' } }, 'allow'],
    [
      'a URL pattern allows',
      'https://example.com/docs/x',
      { fetch: { 'https://example.com/docs/*': 'allow' } },
      'allow',
    ],
    [
      'a URL pattern elsewhere on the host does not',
      'https://example.com/admin',
      { fetch: { 'https://example.com/docs/*': 'allow' } },
      'ask ["example.com"]',
    ],
    ['deny', 'https://evil.test/', { fetch: 'deny' }, 'deny'],
    ['the port is part of the host the grant names', 'http://127.0.0.1:8080/x', undefined, 'ask ["127.0.0.1:8080"]'],
  ])('%s', (_name, u, setting, expected) => {
    expect(summary(decide('fetch', url(u), setting))).toBe(expected);
  });

  it('a grant is per host', () => {
    const grants: SessionGrant[] = [{ tool: 'fetch', pattern: 'example.com', literal: true }];
    expect(summary(decide('fetch', url('https://example.com/other/page'), undefined, grants))).toBe('allow');
    expect(summary(decide('fetch', url('https://api.example.com/'), undefined, grants))).toBe(
      'ask ["api.example.com"]',
    );
  });
});

describe('MCP and other tools: by full name, pattern * only', () => {
  it.each<[string, PermissionSetting | undefined, string]>([
    ['github_create_issue', undefined, 'ask ["*"]'],
    ['github_create_issue', { github_create_issue: 'allow' }, 'allow'],
    ['github_create_issue', { 'github_*': 'allow', github_create_issue: 'deny' }, 'deny'],
    ['github_list_issues', { 'github_*': 'allow', github_create_issue: 'deny' }, 'allow'],
    ['github_create_issue', { github_create_issue: { '*': 'allow' } }, 'allow'],
    ['github_create_issue', { github_create_issue: { 'some pattern': 'allow' } }, 'ask ["*"]'],
    ['github_create_issue', { '*': 'allow', bash: 'ask' }, 'allow'],
  ])('%s under %j → %s', (tool, setting, expected) => {
    expect(summary(decide(tool, undefined, setting))).toBe(expected);
  });

  it('a grant covers that tool only', () => {
    const grants: SessionGrant[] = [{ tool: 'github_create_issue', pattern: '*', literal: false }];
    expect(summary(decide('github_create_issue', undefined, undefined, grants))).toBe('allow');
    expect(summary(decide('github_delete_repo', undefined, undefined, grants))).toBe('ask ["*"]');
  });
});
