import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/bash.js';
import { createShell, resolveShellPath } from '../../src/tools/shell.js';
import type { ShellRunner } from '../../src/tools/tool.js';
import { isRunning, recordingContext, runTool, tempDir, type RecordingContext } from '../support/recording-context.js';

let tmp: ReturnType<typeof tempDir>;
const shells: ShellRunner[] = [];
beforeEach(() => {
  tmp = tempDir();
  mkdirSync(join(tmp.dir, 'sub'));
});
afterEach(() => {
  for (const s of shells.splice(0)) s.close();
  tmp.remove();
});

function shell(options: Partial<Parameters<typeof createShell>[0]> = {}): ShellRunner {
  const s = createShell({ cwd: tmp.dir, ...options });
  shells.push(s);
  return s;
}

const run = (s: ShellRunner, command: string, timeoutMs = 5_000) => s.exec(command, { timeoutMs });

describe('the session shell keeps state between commands', () => {
  it('keeps the directory after `cd` (through the bash tool)', async () => {
    const rec: RecordingContext = recordingContext({ cwd: tmp.dir });
    try {
      const moved = await runTool(bashTool, { command: 'cd sub' }, rec.ctx);
      expect(moved.output).toBe(`no output\n(the working directory is now ${join(tmp.dir, 'sub')})`);
      const result = await runTool(bashTool, { command: 'pwd' }, rec.ctx);
      expect(result.output).toBe(`(ran in ${join(tmp.dir, 'sub')})\n${join(tmp.dir, 'sub')}`);
      expect(rec.ctx.shell().cwd).toBe(join(tmp.dir, 'sub'));
    } finally {
      rec.close();
    }
  });

  it('keeps exported variables, and forgets unset ones', async () => {
    const s = shell();
    await run(s, 'export GREETING="hello world"');
    expect((await run(s, 'echo "$GREETING"')).stdout).toBe('hello world\n');
    await run(s, 'unset GREETING');
    expect((await run(s, 'echo "${GREETING-gone}"')).stdout).toBe('gone\n');
  });

  it('unsets an inherited variable for good', async () => {
    const s = shell({ env: { FROM_PARENT: 'yes' } });
    expect((await run(s, 'echo $FROM_PARENT; unset FROM_PARENT')).stdout).toBe('yes\n');
    expect((await run(s, 'echo "${FROM_PARENT-gone}"')).stdout).toBe('gone\n');
  });

  it('passes the agent environment on, quotes and all, without running BASH_ENV in the wrapper', async () => {
    const bashEnv = join(tmp.dir, 'bash-env.sh');
    writeFileSync(bashEnv, 'echo sourced-bash-env >&2\n');
    const s = shell({ env: { QUOTED: 'it\'s "here"', BASH_ENV: bashEnv } });
    const result = await run(s, 'echo "$QUOTED"; echo "$BASH_ENV"');
    expect(result).toMatchObject({ stdout: `it's "here"\n${bashEnv}\n`, stderr: '' });
    // a bash script the command starts does read it, as it would in a terminal
    expect((await run(s, 'bash -c true')).stderr).toBe('sourced-bash-env\n');
  });

  it('does not keep unexported variables (documented trade-off)', async () => {
    const s = shell();
    await run(s, 'LOCAL_ONLY=1');
    expect((await run(s, 'echo "${LOCAL_ONLY-unset}"')).stdout).toBe('unset\n');
  });

  it('keeps a value with quotes, spaces and newlines intact', async () => {
    const s = shell();
    await run(
      s,
      `export TRICKY="a 'b' \\"c\\" \\$d
e"`,
    );
    expect((await run(s, 'printf "%s" "$TRICKY"')).stdout).toBe(`a 'b' "c" $d\ne`);
  });

  it('keeps the state of a command that ends with `exit`', async () => {
    const s = shell();
    const result = await run(s, 'cd sub; export AFTER_EXIT=1; exit 4');
    expect(result.exitCode).toBe(4);
    expect(s.cwd).toBe(join(tmp.dir, 'sub'));
    expect((await run(s, 'echo $AFTER_EXIT')).stdout).toBe('1\n');
  });

  it('keeps a `cd` done before a timeout', async () => {
    const s = shell();
    const result = await run(s, 'cd sub && sleep 30', 300);
    expect(result.timedOut).toBe(true);
    expect(s.cwd).toBe(join(tmp.dir, 'sub'));
  });

  it('keeps the logical path of a symlinked directory', async () => {
    symlinkSync(join(tmp.dir, 'sub'), join(tmp.dir, 'link'));
    const s = shell();
    await run(s, 'cd link');
    expect((await run(s, 'pwd')).stdout).toBe(`${join(tmp.dir, 'link')}\n`);
  });

  it('falls back to the initial directory when the current one was deleted', async () => {
    const s = shell();
    await run(s, 'mkdir gone && cd gone');
    rmSync(join(tmp.dir, 'gone'), { recursive: true });
    const result = await run(s, 'pwd');
    expect(result.stdout).toBe(`${tmp.dir}\n`);
    expect(result.stderr).toBe(
      `(the working directory ${join(tmp.dir, 'gone')} no longer exists; running in ${tmp.dir})\n`,
    );
  });

  it('keeps sessions apart', async () => {
    const a = shell();
    const b = shell();
    await run(a, 'cd sub; export WHO=a');
    expect((await run(b, 'pwd; echo "${WHO-none}"')).stdout).toBe(`${tmp.dir}\nnone\n`);
  });

  it('runs the commands of one session one at a time, in order', async () => {
    const s = shell();
    const order: string[] = [];
    const first = run(s, 'sleep 0.3; echo one').then((r) => order.push(r.stdout.trim()));
    const second = run(s, 'echo two').then((r) => order.push(r.stdout.trim()));
    await Promise.all([first, second]);
    expect(order).toEqual(['one', 'two']);
  });

  it('disables pagers and editors but does not set CI', async () => {
    const s = shell();
    const result = await run(s, 'echo "$PAGER|$GIT_PAGER|$GIT_EDITOR|$EDITOR|$GIT_TERMINAL_PROMPT|${CI-unset}"');
    const ci = process.env.CI ?? 'unset';
    expect(result.stdout).toBe(`cat|cat|true|true|0|${ci}\n`);
  });
});

describe('background jobs', () => {
  it('lets a background job outlive its command and kills it on close', async () => {
    const s = shell();
    const started = Date.now();
    const result = await run(s, 'sleep 300 & echo $!');
    expect(Date.now() - started).toBeLessThan(2_000);
    const pid = Number(result.stdout.trim());
    expect(isRunning(pid)).toBe(true);
    s.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(isRunning(pid)).toBe(false);
  });

  it('returns promptly when a background job keeps the output pipe open', async () => {
    const s = shell();
    const started = Date.now();
    const result = await run(s, '(sleep 1; echo late) & echo now');
    expect(Date.now() - started).toBeLessThan(900);
    expect(result.stdout).toBe('now\n');
  });
});

describe('choosing the shell', () => {
  it('uses the configured shell, else $SHELL only when it is bash, else /bin/bash', () => {
    expect(resolveShellPath('/usr/bin/dash', '/bin/zsh')).toBe('/usr/bin/dash');
    expect(resolveShellPath(undefined, '/usr/bin/fish')).toBe('/bin/bash');
    expect(resolveShellPath(undefined, '/bin/bash')).toBe('/bin/bash');
  });

  it('works with a plain POSIX shell (dash)', async () => {
    const s = shell({ shellPath: '/bin/sh' });
    await run(s, 'cd sub; export V=1');
    expect((await run(s, 'pwd; echo $V')).stdout).toBe(`${join(tmp.dir, 'sub')}\n1\n`);
  });
});
