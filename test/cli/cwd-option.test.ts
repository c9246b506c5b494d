/**
 * `--cwd` names the project every command works in: one that is missing or not a directory is refused
 * by each command alike, before anything runs (exit 2, the reason on stderr, nothing on stdout). Before,
 * the sub-commands went on: `opencode -c /nonexistent stats` printed an empty log for a project that is
 * not there. Through bin/opencode.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'opencode-cwd-option-'));
const missing = join(dir, 'missing');
const file = join(dir, 'a-file');
writeFileSync(file, 'not a folder\n');

const commands: string[][] = [
  ['stats'],
  ['tools'],
  ['keybindings'],
  ['profiles'],
  ['lsp', 'list'],
  ['mcp', 'list'],
  ['sessions', 'list'],
  ['-p', 'hi'],
];

describe('a --cwd that is not a directory', () => {
  it.each(commands)('%s: refused with exit 2', async (...command) => {
    for (const cwd of [missing, file]) {
      const run = await runCli(['-c', cwd, ...command], {
        cwd: dir,
        env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test' }),
      });
      expect({ cwd, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        cwd,
        code: 2,
        stdout: '',
        stderr: `opencode: --cwd ${cwd}: no such directory\n`,
      });
    }
  });

  it('a relative one is named as resolved from where opencode runs', async () => {
    const run = await runCli(['stats', '--cwd', 'missing'], { cwd: dir, env: cleanEnv() });
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 2,
      stderr: `opencode: --cwd ${missing}: no such directory\n`,
    });
  });
});
