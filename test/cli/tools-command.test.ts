/**
 * `opencode tools [--json]`: every tool with its source, file, and what it overrides or is
 * shadowed by; tools turned off; plugins' hooks (a plugin with hooks only is listed too); custom tools
 * that failed to load and the warnings.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function setup(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-tools-cmd-'));
  const env = cleanEnv();
  write(
    join(env.HOME!, '.config', 'opencode', 'tools', 'status.yaml'),
    'name: status\ndescription: user status\ncommand: [echo, user]\n',
  );
  write(
    join(dir, '.opencode', 'tools', 'status.yaml'),
    'name: status\ndescription: project status\nparameters:\n  properties:\n    service: { description: which service }\ncommand: [echo, "{{service}}"]\n',
  );
  write(
    join(dir, '.opencode', 'tools', 'grep.json'),
    JSON.stringify({ name: 'grep', description: 'Our grep.', command: ['rg', '--json', '.'] }),
  );
  write(
    join(dir, '.opencode', 'tools', 'broken.json'),
    JSON.stringify({ name: 'find', description: 'Finds.', command: ['fd', '{{pattern}}'] }),
  );
  write(
    join(dir, '.opencode', 'plugins', 'greet.mjs'),
    "export default async () => ({ tools: { greet: { description: 'Greets.', args: {}, execute: async () => 'hi' } } });\n",
  );
  // hooks only: no tool of its own
  write(
    join(dir, '.opencode', 'plugins', 'audit.mjs'),
    "export default async () => ({ hooks: { 'tool.execute.after': async () => {}, event: () => {} } });\n",
  );
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ tools: { sourcegraph: false } }));
  return { dir, env };
}

describe('opencode tools', () => {
  it('prints JSON with --json', async () => {
    const { dir, env } = setup();
    const run = await runCli(['--trust', 'tools', '--json'], { cwd: dir, env });
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as {
      tools: { name: string }[];
      hooks: unknown[];
      failed: string[];
      warnings: string[];
    };
    expect(listing.hooks).toEqual([
      { origin: '.opencode/plugins/audit.mjs', source: 'project', hooks: ['tool.execute.after', 'event'] },
    ]);
    expect(listing.tools.filter((t) => t.name === 'grep' || t.name === 'sourcegraph')).toEqual([
      {
        name: 'grep',
        source: 'project',
        origin: '.opencode/tools/grep.json',
        offered: true,
        disabled: false,
        overrides: ['the built-in grep'],
      },
      {
        name: 'grep',
        source: 'builtin',
        offered: false,
        disabled: false,
        overrides: [],
        shadowedBy: 'project tool grep (.opencode/tools/grep.json)',
      },
      { name: 'sourcegraph', source: 'builtin', offered: false, disabled: true, overrides: [] },
    ]);
    expect(listing.failed).toEqual(['.opencode/tools/broken.json: command[1]: {{pattern}} is not a parameter']);
    expect(listing.warnings).toEqual(['.opencode/tools/status.yaml: parameters.service.type: missing']);
  });

  it('lists every registration with source, file and override, then what failed and the warnings', async () => {
    const { dir, env } = setup();
    const run = await runCli(['--trust', 'tools'], { cwd: dir, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'NAME         SOURCE    FROM                                  NOTE',
        'agent        built-in',
        'bash         built-in',
        'edit         built-in',
        'fetch        built-in',
        'glob         built-in',
        'greet        project   .opencode/plugins/greet.mjs',
        'grep         project   .opencode/tools/grep.json             overrides the built-in grep',
        'grep         built-in                                        shadowed by project tool grep (.opencode/tools/grep.json)',
        'ls           built-in',
        'patch        built-in',
        'sourcegraph  built-in                                        off ("tools" in .opencode.json)',
        'status       project   .opencode/tools/status.yaml           overrides the user tool status (~/.config/opencode/tools/status.yaml)',
        'status       user      ~/.config/opencode/tools/status.yaml  shadowed by project tool status (.opencode/tools/status.yaml)',
        'view         built-in',
        'write        built-in',
        '',
        'Plugin hooks:',
        '  .opencode/plugins/audit.mjs  hooks: tool.execute.after, event',
        '',
        'Failed to load:',
        '  .opencode/tools/broken.json: command[1]: {{pattern}} is not a parameter',
        '',
        'Warnings:',
        '  .opencode/tools/status.yaml: parameters.service.type: missing',
        '',
      ].join('\n'),
    );
  });
});
