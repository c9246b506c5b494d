/**
 * Files in the project that decide what runs or what is allowed — `.opencode.json` (permission rules,
 * MCP servers, plugins), `.opencode/` (plugins and custom tools run from there at the next start) and
 * `.git/` (hooks, config) — ask whatever the rules allow: under `"write": "allow"` or `"*": "allow"` the
 * model could otherwise grant itself every permission, or leave code to run at the next start, without
 * anyone approving. Deny rules still deny.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission, protectedPathReason } from '../../src/permission/policy.js';
import { permissionRules, type PermissionSetting } from '../../src/permission/rules.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

function decideFile(tool: string, rel: string, setting: PermissionSetting) {
  return evaluatePermission(
    tool,
    { kind: 'files', paths: [`${CWD}/${rel}`] },
    { rules: permissionRules(setting), grants: [], cwd: CWD },
  );
}

async function decideCommand(command: string, setting: PermissionSetting) {
  const { subject } = await analyseForPermission(command, { cwd: CWD, home: HOME, pathEnv: '' });
  return evaluatePermission('bash', subject, { rules: permissionRules(setting), grants: [], cwd: CWD });
}

describe('protected files in the project', () => {
  it.each([
    ['.opencode.json', "changes opencode's configuration (permission rules, MCP servers, plugins): .opencode.json"],
    [
      '.opencode/plugins/x.ts',
      "changes opencode's data folder (plugins, custom tools and commands run from there): .opencode/plugins/x.ts",
    ],
    [
      '.opencode/tools/t.yaml',
      "changes opencode's data folder (plugins, custom tools and commands run from there): .opencode/tools/t.yaml",
    ],
    ['.git/hooks/pre-commit', "changes git's configuration or hooks (git runs them): .git/hooks/pre-commit"],
    ['.git/config', "changes git's configuration or hooks (git runs them): .git/config"],
  ])('%s asks under "write": "allow", saying why', (rel, reason) => {
    for (const tool of ['write', 'edit', 'patch']) {
      const verdict = decideFile(tool, rel, { [tool]: 'allow' });
      expect(verdict).toMatchObject({ action: 'ask' });
      expect(verdict.action === 'ask' && verdict.reasons).toContain(reason);
    }
  });

  it.each([
    '.opencode.json.bak',
    '.opencodex/x',
    'src/.opencode.json',
    '.github/workflows/ci.yml',
    '.gitignore',
    'docs/.git-notes',
  ])('%s is an ordinary file: the allow rule holds', (rel) => {
    expect(protectedPathReason(rel)).toBeUndefined();
    expect(decideFile('write', rel, { write: 'allow' })).toEqual({ action: 'allow' });
  });

  it('a deny rule still denies', () => {
    expect(decideFile('write', '.opencode.json', { write: { '*': 'allow', '.opencode*': 'deny' } })).toMatchObject({
      action: 'deny',
    });
  });

  it.each([
    'echo \'{"permission":"allow"}\' > .opencode.json',
    'cp /tmp/evil.ts .opencode/plugins/evil.ts',
    'printf x >> .git/hooks/pre-commit',
    'tee .opencode/tools/x.yaml < x',
  ])('the shell writing one asks under "*": "allow": %s', async (command) => {
    const verdict = await decideCommand(command, { bash: { '*': 'allow' } });
    expect(verdict.action).toBe('ask');
  });

  it('a shell write to an ordinary file under "*": "allow" still runs', async () => {
    expect(await decideCommand('echo x > notes.txt', { bash: { '*': 'allow' } })).toEqual({ action: 'allow' });
  });
});
