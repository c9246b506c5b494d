/**
 * `opencode keybindings`: the table of actions with their default keys and the keys the
 * config files give them, and one line per problem on stderr, through the built bin/opencode.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src/tui/keybindings.js';
import { cleanEnv, runCli } from '../support/cli.js';

function project(config: unknown, globalConfig?: unknown): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-keys-cmd-'));
  const env = cleanEnv();
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify(config));
  if (globalConfig !== undefined) writeFileSync(join(env.HOME!, '.opencode.json'), JSON.stringify(globalConfig));
  return { dir, env };
}

describe('opencode keybindings', () => {
  it('prints every action with its default and, where a config file changed it, the keys in effect', async () => {
    const { dir, env } = project(
      { keybindings: { 'session.new': ['ctrl+b', 'alt+n'], 'app.logs': 'none' } },
      { keybindings: { 'model.list': 'alt+m' } },
    );
    const run = await runCli(['keybindings'], { cwd: dir, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ACTION +DEFAULT +YOURS +WHAT IT DOES$/);
    expect(lines).toHaveLength(BINDINGS.length + 1);
    const row = (action: string) => lines.find((l) => l.startsWith(`${action} `))!.replace(/ {2,}/g, ' | ');
    expect(row('session.new')).toBe('session.new | ctrl+n | ctrl+b, alt+n | New session');
    expect(row('app.logs')).toBe('app.logs | ctrl+l | none | Show the logs page');
    expect(row('model.list')).toBe('model.list | ctrl+o | alt+m | Select model');
    expect(row('app.quit')).toBe('app.quit | ctrl+c | Quit (asks first; in a dialog too)');
  });

  it('says what is wrong, one line each, and exits 2', async () => {
    const { dir, env } = project({
      keybindings: { 'session.nwe': 'ctrl+b', 'model.list': 'ctrl+foo', 'session.new': 'ctrl+o' },
    });
    const run = await runCli(['keybindings'], { cwd: dir, env });
    const file = join(dir, '.opencode.json');
    expect(run.stderr.split('\n')).toEqual([
      `${file}: keybindings.session.nwe: unknown action (did you mean session.new?); \`opencode keybindings\` lists them`,
      `${file}: keybindings.model.list: "ctrl+foo" is not a key: "foo" is not a key name (a character, or esc, enter, tab, backspace, delete, space, up, down, left, right, home, end, pgup, pgdown, insert, f1…f12)`,
      `warning: ${file}: ctrl+o is bound to both model.list and session.new (chat page); only one of them will run: bind one to another key`,
      '',
    ]);
    expect(run.code).toBe(2);
  });
});
