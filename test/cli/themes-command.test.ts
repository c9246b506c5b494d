/**
 * `opencode themes`: every theme with its source and file, the configured one marked, broken theme
 * files one line each on stderr; `--keys`; and `opencode schema --theme`, through the built bin/opencode.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME_COLOUR_KEYS } from '../../src/tui/theme.js';
import { cleanEnv, runCli } from '../support/cli.js';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-themes-cmd-'));
  const env = cleanEnv();
  env.XDG_CONFIG_HOME = join(env.HOME!, 'xdg');
  const projectThemes = join(dir, '.opencode', 'themes');
  const userThemes = join(env.XDG_CONFIG_HOME, 'opencode', 'themes');
  mkdirSync(projectThemes, { recursive: true });
  mkdirSync(userThemes, { recursive: true });
  return { dir, env, projectThemes, userThemes };
}

describe('opencode themes', () => {
  it('lists the built-ins, then the theme files with where they come from; the configured one has ✓', async () => {
    const { dir, env, projectThemes, userThemes } = setup();
    writeFileSync(join(projectThemes, 'neon.json'), '{ "extends": "dracula", "theme": { "primary": "#ff00ff" } }');
    writeFileSync(join(userThemes, 'neon.json'), '{}');
    writeFileSync(join(userThemes, 'tron.json'), '{ "extends": "tron", "theme": { "accent": 201 } }');
    writeFileSync(join(dir, '.opencode.json'), '{ "tui": { "theme": "neon" } }');
    const run = await runCli(['themes'], { cwd: dir, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/ {2,}/g, ' | ')),
    ).toEqual([
      ' | NAME | SOURCE | FILE',
      ' | opencode | built-in',
      ' | catppuccin | built-in',
      ' | dracula | built-in',
      ' | flexoki | built-in',
      ' | gruvbox | built-in',
      ' | monokai | built-in',
      ' | onedark | built-in',
      ' | tokyonight | built-in',
      ` | tron | user, over built-in | ${join(userThemes, 'tron.json')}`,
      `✓ | neon | project, over user | ${join(projectThemes, 'neon.json')}`,
    ]);
  });

  it('says what is wrong with a theme file, one line, and exits 2', async () => {
    const { dir, env, userThemes } = setup();
    writeFileSync(join(userThemes, 'bad.json'), '{ "theme": { "primary": "#12", } }');
    const run = await runCli(['themes'], { cwd: dir, env });
    expect(run.stderr).toBe(
      `${join(userThemes, 'bad.json')}: theme.primary: "#12" is not a colour; use "#RRGGBB", an ANSI colour number 0–255, or the name of a def or another key; using the opencode theme\n`,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`bad         user      ${join(userThemes, 'bad.json')}`);
  });

  it('names a theme file whose name is not a theme name on stderr, lists the rest, and exits 2', async () => {
    const { dir, env, projectThemes } = setup();
    writeFileSync(join(projectThemes, 'bad name.json'), '{}');
    writeFileSync(join(projectThemes, 'fine.json'), '{}');
    const run = await runCli(['themes'], { cwd: dir, env });
    expect(run.stderr).toBe(
      `${join(projectThemes, 'bad name.json')}: skipped: a theme file's name (before ".json") is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; rename the file to use it\n`,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`fine        project   ${join(projectThemes, 'fine.json')}`);
    expect(run.stdout).not.toContain('bad name');
  });

  it('help names both user theme folders', async () => {
    const { dir, env } = setup();
    const run = await runCli(['help', 'themes'], { cwd: dir, env });
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      "yours ($XDG_CONFIG_HOME/opencode/themes/ first when that is set, then ~/.config/opencode/themes/) and the project's (.opencode/themes/)",
    );
  });

  it('--keys lists the colour keys; schema --theme prints the theme file schema', async () => {
    const { dir, env } = setup();
    const keys = await runCli(['themes', '--keys'], { cwd: dir, env });
    expect(keys.code).toBe(0);
    const lines = keys.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY +COLOURS$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/)[0])).toEqual(Object.keys(THEME_COLOUR_KEYS));
    expect(lines[1]).toMatch(/^primary +the logo, the prompt marker, selected items$/);

    const schema = await runCli(['schema', '--theme'], { cwd: dir, env });
    expect(schema.code).toBe(0);
    const parsed = JSON.parse(schema.stdout) as {
      title: string;
      properties: { theme: { properties: Record<string, unknown> } };
    };
    expect(parsed.title).toBe('OpenCode theme');
    expect(Object.keys(parsed.properties.theme.properties)).toEqual(Object.keys(THEME_COLOUR_KEYS));
  });
});
