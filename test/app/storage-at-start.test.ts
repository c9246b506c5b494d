/**
 * Start-up on a disk that cannot take our data, for real: the project is a tmpfs in a
 * private mount namespace (`unshare -m`), read-only or full. Before, `ENOENT … mkdir` and
 * `disk I/O error` were shown. And after a normal run, git sees no database file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { canMountTmpfs } from '../support/tmpfs.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const mountable = canMountTmpfs();

/** Runs `opencode -p hi` in `project` after `setup` (shell, run inside the namespace) made it a tmpfs. */
function runOnTmpfs(project: string, setup: string): { status: number | null; stdout: string; stderr: string } {
  // no provider is reached: the database is opened before anything is sent
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
  const script = `${setup} && cd '${project}' && exec '${process.execPath}' '${BIN}' -p hi`;
  const run = spawnSync('unshare', ['-m', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(!mountable)('start on a disk that cannot take the data folder', () => {
  it('a read-only project folder is reported as read-only, with what to do', () => {
    const project = mkdtempSync(join(tmpdir(), 'opencode-ro-'));
    const run = runOnTmpfs(project, `mount -t tmpfs -o ro,size=64k tmpfs '${project}'`);
    expect(run).toEqual({
      status: 1,
      stdout: '',
      stderr:
        `opencode: cannot open the session database: ${project}/.opencode is on a read-only file system. ` +
        'Nothing can be saved there: run opencode in a folder on a writable disk, or set data.directory in .opencode.json to a writable folder.\n',
    });
  });

  it('a full disk is reported as full, with what to do', () => {
    const project = mkdtempSync(join(tmpdir(), 'opencode-full-'));
    // the data folder and its .gitignore exist; then a file takes every free block
    const fill = `mkdir '${project}/.opencode' && printf '*\\n!.gitignore\\n' > '${project}/.opencode/.gitignore' && (dd if=/dev/zero of='${project}/fill' bs=4k 2>/dev/null; true)`;
    const run = runOnTmpfs(project, `mount -t tmpfs -o size=64k tmpfs '${project}' && ${fill}`);
    expect(run).toEqual({
      status: 1,
      stdout: '',
      stderr:
        `opencode: cannot open the session database: no space left on the disk holding ${project}/.opencode (SQLITE_FULL). ` +
        'Free some space on that disk (`df -h` shows which is full) and start opencode again.\n',
    });
  });
});

describe('after a run', () => {
  it('git status shows nothing of the data folder: no database file', async () => {
    fake = await startFakeProvider([{ text: 'Done.' }]);
    const project = mkdtempSync(join(tmpdir(), 'opencode-git-'));
    execFileSync('git', ['init', '-q'], { cwd: project });
    const run = await runCli(['-p', 'remember my secret prompt'], {
      cwd: project,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(execFileSync('git', ['status', '--porcelain', '-uall'], { cwd: project, encoding: 'utf8' })).toBe('');
    expect(
      execFileSync('git', ['check-ignore', '.opencode/opencode.db', '.opencode/opencode.db-wal'], {
        cwd: project,
        encoding: 'utf8',
      }),
    ).toBe('.opencode/opencode.db\n.opencode/opencode.db-wal\n');
  });
});
