import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashTool, effectiveTimeoutMs } from '../../src/tools/bash.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import { truncateOutput } from '../../src/tools/truncate.js';
import { isRunning, runTool, type RecordingContext, useRecordingWorkspace } from '../support/recording-context.js';

/**
 * The context with its permission requests going to a real PermissionService (no rules) that fails
 * the call if it would ask the person: every bash call consults the policy, read-only ones included.
 */
function withPolicy(recording: RecordingContext) {
  const service = new PermissionService(recording.ctx.cwd);
  service.onRequest((r) => {
    throw new Error(`asked the person: ${r.description}`);
  });
  return {
    ...recording.ctx,
    askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
      service.request('s', 'bash', { ...input, subject }),
  };
}

const ws = useRecordingWorkspace();

describe('bash: output', () => {
  it('reports a non-zero exit as an error, stdout before stderr', async () => {
    const result = await runTool(bashTool, { command: 'echo out; echo err >&2; exit 3' }, ws.rec.ctx);
    expect(result.output).toBe('out\nerr\nExit code 3');
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ exit_code: 3, timed_out: false });
    const { start_time, end_time } = result.metadata as { start_time: number; end_time: number };
    expect(end_time).toBeGreaterThanOrEqual(start_time);
    expect(Math.abs(start_time - Date.now())).toBeLessThan(10_000);
  });

  it('returns stdout alone on success', async () => {
    const result = await runTool(bashTool, { command: 'echo hello' }, ws.rec.ctx);
    expect(result).toMatchObject({ output: 'hello', isError: false, metadata: { exit_code: 0, timed_out: false } });
  });

  it('says "no output" when there is none', async () => {
    const result = await runTool(bashTool, { command: 'true' }, ws.rec.ctx);
    expect(result.output).toBe('no output');
  });

  it('cuts stdout to 15,000 characters of head and tail around a marker', async () => {
    const result = await runTool(
      bashTool,
      { command: "head -c 40000 /dev/zero | tr '\\0' a; printf 'END'" },
      ws.rec.ctx,
    );
    const expected = `${'a'.repeat(15_000)}\n\n... [1 lines truncated] ...\n\n${'a'.repeat(14_997)}END`;
    expect(result.output).toBe(expected);
  });

  it('counts the lines it drops exactly as the kernel cuts, for stdout and stderr separately', async () => {
    const full = execFileSync('seq', ['1', '20000'], { encoding: 'utf8' });
    const result = await runTool(bashTool, { command: 'seq 1 20000; seq 1 20000 >&2' }, ws.rec.ctx);
    const cut = truncateOutput(full, 'marker', { maxOutputChars: 30_000 }).text.replace(/\n$/, '');
    expect(cut).toContain('... [14280 lines truncated] ...');
    expect(result.output).toBe(`${cut}\n${cut}`);
  });

  it('reports live output through onProgress', async () => {
    await runTool(bashTool, { command: 'echo first; sleep 0.4; echo second' }, ws.rec.ctx);
    expect(ws.rec.progress[0]).toBe('first\n');
  });
});

describe('bash: timeouts and cancellation', () => {
  it('kills the whole process group on timeout and returns at once', async () => {
    const pidFile = join(ws.dir, 'bg.pid');
    const started = Date.now();
    const result = await runTool(
      bashTool,
      { command: `sleep 300 & echo $! > ${pidFile}; sleep 300`, timeout: 500 },
      ws.rec.ctx,
    );
    const elapsed = Date.now() - started;

    expect(elapsed).toBeLessThan(3_000);
    expect(result.output).toBe('Command timed out after 500 ms and was killed');
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ exit_code: null, timed_out: true });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(grandchild)).toBe(false);
  });

  it('uses SIGKILL for a command that ignores SIGTERM', async () => {
    const started = Date.now();
    const result = await runTool(bashTool, { command: "trap '' TERM; sleep 300", timeout: 300 }, ws.rec.ctx);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.metadata).toMatchObject({ timed_out: true });
  });

  it('stops the command when the run is cancelled', async () => {
    setTimeout(() => ws.rec.abort.abort(), 300);
    const started = Date.now();
    const result = await runTool(bashTool, { command: 'sleep 300 & sleep 300' }, ws.rec.ctx);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({
      output: 'Command was aborted before completion',
      isError: true,
      metadata: { exit_code: null, timed_out: false },
    });
  });

  it('defaults and caps the timeout (ms)', () => {
    expect([undefined, 0, -5, 1234, 700_000].map(effectiveTimeoutMs)).toEqual([60_000, 60_000, 60_000, 1234, 600_000]);
  });
});

describe('bash: nothing waits for a person', () => {
  it('closes stdin: cat and read return at once', async () => {
    const started = Date.now();
    const result = await runTool(bashTool, { command: 'cat; read x; echo "got:$x"', timeout: 5_000 }, ws.rec.ctx);
    expect(result.output).toBe('got:');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('runs git log without a pager', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.dir, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(ws.dir, 'f.txt'), 'x');
    git('add', '.');
    git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'first commit');
    const result = await runTool(bashTool, { command: 'git log --format=%s', timeout: 5_000 }, withPolicy(ws.rec));
    expect(result).toMatchObject({ output: 'first commit', isError: false });
  });
});

describe('bash: refusals and permission', () => {
  it('refuses a banned command without asking', async () => {
    const result = await runTool(bashTool, { command: 'CURL -s https://example.com' }, ws.rec.ctx);
    expect(result).toEqual({
      output: "Command 'curl' is not allowed: network access; use the fetch tool to read a web page.",
      isError: true,
    });
    expect(ws.rec.permissions).toEqual([]);
  });

  it('refuses a whitespace-only command (the original panicked)', async () => {
    const result = await runTool(bashTool, { command: ' \n\t ' }, ws.rec.ctx);
    expect(result).toEqual({ output: 'The command is empty. Send the command to run in `command`.', isError: true });
  });

  it('runs a safe read-only command without asking the person (the policy allows it)', async () => {
    writeFileSync(join(ws.dir, 'x'), '');
    const result = await runTool(bashTool, { command: 'ls' }, withPolicy(ws.rec));
    expect(result.output).toBe('x');
  });

  it('asks for `ls && rm x`, and a denial leaves x in place', async () => {
    writeFileSync(join(ws.dir, 'x'), '');
    ws.rec.answer = 'deny';
    const result = await runTool(bashTool, { command: 'ls && rm x' }, ws.rec.ctx);
    expect(ws.rec.permissions).toEqual([
      {
        action: 'execute',
        description: 'Execute command: ls && rm x',
        params: { command: 'ls && rm x' },
        path: ws.dir,
      },
    ]);
    expect(result).toEqual({ output: 'Permission denied', isError: true, permissionDenied: true });
    expect(existsSync(join(ws.dir, 'x'))).toBe(true);
  });

  it('runs an allowed command after asking', async () => {
    const result = await runTool(bashTool, { command: 'touch made && ls' }, ws.rec.ctx);
    expect(ws.rec.permissions).toHaveLength(1);
    expect(result.output).toBe('made');
  });
});
