/**
 * bin/opencode run through its shebang picks Node's flags by the kind of run (issue 16): the young
 * generation's cap (--max-semi-space-size=4) for the runs that last (the TUI, `acp`), no V8 flag for the
 * others, which would otherwise compile Node's built-in modules from source. A `node` on PATH that prints
 * its arguments stands in for Node; then the real one, through the shebang and as `node bin/opencode`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/opencode');
const FLAG = '--max-semi-space-size=4';
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/** What `bin/opencode args…` execs, as the stand-in `node` prints it: its arguments, one per line. */
function execedWith(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bin-flags-'));
  writeFileSync(join(dir, 'node'), '#!/bin/sh\nfor a do printf "%s\\n" "$a"; done\n');
  chmodSync(join(dir, 'node'), 0o755);
  const out = execFileSync(BIN, args, { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
}

describe('bin/opencode through its shebang', () => {
  const lasting: string[][] = [[], ['--continue'], ['--session', 'acp'], ['-c', 'stats'], ['-m', 'anthropic/x', '-d'], ['acp'], ['-c', '/tmp', 'acp']];
  it.each(lasting)('%j: the TUI or acp, with the young generation capped', (...args) => {
    expect(execedWith(args)).toEqual([FLAG, BIN, ...args]);
  });

  const brief: string[][] = [
    ['-p', 'hi', '-q'],
    ['-q', '--prompt=hi'],
    ['-m', 'a/b', '-p', 'a prompt with  spaces and * and $HOME'],
    ['--version'],
    ['-v'],
    ['--help'],
    ['stats', '--days', '7'],
    ['--profile', 'work', 'sessions', 'list'],
    ['keybindings'],
  ];
  it.each(brief)('%j: no V8 flag, the arguments passed as they are', (...args) => {
    expect(execedWith(args)).toEqual([BIN, ...args]);
  });

  it('runs the real Node: --version through the shebang and as `node bin/opencode`', () => {
    expect(execFileSync(BIN, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
  });
});
