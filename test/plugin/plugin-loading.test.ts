/**
 * Where plugins and tool files are found: packages named under `plugins` in
 * `.opencode.json` from the project's node_modules (never downloaded), the user's folder under
 * $XDG_CONFIG_HOME, and what a malformed plugin tool or default export gives: one line, the rest loads.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCustomTools } from '../../src/custom/load.js';
import { loadPlugins } from '../../src/plugin/load.js';
import { builtinTools } from '../../src/tools/index.js';
import { toolContext } from '../support/tool-context.js';

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('loading plugins', () => {
  it('resolves plugin packages from the project node_modules (ESM-only exports too); a missing one is one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugins-'));
    const pkg = join(dir, 'node_modules', 'opencode-plugin-tickets');
    write(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'opencode-plugin-tickets', type: 'module', exports: { '.': { import: './index.js' } } }),
    );
    write(
      join(pkg, 'index.js'),
      "export default async ({ directory }) => ({ tools: { open_tickets: { description: 'Open tickets.', args: { queue: { type: 'string', description: 'queue' } }, execute: async (args) => args.queue + ' in ' + directory } } });\n",
    );
    const registry = builtinTools();
    const report = await loadCustomTools({
      projectDir: dir,
      config: { tools: {}, plugins: ['opencode-plugin-tickets', 'opencode-plugin-missing'] },
      registry,
      env: { HOME: join(dir, 'home') },
    });
    expect(report.failed).toEqual([
      `plugin package opencode-plugin-missing: not found in ${join(dir, 'node_modules')} (install it in the project: npm install opencode-plugin-missing)`,
    ]);
    expect(report.tools).toEqual([
      { name: 'open_tickets', source: 'project', kind: 'plugin', origin: 'plugin package opencode-plugin-tickets' },
    ]);
    // a bare map of properties is taken as the object's properties
    expect(registry.get('open_tickets')!.inputSchema).toEqual({
      type: 'object',
      properties: { queue: { type: 'string', description: 'queue' } },
    });
    const result = await registry.get('open_tickets')!.run({ queue: 'ops' }, toolContext(dir));
    expect(result).toEqual({ output: `ops in ${dir}`, isError: false });
  });

  it('reads the user folder from $XDG_CONFIG_HOME; malformed plugins and plugin tools are one line each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugins-'));
    const xdg = mkdtempSync(join(tmpdir(), 'opencode-xdg-'));
    write(
      join(xdg, 'opencode', 'tools', 'whoami.yml'),
      'name: whoami\ndescription: Who runs this.\ncommand: [id, -un]\nreadOnly: true\n',
    );
    write(join(dir, '.opencode', 'plugins', 'not-a-function.mjs'), 'export default { tools: {} };\n');
    write(
      join(dir, '.opencode', 'plugins', 'syntax.ts'),
      'export default async () => ({ tools: { x: { description: "x", execute: async () => "x" } }\n',
    );
    write(
      join(dir, '.opencode', 'plugins', 'half.mjs'),
      "export default async () => ({ tools: { good: { description: 'Good.', args: {}, execute: async () => 'g' }, 'bad name': { description: 'Bad.', execute: async () => 'b' }, noexec: { description: 'No execute.' } } });\n",
    );
    const registry = builtinTools();
    const report = await loadCustomTools({
      projectDir: dir,
      config: { tools: {}, plugins: [] },
      registry,
      env: { HOME: join(dir, 'home'), XDG_CONFIG_HOME: xdg },
    });
    expect(report.tools.map((t) => [t.name, t.source, t.origin])).toEqual([
      ['whoami', 'user', join(xdg, 'opencode', 'tools', 'whoami.yml')],
      ['good', 'project', '.opencode/plugins/half.mjs'],
    ]);
    expect(report.failed[0]).toBe(
      '.opencode/plugins/not-a-function.mjs: the default export must be a plugin function (async ({ directory, worktree, config, log }) => ({ tools, hooks }))',
    );
    expect(report.failed[1]).toMatch(/^\.opencode\/plugins\/syntax\.ts: failed at load: /);
    expect(report.failed.slice(2)).toEqual([
      '.opencode/plugins/half.mjs: tools.bad name: a name may hold only letters, digits, _ and - (at most 64)',
      '.opencode/plugins/half.mjs: tools.noexec.execute: missing (a function (args, ctx) => output)',
    ]);
  });

  it('skips a plugin whose function never returns, after the init timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugins-'));
    const file = join(dir, 'hang.mjs');
    write(file, 'export default () => new Promise(() => {});\n');
    const silent = { info() {}, warn() {}, error() {} };
    const loaded = await loadPlugins(
      [{ source: 'project', id: file, label: 'hang.mjs' }],
      { directory: dir, worktree: dir, config: {} },
      () => silent,
      { initTimeoutMs: 200 },
    );
    expect(loaded).toEqual({
      plugins: [],
      problems: ['hang.mjs: did not return its tools and hooks within 0.2 s; started without it'],
    });
  });
});
