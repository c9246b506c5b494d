/**
 * A disk that fills up during a run, for real: the project is a 256 KB tmpfs in a private mount
 * namespace (`unshare -m`) and the reply is larger than that. The run fails with the place and what
 * to do, not SQLite's bare "database or disk is full".
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { canMountTmpfs } from '../support/tmpfs.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const mountable = canMountTmpfs();

describe.skipIf(!mountable)('a disk that fills up during a run', () => {
  it('-p fails with the data folder and what to do', async () => {
    fake = await startFakeProvider([{ text: 'x'.repeat(400_000) }]);
    const project = mkdtempSync(join(tmpdir(), 'opencode-full-run-'));
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const script = `mount -t tmpfs -o size=256k tmpfs '${project}' && cd '${project}' && exec '${process.execPath}' '${BIN}' -p hi`;
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('unshare', ['-m', 'sh', '-c', script], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `opencode: no space left on the disk holding ${project}/.opencode (SQLITE_FULL). ` +
        'Free some space on that disk (`df -h` shows which is full) and start opencode again.\n',
    });
  }, 60_000);
});
