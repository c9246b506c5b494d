import { describe, expect, it } from 'vitest';
import { lastMatchingRule, permissionRules, wildcardMatch } from '../../src/permission/rules.js';

describe('permission rules: the three shapes of the setting', () => {
  it('flattens one action for everything', () => {
    expect(permissionRules('ask')).toEqual([{ tool: '*', pattern: '*', action: 'ask' }]);
  });

  it('flattens per-tool actions and per-pattern actions in key order', () => {
    expect(
      permissionRules({ edit: 'ask', bash: { '*': 'ask', 'git status*': 'allow', 'rm *': 'deny' }, fetch: 'deny' }),
    ).toEqual([
      { tool: 'edit', pattern: '*', action: 'ask' },
      { tool: 'bash', pattern: '*', action: 'ask' },
      { tool: 'bash', pattern: 'git status*', action: 'allow' },
      { tool: 'bash', pattern: 'rm *', action: 'deny' },
      { tool: 'fetch', pattern: '*', action: 'deny' },
    ]);
  });

  it('has no rules without the setting', () => {
    expect(permissionRules(undefined)).toEqual([]);
  });
});

describe('wildcards', () => {
  it.each([
    ['git status*', 'git status', true],
    ['git status*', 'git status --short', true],
    ['git status*', 'git statusx', true],
    ['git status*', 'git stash', false],
    ['ls *', 'ls', true], // a trailing " *" also matches nothing
    ['ls *', 'ls -la', true],
    ['ls *', 'lsblk', false],
    ['ls*', 'lsblk', true],
    ['rm *', 'rm -rf /', true],
    ['rm *', 'git rm x', false], // anchored at the start
    ['*', '', true],
    ['*', 'anything at all', true],
    ['v?', 'v1', true],
    ['v?', 'v', false],
    ['v?', 'v12', false],
    ['src/*', 'src/a/b/c.ts', true], // * crosses /
    ['*.ts', 'src/a.ts', true],
    ['*.ts', 'src/a.tsx', false],
    ['a.b', 'aXb', false], // . is literal
    ['(x)+[y]{2}$^|\\', '(x)+[y]{2}$^|\\', true], // regex characters are literal
    ['Git status', 'git status', false], // case-sensitive
    ['echo *', 'echo a\nb', true], // * crosses newlines
    ['*.example.com', 'api.example.com', true],
    ['*.example.com', 'example.com', false],
  ])('%j matches %j: %s', (pattern, text, expected) => {
    expect(wildcardMatch(pattern, text)).toBe(expected);
  });
});

describe('the last matching rule wins', () => {
  const rules = permissionRules({
    '*': 'ask',
    bash: { '*': 'ask', 'git *': 'allow', 'git push*': 'deny' },
    'github_*': 'allow',
    github_delete_repo: 'deny',
  });

  it.each([
    ['bash', 'git status', 'allow'],
    ['bash', 'git push origin main', 'deny'],
    ['bash', 'make', 'ask'],
    ['edit', 'src/a.ts', 'ask'],
    ['github_create_issue', '', 'allow'],
    ['github_delete_repo', '', 'deny'],
    ['slack_post', '', 'ask'],
  ])('%s %j → %s', (tool, subject, action) => {
    expect(lastMatchingRule(rules, tool, subject ? [subject] : [])?.action).toBe(action);
  });

  it('an earlier rule loses to a later one that matches: order is the file order', () => {
    const reversed = permissionRules({ bash: { 'git push*': 'deny', 'git *': 'allow' } });
    expect(lastMatchingRule(reversed, 'bash', ['git push'])?.action).toBe('allow');
  });

  it('gives nothing when no rule names the tool', () => {
    expect(lastMatchingRule(permissionRules({ edit: 'deny' }), 'bash', ['ls'])).toBeUndefined();
  });
});
