/**
 * A declarative tool whose program leaves a background child holding its stdout (one that ignores
 * SIGTERM, too) returns with what the program printed and the reason, and nothing of it is left
 * running after the call.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseToolFile } from '../../src/custom/declarative-spec.js';
import { createDeclarativeTool } from '../../src/custom/declarative-tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

/** Whether `pid` runs: a zombie (ended, not yet reaped by an init that reaps late) counts as gone. */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
}

describe('a declarative tool that leaves a background child', () => {
  it.each([
    ['that holds its stdout', ''],
    ['that holds its stdout and ignores SIGTERM', "process.on('SIGTERM', () => {});"],
  ])('%s: the result has the output and the reason, and the child is gone', { timeout: 60_000 }, async (_, trap) => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-decl-bg-'));
    const pidFile = join(dir, 'child.pid');
    // the child inherits stdout and stays for 10 minutes; the program prints a line and exits at once
    const child = `${trap} require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 600000)`;
    const code = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: ['ignore', 'inherit', 'inherit'] }).unref(); setTimeout(() => console.log('started the watcher'), 300)`;
    const parsed = parseToolFile(
      JSON.stringify({
        name: 'watch',
        description: 'Starts a watcher.',
        command: [process.execPath, '-e', code],
        readOnly: true,
        timeout: 600_000,
      }),
      join(dir, 'watch.json'),
      'json',
    );
    expect(parsed.errors).toEqual([]);
    const result = await runTool(createDeclarativeTool(parsed.tools[0]!, { projectDir: dir }), {}, toolContext(dir));
    expect(result).toMatchObject({
      output:
        'started the watcher\nwatch exited leaving processes of its own running (a background child holding its output, say); they were ended',
      isError: false,
    });
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});

describe('a declarative tool cancelled while its child ignores SIGTERM', () => {
  it('the result comes once the child is gone (SIGKILL after the grace)', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-decl-bg-'));
    const pidFile = join(dir, 'child.pid');
    const child = `process.on('SIGTERM', () => {}); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    // the program itself ends at SIGTERM; only its child stays
    const code = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' }); setInterval(() => {}, 1000)`;
    const parsed = parseToolFile(
      JSON.stringify({
        name: 'watch',
        description: 'Starts a watcher.',
        command: [process.execPath, '-e', code],
        readOnly: true,
        timeout: 600_000,
      }),
      join(dir, 'watch.json'),
      'json',
    );
    const controller = new AbortController();
    const result = runTool(
      createDeclarativeTool(parsed.tools[0]!, { projectDir: dir }),
      {},
      toolContext(dir, { signal: controller.signal }),
    );
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await result).toMatchObject({ output: 'Tool execution canceled by user', isError: true });
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});
