/**
 * Before the suite: builds dist/ once, so tests that run bin/opencode test the current source (not
 * when only the `unit` project runs: its tests start no built program), and gives the run a temp
 * folder of its own, removed at the end.
 *
 * Tests make their folders with `mkdtemp(tmpdir())` (hundreds of them, and the processes they start
 * make more: HOMEs, shells' state, tmux sockets); few remove them, and after a few runs /tmp held
 * ~16,000 `opencode-*` folders. Setting TMPDIR here, in the main process before the workers start,
 * puts all of that under one root: the forked workers inherit the environment, and `os.tmpdir()`
 * reads TMPDIR at each call, as do the bin/opencode, git and shell processes the tests start. The
 * root is `<system temp>/opencode-tests-<pid>-XXXXXX`: short enough that a tmux socket inside it
 * stays far below the 107 bytes of a Unix socket path, and named by the run's pid so a run killed
 * before its teardown (ctrl+c twice, SIGKILL) leaves one folder that the next run removes.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** The name of a run's temp root starts with this, then `<pid>-`. */
export const RUN_TEMP_PREFIX = 'opencode-tests-';

/** The project (vitest.config.ts) whose tests neither run nor load the built files. */
const NEEDS_NO_BUILD = 'unit';

export default function setup(rootProject: TestProject): () => void {
  // the projects of this run: those `--project` selected, or all
  if (rootProject.vitest.projects.some((project) => project.name !== NEEDS_NO_BUILD))
    execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const systemTemp = tmpdir();
  removeAbandonedRoots(systemTemp);
  const root = mkdtempSync(join(systemTemp, `${RUN_TEMP_PREFIX}${process.pid}-`));
  process.env.TMPDIR = root;
  // a suite run by an opencode command (the person asked opencode to run npm test) inherits the marks of
  // a nested run, which would make every opencode the tests start refuse what asks; the tests set them where they mean to
  delete process.env.OPENCODE_SANDBOXED;
  delete process.env.OPENCODE_SANDBOX_LEVEL;
  return () => {
    process.env.TMPDIR = systemTemp;
    removeTree(root);
  };
}

/** Removes the roots of runs whose process is gone (killed before their teardown). */
function removeAbandonedRoots(systemTemp: string): void {
  let names: string[];
  try {
    names = readdirSync(systemTemp);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = new RegExp(`^${RUN_TEMP_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid !== undefined && !running(Number(pid))) removeTree(join(systemTemp, name));
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes `path` and all under it, best effort. Tests leave folders without write or search
 * permission (chmod 0500 / 000 for the read-only cases): those are opened up and the removal tried again.
 */
function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    return;
  } catch {
    openUp(path);
  }
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  } catch (err) {
    process.stderr.write(`test/global-setup: could not remove ${path}: ${(err as Error).message}\n`);
  }
}

/** Gives the owner rwx on every folder under `path` (links are not followed). */
function openUp(path: string): void {
  try {
    if (!lstatSync(path).isDirectory()) return;
    chmodSync(path, 0o700);
    for (const name of readdirSync(path)) openUp(join(path, name));
  } catch {
    // not ours, or gone: rmSync reports what is left
  }
}
