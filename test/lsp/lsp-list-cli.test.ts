/** `opencode lsp list` prints what would start for the project and why, starting nothing. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

describe('opencode lsp list', () => {
  it('lists a configured server and a disabled one, with the reasons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-lsp-list-'));
    writeFileSync(join(dir, 'a.py'), 'x = 1\n');
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({
        lsp: {
          lua: { command: 'lua-language-server', extensions: ['.lua'] },
          python: { command: 'pyright-langserver', disabled: true },
        },
      }),
    );
    const run = await runCli(['lsp', 'list'], { cwd: dir, env: cleanEnv({ PATH: '/usr/bin:/bin' }) });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 5)).toEqual([
      'lua  lua-language-server',
      '  config: configured in lsp.lua',
      '  starts with opencode for .lua files; edits wait for its initial load (up to 10000 ms from its start), then up to 5000 ms for its diagnostics',
      'Not started:',
      '  python: lsp.python.disabled is true',
    ]);
  });

  it('"lsp": false: none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-lsp-list-'));
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ lsp: false }));
    const run = await runCli(['lsp', 'list'], { cwd: dir, env: cleanEnv() });
    expect(run.stdout).toBe('No language server for this project.\nNot started:\n  all: "lsp": false in the config\n');
  });
});
