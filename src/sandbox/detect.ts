/**
 * Is the OS sandbox usable here? Finds the launcher and runs a trivial command in it once per
 * process (cached), so a kernel without unprivileged user namespaces, or a container that forbids
 * them, is found before the first command instead of failing it.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What detection found. */
export interface SandboxSupport {
  backend: 'bubblewrap' | 'seatbelt' | 'none';
  /** absolute path of `bwrap` or `sandbox-exec` when usable */
  launcher?: string;
  /** absolute path of `socat` (Linux, for the allowed-domains proxy), when installed */
  socat?: string;
  /** why the sandbox can't start, when `backend` is `none` */
  reason?: string;
}

let cached: Promise<SandboxSupport> | undefined;

/** Detection, run once per process. `OPENCODE_BWRAP_PATH` names the bwrap binary to use instead. */
export function detectSandbox(): Promise<SandboxSupport> {
  cached ??= detect();
  return cached;
}

async function detect(): Promise<SandboxSupport> {
  if (process.platform === 'darwin') {
    const launcher = '/usr/bin/sandbox-exec';
    if (!isExecutable(launcher)) return { backend: 'none', reason: '/usr/bin/sandbox-exec is missing' };
    const ok = await runs(launcher, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return ok === true
      ? { backend: 'seatbelt', launcher }
      : { backend: 'none', reason: `sandbox-exec cannot start: ${ok}` };
  }
  if (process.platform !== 'linux') return { backend: 'none', reason: `no sandbox for ${process.platform}` };
  const launcher = process.env.OPENCODE_BWRAP_PATH || findOnPath('bwrap');
  if (!launcher) return { backend: 'none', reason: 'bubblewrap (bwrap) is not installed' };
  const trial = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--',
    'true',
  ];
  const ok = await runs(launcher, trial);
  if (ok !== true) return { backend: 'none', reason: `bwrap cannot start here: ${ok}` };
  return { backend: 'bubblewrap', launcher, socat: findOnPath('socat') };
}

/** true, or the error text of the failed start */
function runs(file: string, args: string[]): Promise<true | string> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
      (err, _stdout, stderr) => {
        if (!err) resolve(true);
        else resolve((stderr.trim().split('\n').pop() || err.message).slice(0, 200));
      },
    );
  });
}

/** The absolute path of `name` on PATH, or undefined. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Whether `path` exists and this process may execute it. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
