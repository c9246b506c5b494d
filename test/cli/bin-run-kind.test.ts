/**
 * bin/opencode's shell line and code-cache.ts's runKind read the arguments alike: the shell
 * gives --max-semi-space-size=4 exactly to the runs runKind calls `tui` or `acp`, and both read short
 * options as commander does (main.ts): a group (`-qp hi` is `-q -p hi`) or a value joined to its option
 * (`-phi`). Before, `-phi` and `-p=hi` (prompts to commander) got the TUI's flag and its code cache
 * (never saved by a -p run), and `-qp hello` a cache file of its own named `hello`. A `node` on PATH
 * that prints its arguments stands in for Node (through /bin/sh and bash); then the real one.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKind } from '../../src/cli/code-cache.js';

const BIN = resolve('bin/opencode');
const FLAG = '--max-semi-space-size=4';

/** A folder with a stand-in `node` that prints its arguments, one per line. */
const standIn = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bin-kind-'));
  writeFileSync(join(dir, 'node'), '#!/bin/sh\nfor a do printf "%s\\n" "$a"; done\n');
  chmodSync(join(dir, 'node'), 0o755);
  return dir;
})();

/** What `<shell> bin/opencode args…` (the shebang's /bin/sh when `shell` is undefined) execs. */
function execedWith(args: string[], shell?: string): string[] {
  const env = { ...process.env, PATH: `${standIn}:${process.env.PATH}` };
  const out = shell
    ? execFileSync(shell, [BIN, ...args], { env, encoding: 'utf8' })
    : execFileSync(BIN, args, { env, encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
}

const cases: [string[], string][] = [
  [[], 'tui'],
  [['-q'], 'tui'],
  [['-qd', '--continue'], 'tui'],
  [['-'], 'tui'],
  [['-qp', 'hello'], 'prompt'],
  [['-dqp', 'what is this'], 'prompt'],
  [['-phi'], 'prompt'],
  [['-p=hi'], 'prompt'],
  [['-qphello', 'world'], 'prompt'],
  [['-p', 'acp'], 'prompt'],
  [['-qf', 'json', '-p', 'x'], 'prompt'],
  [['-qc', 'dir'], 'tui'], // `dir` is -c's value, not a sub-command
  [['-qc', 'dir', 'acp'], 'acp'],
  [['-qm', 'acp'], 'tui'],
  [['-mlocal/x', 'acp'], 'acp'],
  [['-cdir', 'stats'], 'stats'],
  [['--cwd=dir', 'acp'], 'acp'],
  [['--model', 'acp'], 'tui'],
  [['--no-auto-approve', 'acp'], 'acp'],
  [['acp', '-p', 'x'], 'acp'],
  [['-qh'], 'help'],
  [['-hq'], 'help'],
  [['-qv'], 'version'],
  [['--version', '-q'], 'version'],
  [[''], 'other'],
  [['--session', 'acp'], 'tui'], // `acp` is the session's id
  [['-m', 'a/b', '-p', 'a prompt with  spaces and * and $HOME'], 'prompt'], // passed on as it is
  [['--profile', 'work', 'sessions', 'list'], 'sessions'],
  [['keybindings'], 'keybindings'],
];

describe('bin/opencode and runKind read the arguments alike', () => {
  it.each(cases)('%j: runKind says %s, and the shell gives the flag only to the TUI and acp', (args, kind) => {
    expect(runKind(args)).toBe(kind);
    const expected = kind === 'tui' || kind === 'acp' ? [FLAG, BIN, ...args] : [BIN, ...args];
    expect(execedWith(args)).toEqual(expected);
    expect(execedWith(args, 'bash')).toEqual(expected);
  });
});

describe('bin/opencode with the real Node', () => {
  it('--version through the shebang and as `node bin/opencode`', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(execFileSync(BIN, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
  });
});
