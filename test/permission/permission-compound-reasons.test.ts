/**
 * The reasons the permission dialog shows for a compound command line name the part that asks and
 * why: `echo done > status.txt: writes a file`, not `git status: writes a file`, and
 * a read-only part next to a writing one is not asked about. Real analysis, real policy.
 */
import { describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { permissionRules } from '../../src/permission/rules.js';

const CWD = '/home/u/project';
const HOME = '/home/u';

async function ask(command: string): Promise<{ scopes: string[]; reasons: string[] } | string> {
  const { subject } = await analyseForPermission(command, { cwd: CWD, home: HOME });
  const v = evaluatePermission('bash', subject, { rules: permissionRules(undefined), grants: [], cwd: CWD });
  return v.action === 'ask' ? { scopes: v.scopes, reasons: v.reasons } : v.action;
}

describe('a write in the project is charged to the command that makes it', () => {
  it.each([
    // the case: git status is read-only and stays out of the reasons and the grant
    ['git status && echo done > status.txt', ['echo *'], ['echo done > status.txt: writes a file']],
    ['echo done > status.txt && git status', ['echo *'], ['echo done > status.txt: writes a file']],
    ['ls; cat a >> log.txt; pwd', ['cat *'], ['cat a >> log.txt: writes a file']],
    ['git log -1 &> log.txt', ['git log *'], ['git log -1 &> log.txt: writes a file']],
    ['ls 2> errors.txt', ['ls *'], ['ls 2> errors.txt: writes a file']],
    ['timeout 5 ls > x.txt', ['ls *'], ['ls > x.txt: writes a file']],
    ['git status | tee status.txt', ['tee *'], ['tee status.txt: writes a file']],
    // two writers: each named with its own write
    [
      'echo a > a.txt && echo b > b.txt',
      ['echo *'],
      ['echo a > a.txt: writes a file', 'echo b > b.txt: writes a file'],
    ],
    // a redirection of a group belongs to no single command: every read-only part asks, as before
    ['{ ls; pwd; } > out.txt', ['ls *', 'pwd *'], ['ls: writes a file', 'pwd: writes a file']],
  ])('%s', async (command, scopes, reasons) => {
    expect(await ask(command)).toEqual({ scopes, reasons });
  });

  it('a part that asks anyway keeps its own reason; the read-only part is not named', async () => {
    expect(await ask('git status && rm -f build.log > out.txt')).toEqual({
      scopes: ['rm *'],
      reasons: ['rm -f build.log: not a read-only command'],
    });
  });

  it('read-only lines without a write still run', async () => {
    expect(await ask('git status && echo done > /dev/null')).toBe('allow');
  });
});
