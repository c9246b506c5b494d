/**
 * `cd name` in the bash tool means ./name: the permission check resolves relative paths
 * against the shell's directory, so a CDPATH inherited from the person's environment, or exported by
 * an earlier command, must not send `cd` elsewhere.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner } from '../../src/tools/tool.js';
import { tempDir } from '../support/recording-context.js';

let project: ReturnType<typeof tempDir>;
let elsewhere: ReturnType<typeof tempDir>;
let shell: ShellRunner;
beforeEach(() => {
  project = tempDir();
  elsewhere = tempDir();
  mkdirSync(join(project.dir, 'sub'));
  mkdirSync(join(elsewhere.dir, 'sub'));
  shell = createShell({ cwd: project.dir, env: { CDPATH: elsewhere.dir } });
});
afterEach(() => {
  shell.close();
  project.remove();
  elsewhere.remove();
});

const run = (command: string) => shell.exec(command, { timeoutMs: 10_000 });

it('ignores an inherited CDPATH', async () => {
  expect((await run('cd sub && pwd')).stdout).toBe(`${project.dir}/sub\n`);
});

it('ignores a CDPATH exported by an earlier command', async () => {
  await run(`export CDPATH=${elsewhere.dir}`);
  expect((await run('cd sub && pwd')).stdout).toBe(`${project.dir}/sub\n`);
});

it('still honours a CDPATH set in the same command (the permission check treats that cd as going somewhere unknown)', async () => {
  expect((await run(`CDPATH=${elsewhere.dir}; cd sub >/dev/null && pwd`)).stdout).toBe(`${elsewhere.dir}/sub\n`);
});
