/** Whether tests can make a private mount namespace (`unshare -m`) and mount a tmpfs in it: a disk that fills up, for real. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether this machine lets us make a private mount namespace and mount a tmpfs in it. */
export function canMountTmpfs(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'opencode-mnt-'));
  return spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs '${probe}'`]).status === 0;
}
