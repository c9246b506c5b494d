/**
 * The bash tool says where a command ran once the shell has left the project directory:
 * `git status` in another repository must never read as this project's status. Real shell, real git.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/bash.js';
import { recordingContext, runTool, tempDir, type RecordingContext } from '../support/recording-context.js';

let tmp: { dir: string; remove(): void };
let project: string;
let other: string;
let rec: RecordingContext;

beforeEach(() => {
  tmp = tempDir('opencode-ran-in-');
  const root = realpathSync(tmp.dir);
  project = join(root, 'project');
  other = join(root, 'other-repo');
  mkdirSync(project);
  mkdirSync(other);
  execFileSync('git', ['init', '-q', other]);
  writeFileSync(join(other, 'untracked.txt'), 'x\n');
  rec = recordingContext({ cwd: project });
});
afterEach(() => {
  rec.close();
  tmp.remove();
});

describe('bash: where the command ran', () => {
  it('says nothing extra while the shell is in the project directory', async () => {
    const result = await runTool(bashTool, { command: 'echo here' }, rec.ctx);
    expect(result.output).toBe('here');
  });

  it('names the new directory on the call that changed it', async () => {
    const result = await runTool(bashTool, { command: `cd ${other} && echo moved` }, rec.ctx);
    expect(result.output).toBe(`moved\n(the working directory is now ${other})`);
    expect(result.metadata).toMatchObject({ cwd: other });
  });

  it('starts every later result with "(ran in DIR)", git status included', async () => {
    await runTool(bashTool, { command: `cd ${other}` }, rec.ctx);
    const status = await runTool(bashTool, { command: 'git status --short' }, rec.ctx);
    expect(status.output).toBe(`(ran in ${other})\n?? untracked.txt`);
    const failing = await runTool(bashTool, { command: 'exit 2' }, rec.ctx);
    expect(failing.output).toBe(`(ran in ${other})\nExit code 2`);
    const quiet = await runTool(bashTool, { command: 'true' }, rec.ctx);
    expect(quiet.output).toBe(`(ran in ${other})\nno output`);
  });

  it('stops saying it once the shell is back in the project directory', async () => {
    await runTool(bashTool, { command: `cd ${other}` }, rec.ctx);
    const back = await runTool(bashTool, { command: `cd ${project}` }, rec.ctx);
    expect(back.output).toBe(`(ran in ${other})\nno output\n(the working directory is now ${project})`);
    const after = await runTool(bashTool, { command: 'echo home' }, rec.ctx);
    expect(after.output).toBe('home');
  });
});
