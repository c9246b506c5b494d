/**
 * sandboxProcess (src/sandbox/process.ts), the wrapping of what opencode starts for a project: a
 * program found on PATH is wrapped by its full path, a missing one fails as spawn says it, the
 * program's own temp directory is its TMPDIR and is removed by release, and `allowWrite` adds places.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxMode } from '../../src/sandbox/index.js';
import { sandboxProcess } from '../../src/sandbox/process.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function projectSandbox(mode: SandboxMode = 'auto'): { project: string; sandbox: Sandbox } {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-process-test-')));
  sandbox = createSandbox({
    settings: { mode, allowWrite: [], denyRead: [], allowedDomains: [] },
    projectDir: project,
    home: process.env.HOME!,
  });
  return { project, sandbox };
}

/** Runs the wrapped program to its end; stdout and the exit status. */
function run(file: string, args: string[], env: Record<string, string>, cwd: string) {
  const done = spawnSync(file, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { stdout: done.stdout, status: done.status };
}

describe.runIf(process.platform === 'linux')('sandboxProcess', () => {
  it('writes in its own TMPDIR, which release removes; the environment marks a nested run', async () => {
    const { project, sandbox } = projectSandbox();
    const wrapped = await sandboxProcess(sandbox, [
      'sh',
      '-c',
      'echo cached > "$TMPDIR/c" && cat "$TMPDIR/c" && echo "$OPENCODE_SANDBOXED $OPENCODE_SANDBOX_LEVEL"',
    ]);
    expect(wrapped.env.TMPDIR).toBe(wrapped.tempDir);
    expect(run(wrapped.file, wrapped.args, wrapped.env, project)).toEqual({ stdout: 'cached\n1 strict\n', status: 0 });
    expect(existsSync(wrapped.tempDir!)).toBe(true);
    expect(wrapped.release()).toEqual([]);
    expect(existsSync(wrapped.tempDir!)).toBe(false);
  });

  it('finds the program on the PATH it is given, and fails as spawn does when it is not there', async () => {
    const { sandbox } = projectSandbox();
    const wrapped = await sandboxProcess(sandbox, ['sh', '-c', 'true'], { pathVariable: '/usr/bin:/bin' });
    expect(wrapped.args).toContain('/usr/bin/sh');
    wrapped.release();
    await expect(
      sandboxProcess(sandbox, ['opencode-no-such-program'], { pathVariable: '/usr/bin:/bin' }),
    ).rejects.toMatchObject({
      code: 'ENOENT',
      syscall: 'spawn opencode-no-such-program',
      message: 'spawn opencode-no-such-program ENOENT',
    });
  });

  it('allowWrite adds a writable place (relative to the project too); without it the write is refused', async () => {
    const { project, sandbox } = projectSandbox();
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-process-outside-')));
    const write = (dir: string) => ['sh', '-c', `echo x > ${JSON.stringify(join(dir, 'f'))}`];
    const refused = await sandboxProcess(sandbox, write(outside));
    expect(run(refused.file, refused.args, refused.env, project).status).not.toBe(0);
    refused.release();
    expect(existsSync(join(outside, 'f'))).toBe(false);
    // given relative to the project, as a config entry may
    const allowed = await sandboxProcess(sandbox, write(outside), {
      settings: { allowWrite: [relative(project, outside)] },
    });
    expect(run(allowed.file, allowed.args, allowed.env, project).status).toBe(0);
    allowed.release();
    expect(readFileSync(join(outside, 'f'), 'utf8')).toBe('x\n');
  });

  it('with "sandbox": "off" runs the program as it is, with only the marker added', async () => {
    const { sandbox } = projectSandbox('off');
    const wrapped = await sandboxProcess(sandbox, ['sh', '-c', 'true']);
    expect(wrapped).toMatchObject({ file: 'sh', args: ['-c', 'true'], env: { OPENCODE_SANDBOXED: '1' } });
    expect(wrapped.tempDir).toBeUndefined();
  });
});
