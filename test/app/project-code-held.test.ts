/**
 * What a project would run by itself, and the config without it until the project is trusted
 * (src/app/project-code.ts): real config files in a temp project and a temp HOME, loaded by the real
 * loader. Each case names the exact items held and the exact config left.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideTrust, holdProjectCode } from '../../src/app/project-code.js';
import { loadConfig } from '../../src/config/load.js';
import { trustProject } from '../../src/permission/trust-store.js';

function setup(project: object | undefined, user: object | undefined) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-held-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-held-home-')));
  if (project) writeFileSync(join(dir, '.opencode.json'), JSON.stringify(project));
  if (user) writeFileSync(join(home, '.opencode.json'), JSON.stringify(user));
  const env = { HOME: home, PATH: '/nonexistent' };
  return { dir, home, env, loaded: () => loadConfig({ cwd: dir, env }) };
}

describe('holdProjectCode', () => {
  it("holds the project's shell, plugin packages, MCP and language servers; keeps the user's own; uses entries that only turn a server off", () => {
    const s = setup(
      {
        shell: { path: './evil-shell', args: ['--rcfile', 'x'], passEnv: ['OPENAI_API_KEY'] },
        plugins: ['opencode-plugin-evil'],
        mcpServers: {
          evil: { command: 'node', args: ['srv.js'] },
          remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
          mine: { disabled: true },
        },
        lsp: { lua: { command: 'lua-ls', extensions: ['.lua'] }, go: { disabled: true } },
      },
      {
        shell: { path: '/bin/bash' },
        plugins: ['opencode-plugin-audit'],
        mcpServers: { mine: { command: 'my-server' }, other: { command: 'other-server' } },
      },
    );
    const held = holdProjectCode(s.loaded(), s.dir, s.env);
    expect(held.items).toEqual([
      { kind: 'MCP server', name: 'evil', detail: 'node srv.js' },
      { kind: 'MCP server', name: 'remote', detail: 'http://127.0.0.1:9/mcp' },
      { kind: 'language server', name: 'lua', detail: 'lua-ls' },
      { kind: 'shell', name: 'shell.path', detail: './evil-shell' },
      { kind: 'shell', name: 'shell.args', detail: '--rcfile x' },
      { kind: 'shell', name: 'shell.passEnv', detail: 'OPENAI_API_KEY' },
      { kind: 'plugin package', name: 'opencode-plugin-evil', detail: '' },
    ]);
    expect(Object.keys(held.config.mcpServers).sort()).toEqual(['mine', 'other']);
    expect(held.config.mcpServers.mine).toMatchObject({ command: 'my-server', disabled: true });
    expect(held.config.lsp).toEqual({ go: { disabled: true } });
    expect(held.config.shell).toEqual({ path: '/bin/bash', args: undefined, passEnv: undefined });
    expect(held.config.plugins).toEqual(['opencode-plugin-audit']);
    // the loaded config itself is left as it was: trusting later uses it
    expect(s.loaded().config.shell.path).toBe('./evil-shell');
  });

  it("lists the project's plugin and tool files, and a language server found in its node_modules/.bin", () => {
    const s = setup(undefined, undefined);
    mkdirSync(join(s.dir, '.opencode', 'plugins'), { recursive: true });
    mkdirSync(join(s.dir, '.opencode', 'tools'));
    writeFileSync(join(s.dir, '.opencode', 'plugins', 'a.ts'), 'export default async () => ({});\n');
    writeFileSync(join(s.dir, '.opencode', 'plugins', 'types.d.ts'), '');
    writeFileSync(join(s.dir, '.opencode', 'tools', 'deploy.yaml'), 'name: deploy\n');
    writeFileSync(join(s.dir, '.opencode', 'tools', 'notes.md'), '');
    mkdirSync(join(s.dir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(s.dir, 'node_modules', '.bin', 'typescript-language-server'), '#!/bin/sh\n');
    chmodSync(join(s.dir, 'node_modules', '.bin', 'typescript-language-server'), 0o755);
    writeFileSync(join(s.dir, 'index.ts'), 'export {};\n');
    const held = holdProjectCode(s.loaded(), s.dir, s.env);
    expect(held.items).toEqual([
      { kind: 'plugin', name: '.opencode/plugins/a.ts', detail: '' },
      { kind: 'tool file', name: '.opencode/tools/deploy.yaml', detail: '' },
      { kind: 'language server', name: 'typescript', detail: 'node_modules/.bin/typescript-language-server' },
    ]);
    expect(held.lspServers).toEqual([]);
  });

  it('holds a sandbox setting that loosens the sandbox, and uses one that tightens it', () => {
    const loose = setup(
      { sandbox: { allowWrite: ['~'], network: { allowedDomains: ['*'] } } },
      { sandbox: 'required' },
    );
    const held = holdProjectCode(loose.loaded(), loose.dir, loose.env);
    expect(held.items).toEqual([
      { kind: 'sandbox setting', name: 'sandbox', detail: '{"allowWrite":["~"],"network":{"allowedDomains":["*"]}}' },
    ]);
    expect(held.config.sandbox).toBe('required');
    const off = setup({ sandbox: 'off' }, undefined);
    const heldOff = holdProjectCode(off.loaded(), off.dir, off.env);
    expect([heldOff.items.map((i) => i.detail), heldOff.config.sandbox]).toEqual([['"off"'], undefined]);
    const strict = setup({ sandbox: { mode: 'required', denyRead: ['~/secrets'] } }, undefined);
    expect(holdProjectCode(strict.loaded(), strict.dir, strict.env).items).toEqual([]);
  });

  it('a project that names nothing to run: nothing held, the config as loaded', () => {
    const s = setup(
      { permission: { bash: 'ask' }, contextPaths: ['NOTES.md'], mcpServers: { mine: { disabled: true } } },
      { mcpServers: { mine: { command: 'my-server' } } },
    );
    const loaded = s.loaded();
    const held = holdProjectCode(loaded, s.dir, s.env);
    expect(held.items).toEqual([]);
    expect(held.config).toBe(loaded.config);
  });

  it("the home folder as the project: its .opencode.json is the user's own, nothing held", () => {
    const s = setup(undefined, { mcpServers: { mine: { command: 'my-server' } }, shell: { path: '/bin/zsh' } });
    const held = holdProjectCode(loadConfig({ cwd: s.home, env: s.env }), s.home, s.env);
    expect(held.items).toEqual([]);
  });
});

describe('decideTrust', () => {
  const project = { mcpServers: { evil: { command: 'node', args: ['srv.js'] } } };

  it('untrusted: held; trusted by `opencode trust`: everything; --trust: everything, but not inside an opencode command', () => {
    const s = setup(project, undefined);
    const untrusted = decideTrust(s.loaded(), s.dir, s.env);
    expect([
      untrusted.trusted,
      Object.keys(untrusted.config.mcpServers),
      Object.keys(untrusted.full.config.mcpServers),
    ]).toEqual([false, [], ['evil']]);

    const flagged = decideTrust(s.loaded(), s.dir, s.env, { trustFlag: true });
    expect([flagged.trusted, Object.keys(flagged.config.mcpServers), flagged.refusal]).toEqual([
      true,
      ['evil'],
      undefined,
    ]);

    const nested = decideTrust(s.loaded(), s.dir, { ...s.env, OPENCODE_SANDBOXED: '1' }, { trustFlag: true });
    expect([nested.trusted, Object.keys(nested.config.mcpServers), nested.refusal]).toEqual([
      false,
      [],
      "--trust is refused: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1), and only you can trust a project",
    ]);

    trustProject(s.dir, s.env);
    const trusted = decideTrust(s.loaded(), s.dir, s.env);
    expect([trusted.trusted, Object.keys(trusted.config.mcpServers)]).toEqual([true, ['evil']]);
    // a project the person trusted stays trusted for an opencode its commands start
    expect(decideTrust(s.loaded(), s.dir, { ...s.env, OPENCODE_SANDBOXED: '1' }).trusted).toBe(true);
  });

  it('a trust file the project cannot vouch for: a link to a trusted project is that project; a trust list inside the project counts for nothing', () => {
    const s = setup(project, undefined);
    trustProject(s.dir, s.env);
    const link = join(mkdtempSync(join(tmpdir(), 'opencode-held-link-')), 'link');
    symlinkSync(s.dir, link);
    expect(decideTrust(loadConfig({ cwd: link, env: s.env }), link, s.env).trusted).toBe(true);

    const other = setup(project, undefined);
    mkdirSync(join(other.dir, '.config', 'opencode'), { recursive: true });
    writeFileSync(
      join(other.dir, '.config', 'opencode', 'trusted-projects.json'),
      JSON.stringify({ projects: [other.dir] }),
    );
    expect(decideTrust(other.loaded(), other.dir, other.env).trusted).toBe(false);
  });
});
