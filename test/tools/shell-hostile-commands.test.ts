/**
 * Commands that broke the session shell: one longer than 128 KB (`spawn E2BIG` when it was an
 * argument), a `trap … EXIT` of the command's own (it replaced the wrapper's trap, so `cd` and
 * exports were lost), and the environment snapshot (API keys) lying in /tmp between commands.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner } from '../../src/tools/tool.js';
import { tempDir } from '../support/recording-context.js';

let tmp: ReturnType<typeof tempDir>;
let shell: ShellRunner;
beforeEach(() => {
  tmp = tempDir();
  shell = createShell({ cwd: tmp.dir, env: { OPENCODE_TEST_SECRET: 'sk-test-123' } });
});
afterEach(() => {
  shell.close();
  tmp.remove();
});

const run = (command: string) => shell.exec(command, { timeoutMs: 10_000 });

/** Files in our shells' state folders that hold the test secret. */
function filesWithSecret(): string[] {
  const found: string[] = [];
  for (const dir of readdirSync(tmpdir()).filter((d) => d.startsWith('opencode-shell-'))) {
    for (const name of readdirSync(`${tmpdir()}/${dir}`)) {
      try {
        if (readFileSync(`${tmpdir()}/${dir}/${name}`, 'utf8').includes('sk-test-123')) found.push(`${dir}/${name}`);
      } catch {
        // removed meanwhile
      }
    }
  }
  return found;
}

describe('hostile commands', () => {
  it('runs a 300 KB command', async () => {
    const command = `printf %s '${'x'.repeat(300_000)}' | wc -c`;
    expect(await run(command)).toEqual({
      stdout: '300000\n',
      stderr: '',
      exitCode: 0,
      interrupted: false,
      timedOut: false,
    });
  });

  it('keeps cd and exports of a command that sets its own EXIT trap, and runs the trap', async () => {
    expect((await run(`mkdir sub && cd sub && export KEPT=yes && trap 'echo bye' EXIT`)).stdout).toBe('bye\n');
    expect((await run('pwd; echo $KEPT')).stdout).toBe(`${tmp.dir}/sub\nyes\n`);
  });

  it('keeps a command with quotes, backslashes and a syntax error apart from the wrapper', async () => {
    expect((await run(`echo 'it'"'"'s' "\\\\n"`)).stdout).toBe("it's \\n\n");
    const bad = await run('if then');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("syntax error near unexpected token `then'");
    expect((await run('echo still here')).stdout).toBe('still here\n');
  });

  it('leaves no file holding the environment between commands', async () => {
    await run('export MORE=1');
    expect((await run('echo $OPENCODE_TEST_SECRET')).stdout).toBe('sk-test-123\n');
    expect(filesWithSecret()).toEqual([]);
  });
});
