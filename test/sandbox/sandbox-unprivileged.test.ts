/**
 * The sandbox for a person who is not root (the usual case): bubblewrap then runs in an unprivileged
 * user namespace. The test runs the session shell as `nobody` (through `setpriv`), so it runs only
 * where the tests run as root; a write outside the project and to `.opencode.json` are refused in the
 * sandbox, and happen with the sandbox off (the control).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectSandbox, findOnPath } from '../../src/sandbox/detect.js';

const NOBODY = 65534;
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sandbox-unprivileged.mts');
const TSX = join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');
const setpriv = findOnPath('setpriv');
const canRun = process.getuid?.() === 0 && setpriv !== undefined && (await detectSandbox()).backend === 'bubblewrap';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Runs the fixture as nobody; returns the shell's result and what happened on disk. */
function runAsNobody(mode: 'auto' | 'off') {
  // under /tmp itself: the test run's own temp directory may be closed to other users
  const root = mkdtempSync('/tmp/opencode-sandbox-nobody-');
  roots.push(root);
  chmodSync(root, 0o755);
  const project = join(root, 'project');
  const outsideDir = join(root, 'outside');
  for (const dir of [project, outsideDir]) {
    mkdirSync(dir);
    chmodSync(dir, 0o777);
  }
  writeFileSync(join(project, '.opencode.json'), '{}\n', { mode: 0o666 });
  chmodSync(join(project, '.opencode.json'), 0o666);
  const outside = join(outsideDir, 'written');
  const run = spawnSync(
    setpriv!,
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      process.execPath,
      '--import',
      TSX,
      FIXTURE,
      project,
      mode,
      outside,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: project }, timeout: 60_000 },
  );
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { stdout: string; sandboxed?: boolean };
  return {
    result,
    outsideWritten: existsSync(outside),
    configChanged: readFileSync(join(project, '.opencode.json'), 'utf8') !== '{}\n',
  };
}

describe.skipIf(!canRun)('the sandbox as an unprivileged user', () => {
  it('refuses a write outside the project and to .opencode.json', () => {
    const { result, outsideWritten, configChanged } = runAsNobody('auto');
    expect(result).toMatchObject({ stdout: `${NOBODY}\n`, sandboxed: true });
    expect({ outsideWritten, configChanged }).toEqual({ outsideWritten: false, configChanged: false });
  });

  it('the control: with the sandbox off both writes happen', () => {
    const { result, outsideWritten, configChanged } = runAsNobody('off');
    expect(result.stdout).toBe(`${NOBODY}\n`);
    expect({ outsideWritten, configChanged }).toEqual({ outsideWritten: true, configChanged: true });
  });
});
