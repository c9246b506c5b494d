/**
 * The tools `opencode stats` counts as offered: built-ins from a table when there is nothing custom,
 * else the registry of the custom tools' loader — plugins included, which get the validated config.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUSTOM_TOOL_FILE_EXTENSIONS, offeredTools, PLUGIN_FILE_EXTENSIONS } from '../../src/cli/stats-offered.js';
import { TOOL_FILE_EXTENSIONS } from '../../src/custom/load.js';
import { PLUGIN_EXTENSIONS } from '../../src/plugin/load.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { FIXTURE, TSX_LOADER } from '../mcp/fixture.js';

const BUILTINS = ['agent', 'bash', 'edit', 'fetch', 'glob', 'grep', 'ls', 'patch', 'sourcegraph', 'view', 'write'];

describe('stats: the offered tools', () => {
  it("looks for the loaders' own file extensions", () => {
    expect(CUSTOM_TOOL_FILE_EXTENSIONS).toEqual(TOOL_FILE_EXTENSIONS);
    expect(PLUGIN_FILE_EXTENSIONS).toEqual(PLUGIN_EXTENSIONS);
  });

  it('are the built-ins not turned off when nothing custom exists (files of other kinds do not count)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'opencode-offered-'));
    mkdirSync(join(cwd, '.opencode', 'tools'), { recursive: true });
    writeFileSync(join(cwd, '.opencode', 'tools', 'README.md'), 'Our tools go here.\n');
    const env = cleanEnv();
    const { offered, failed } = await offeredTools({
      cwd,
      env,
      dataDir: join(cwd, '.opencode'),
      tools: { fetch: false, bash: true },
      plugins: [],
      mcpServerNames: ['git'],
      mcp: false,
    });
    expect(offered).toEqual(BUILTINS.filter((n) => n !== 'fetch').map((name) => ({ name, source: 'builtin' })));
    expect(failed).toEqual([]);
  });

  it("list a user's declarative tool, a project plugin's tool (given the validated config) and a shadowed built-in", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-offered-'));
    const env = cleanEnv();
    mkdirSync(join(env.HOME, '.config', 'opencode', 'tools'), { recursive: true });
    writeFileSync(
      join(env.HOME, '.config', 'opencode', 'tools', 'ls.yaml'),
      'name: ls\ndescription: Our listing.\nparameters:\n  type: object\n  properties: {}\ncommand: [ls]\nreadOnly: true\n',
    );
    mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
    // the tool exists only when the config the plugin gets has the schema's defaults filled in
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'audit.mjs'),
      "export default async ({ config }) => ({ tools: config.autoCompact === true && config.data.directory === '.opencode' ? { audit: { description: 'Audits.', args: {}, execute: async () => 'ok' } } : {} });\n",
    );
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ tools: { sourcegraph: false } }));
    const run = await runCli(['--trust', 'stats', '--json'], { cwd: dir, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { notCalled: unknown[]; failedToLoad: string[] };
    expect(report.notCalled).toEqual([
      { name: 'agent', source: 'builtin' },
      { name: 'audit', source: 'project', origin: '.opencode/plugins/audit.mjs' },
      { name: 'bash', source: 'builtin' },
      { name: 'edit', source: 'builtin' },
      { name: 'fetch', source: 'builtin' },
      { name: 'glob', source: 'builtin' },
      { name: 'grep', source: 'builtin' },
      { name: 'ls', source: 'user', origin: '~/.config/opencode/tools/ls.yaml' },
      { name: 'patch', source: 'builtin' },
      { name: 'view', source: 'builtin' },
      { name: 'write', source: 'builtin' },
    ]);
    expect(report.failedToLoad).toEqual([]);
  });

  // this listed no MCP tool before: the servers were closed, unregistering their tools, before the listing
  it("with --mcp list the MCP servers' tools too, from the validated config's servers", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-offered-'));
    const local = { command: process.execPath, args: ['--import', TSX_LOADER, FIXTURE, 'stdio'] };
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ mcpServers: { local }, tools: { local_crash: false } }),
    );
    const run = await runCli(['--trust', 'stats', '--mcp', '--json'], { cwd: dir, env: cleanEnv() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { notCalled: { name: string; source: string }[]; mcpNotStarted: boolean };
    expect(report.mcpNotStarted).toBe(false);
    // the fixture's 11 tools, named <server>_<tool> (a long name cut and hashed), local_crash turned off
    expect(report.notCalled.filter((t) => t.source === 'mcp')).toEqual(
      [
        'local_bad_image',
        'local_dotted_tool',
        'local_echo',
        'local_fail',
        'local_image',
        'local_measure_the_distance_between_two_points_on_a_plan_3a21a28e',
        'local_mixed',
        'local_pid',
        'local_sleep',
        'local_toggle_extra',
      ].map((name) => ({ name, source: 'mcp' })),
    );
  });
});
