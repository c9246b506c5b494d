/**
 * Shell commands through the real analysis and the policy together: the decision the bash tool gets
 * for a command line, with and without rules, and what "allow for session" would cover.
 * (Replaces test/tools/bash-command-policy.test.ts, which tested the interim prefix list.)
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';
import type { SessionGrant } from '../../src/permission/types.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

async function decide(command: string, setting?: PermissionSetting, grants: SessionGrant[] = []): Promise<string> {
  const { analysis, subject } = await analyseForPermission(command, { cwd: CWD, home: HOME });
  if (analysis.banned) return `banned ${analysis.banned.name}`;
  const v = evaluatePermission('bash', subject, { rules: permissionRules(setting), grants, cwd: CWD });
  return v.action === 'ask' ? `ask ${JSON.stringify(v.scopes)}` : v.action;
}

describe('no rules: read-only commands run, the rest asks for what is not read-only', () => {
  it.each([
    ['ls', 'allow'],
    ['ls -la src', 'allow'],
    ['git status', 'allow'],
    ['git  log --oneline -5', 'allow'],
    ['git branch', 'allow'],
    ['git config --get-regexp ^alias', 'allow'],
    ['printenv PATH', 'allow'],
    ['echo x >/dev/null', 'allow'],
    ['cat < README.md', 'allow'],
    ['ls && rm -rf ~', 'ask ["rm *"]'], // a grant would cover rm in the project; rm of ~ (outside) asks every time
    ['ls && rm -rf build', 'ask ["rm *"]'],
    ['ls; rm x', 'ask ["rm *"]'],
    ['ls & rm x', 'ask ["rm *"]'],
    ['ls || rm x', 'ask ["rm *"]'],
    ['ls\nrm x', 'ask ["rm *"]'],
    ['ls $(rm x)', 'ask ["rm *"]'],
    ['ls `rm x`', 'ask ["rm *"]'],
    ['ls | sh', 'ask ["sh"]'],
    ['echo x > ~/.bashrc', 'ask []'],
    ['echo x > /tmp/out', 'ask []'],
    ['echo x >> notes.txt', 'ask ["echo *"]'],
    ['git status > status.txt', 'ask ["git status *"]'],
    ['ls-evil', 'ask ["ls-evil *"]'],
    ['git branch -D main', 'ask ["git branch *"]'],
    // the repository's config decides what git runs: a write there is code the next git runs
    ['git remote set-url origin x', 'ask ["git remote set-url *","other *"]'],
    ['git log --output=x', 'ask ["git log *"]'],
    ['git diff --output=/tmp/x', 'ask ["git diff *"]'],
    ['env rm -rf x', 'ask ["rm *"]'],
    ['timeout 5 rm x', 'ask ["rm *"]'],
    ['sudo rm x', 'ask ["sudo rm *"]'],
    ['kill 1', 'ask ["kill *"]'],
    ['go test ./...', 'ask ["go test *"]'],
    ['find . -delete', 'ask ["find *"]'],
    ['sed -i s/a/b/ f', 'ask ["sed *"]'],
    ['sort -o f f', 'ask ["sort *"]'],
    ['git checkout b', 'ask ["git checkout *"]'],
    ['npm run test -- a.test.ts', 'ask ["npm run test *"]'],
    ['cargo build --release', 'ask ["cargo build *"]'],
    ['rm $F', 'ask ["rm *"]'], // and its write, whose place is only known at run time, asks every time
    ["ls 'x", 'ask []'], // unterminated quote: cannot be analysed
  ])('%j → %s', async (command, expected) => {
    expect(await decide(command)).toBe(expected);
  });
});

describe('banned commands are found anywhere in the line, before any rule', () => {
  it.each([
    ['curl https://x', 'curl'],
    ['sudo curl x', 'curl'],
    ['/usr/bin/curl -s x', 'curl'],
    ['X=1 wget x', 'wget'],
    ['bash -c "curl x | sh"', 'curl'],
    ['git status && curl x | sh', 'curl'],
    ['nc -l 4444', 'nc'],
  ])('%j is banned as %s, even under "permission": "allow"', async (command, name) => {
    expect(await decide(command, 'allow')).toBe(`banned ${name}`);
  });
});

describe('rules judge every simple command of the line', () => {
  const rules: PermissionSetting = {
    bash: { '*': 'ask', 'git status*': 'allow', 'npm test*': 'allow', 'rm *': 'deny' },
  };

  it.each([
    ['git status', 'allow'],
    ['npm test -- --watch=false', 'allow'],
    ['git status && npm test', 'allow'],
    ['git status && rm -rf x', 'deny'],
    ['npm test; rm x', 'deny'],
    ['ls $(rm x)', 'deny'],
    ['bash -c "rm -rf x"', 'deny'],
    ['timeout 5 rm x', 'deny'],
    ['ls', 'ask ["ls *"]'],
    ['npm test && make', 'ask ["make"]'],
    ['npm test > log.txt', 'allow'], // an allowed command's write in the project
    ['npm test > /tmp/log.txt', 'ask []'], // but never outside it
  ])('%j → %s', async (command, expected) => {
    expect(await decide(command, rules)).toBe(expected);
  });

  it('the bash: {"*": "deny", "ls*": "allow"} example denies ls && rm -rf victim', async () => {
    expect(await decide('ls && rm -rf victim', { bash: { '*': 'deny', 'ls*': 'allow' } })).toBe('deny');
    expect(await decide('ls -la', { bash: { '*': 'deny', 'ls*': 'allow' } })).toBe('allow');
  });

  it('an env prefix does not change the rule: CI=true git commit -m x asks under "git commit*": "ask" after "*": "allow"', async () => {
    const setting: PermissionSetting = { bash: { '*': 'allow', 'git commit*': 'ask' } };
    expect(await decide('CI=true git commit -m x', setting)).toBe('ask ["git commit *"]');
    expect(await decide('CI=true git status', setting)).toBe('allow');
  });

  it('a deny rule on the raw text holds for a line that cannot be analysed', async () => {
    expect(await decide("rm -rf 'x", rules)).toBe('deny');
    expect(await decide("ls 'x", 'allow')).toBe('ask []');
  });
});

describe('session grants are scoped to what was asked', () => {
  const grant = (pattern: string): SessionGrant => ({ tool: 'bash', pattern, literal: false });

  it('git checkout * approves git checkout b, not git push', async () => {
    expect(await decide('git checkout b', undefined, [grant('git checkout *')])).toBe('allow');
    expect(await decide('git checkout -b feature', undefined, [grant('git checkout *')])).toBe('allow');
    expect(await decide('git push', undefined, [grant('git checkout *')])).toBe('ask ["git push *"]');
    expect(await decide('git checkout b && git push', undefined, [grant('git checkout *')])).toBe('ask ["git push *"]');
  });

  it('npm run test * does not cover other scripts', async () => {
    expect(await decide('npm run test -- x', undefined, [grant('npm run test *')])).toBe('allow');
    expect(await decide('npm run deploy', undefined, [grant('npm run test *')])).toBe('ask ["npm run deploy *"]');
  });

  it('rm * does not reach rm of a path outside the project, or of a path known only at run time', async () => {
    expect(await decide('rm -rf build', undefined, [grant('rm *')])).toBe('allow');
    expect(await decide('rm -rf ~', undefined, [grant('rm *')])).toBe('ask []');
    expect(await decide('rm -rf "$DIR"', undefined, [grant('rm *')])).toBe('ask []');
  });

  it('no grant reaches a write outside the project: echo x > /tmp/out still asks', async () => {
    expect(await decide('echo x > /tmp/out', undefined, [grant('echo *'), grant('*')])).toBe('ask []');
    expect(await decide('echo x > ~/.bashrc', 'allow', [grant('*')])).toBe('ask []');
  });
});
