/**
 * Which servers a project gets: config entries, installed servers for the languages present,
 * `disabled` honoured (discovery included), `"lsp": false` turning everything off.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planServers } from '../../src/lsp/servers.js';

function project(files: string[]): { dir: string; bin: string } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-lsp-plan-'));
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  // installed servers: one in the project's node_modules/.bin, others on a PATH folder
  const bin = mkdtempSync(join(tmpdir(), 'opencode-lsp-path-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  for (const [folder, name] of [
    [join(dir, 'node_modules', '.bin'), 'typescript-language-server'],
    [bin, 'pyright-langserver'],
    [bin, 'gopls'],
  ] as const) {
    writeFileSync(join(folder, name), '#!/bin/sh\n');
    chmodSync(join(folder, name), 0o755);
  }
  return { dir, bin };
}

describe('planServers', () => {
  it('finds installed servers for the languages present, and says why the others are left out', () => {
    const { dir, bin } = project(['src/a.ts', 'src/b.tsx', 'tool.py', 'lib/util.py', 'node_modules/x/skip.go']);
    const { servers, skipped } = planServers(dir, {}, bin);
    expect(servers.map((s) => [s.language, s.command, s.args, s.why])).toEqual([
      [
        'typescript',
        join(dir, 'node_modules/.bin/typescript-language-server'),
        ['--stdio'],
        'found node_modules/.bin/typescript-language-server; the project has 1 .ts file, 1 .tsx file',
      ],
      [
        'python',
        join(bin, 'pyright-langserver'),
        ['--stdio'],
        `found ${join(bin, 'pyright-langserver')}; the project has 2 .py files`,
      ],
    ]);
    expect(skipped).toEqual([
      { language: 'rust', why: 'rust-analyzer not found on PATH' },
      { language: 'c', why: 'clangd not found on PATH' },
      { language: 'go', why: 'gopls is installed but the project has no .go files' },
    ]);
  });

  it('honours disabled (no discovery for that language either) and "lsp": false', () => {
    const { dir, bin } = project(['a.ts', 'b.py']);
    const disabled = planServers(dir, { typescript: { command: 'typescript-language-server', disabled: true } }, bin);
    expect(disabled.servers.map((s) => s.language)).toEqual(['python']);
    expect(disabled.skipped[0]).toEqual({ language: 'typescript', why: 'lsp.typescript.disabled is true' });
    expect(planServers(dir, false, bin)).toEqual({
      servers: [],
      skipped: [{ language: '*', why: '"lsp": false in the config' }],
    });
  });

  it('takes a config entry as written: its command, args, env, extensions and timeouts; the known extensions by default', () => {
    const { dir, bin } = project([]);
    const { servers } = planServers(
      dir,
      {
        lua: {
          command: 'lua-language-server',
          extensions: ['lua'],
          env: { A: '1' },
          diagnosticsTimeoutMs: 900,
          initializationOptions: { x: 1 },
        },
        go: { command: 'gopls', args: ['serve'], options: { y: 2 } },
        odd: { command: 'odd-ls' },
      },
      bin,
    );
    expect(
      servers.map((s) => [
        s.language,
        s.command,
        s.args,
        s.extensions,
        s.env,
        s.diagnosticsTimeoutMs,
        s.initializationOptions,
      ]),
    ).toEqual([
      ['lua', 'lua-language-server', [], ['.lua'], { A: '1' }, 900, { x: 1 }],
      ['go', 'gopls', ['serve'], ['.go'], {}, 5000, { y: 2 }],
    ]);
  });
});
