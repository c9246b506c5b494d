/**
 * The places the OS sandbox keeps read-only for commands because they decide what runs
 * (`node_modules/.bin`, `.husky`, `.envrc`, `.pre-commit-config.yaml`, …) ask whatever the rules allow
 * when a file tool or an allowed command changes them, as `.git` and `.opencode.json` always did.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { permissionRules } from '../../src/permission/rules.js';

const CWD = '/work/proj';

describe('a protected place asks under allow-all', () => {
  it.each([
    ['.husky/pre-commit', 'git hooks of projects that use husky (core.hooksPath)'],
    ['node_modules/.bin/tsc', 'programs npm scripts and opencode start by name'],
    ['.envrc', 'direnv runs it on entering the directory'],
    ['.pre-commit-config.yaml', 'pre-commit runs the hooks it names on git commit'],
  ])('write of %s', (rel, reason) => {
    const verdict = evaluatePermission(
      'write',
      { kind: 'files', paths: [`${CWD}/${rel}`] },
      { rules: permissionRules({ '*': 'allow' } as never), grants: [], cwd: CWD },
    );
    expect(verdict).toMatchObject({
      action: 'ask',
      beyondRules: [`changes a file that decides what runs (${reason}): ${rel}`],
    });
  });

  it('a command writing .envrc', async () => {
    const { subject } = await analyseForPermission('echo "eval x" > .envrc', {
      cwd: CWD,
      home: '/home/u',
      pathEnv: '',
    });
    const verdict = evaluatePermission('bash', subject, {
      rules: permissionRules({ '*': 'allow' } as never),
      grants: [],
      cwd: CWD,
    });
    expect(verdict).toMatchObject({
      action: 'ask',
      beyondRules: ['changes a file that decides what runs (direnv runs it on entering the directory): .envrc'],
    });
  });

  it('a file next to them stays free under allow-all', () => {
    const verdict = evaluatePermission(
      'write',
      { kind: 'files', paths: [`${CWD}/node_modules/pkg/index.js`, `${CWD}/.huskyrc-notes.md`] },
      { rules: permissionRules({ '*': 'allow' } as never), grants: [], cwd: CWD },
    );
    expect(verdict).toEqual({ action: 'allow' });
  });
});
