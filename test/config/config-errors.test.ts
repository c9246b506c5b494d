import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

let root: string;
let home: string;
let project: string;
let localFile: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'opencode-config-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  localFile = path.join(project, '.opencode.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Loads and returns the ConfigError lines; fails the test if loading succeeds. */
function errorLines(): string[] {
  try {
    loadConfig({ cwd: project, env: {}, home });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe((err as ConfigError).lines.join('\n'));
    expect((err as ConfigError).message).not.toContain('    at ');
    return (err as ConfigError).lines;
  }
  throw new Error('expected a ConfigError');
}

describe('config errors name the file, the key and what was expected', () => {
  it('reports a wrong type as "expected number, got string"', () => {
    writeFileSync(localFile, JSON.stringify({ agents: { coder: { maxTokens: '8000' } } }));
    expect(errorLines()).toEqual([`${localFile}: agents.coder.maxTokens: expected number, got string`]);
  });

  it('reports every problem of every file, global first, one line each', () => {
    const globalFile = path.join(home, '.opencode.json');
    writeFileSync(globalFile, JSON.stringify({ autoCompact: 'yes', providers: { openai: { apiKey: 42 } } }));
    writeFileSync(
      localFile,
      JSON.stringify({
        agents: { title: { reasoningEffort: 'extreme', maxSteps: 0 } },
        tui: { theme: '../solarized' },
        mcpServers: { git: { args: ['--repo', 7], env: ['NO_EQUALS'] } },
        contextPaths: 'CLAUDE.md',
        lsp: { go: null },
        agents2: 1,
      }),
    );
    expect(errorLines()).toEqual([
      `${globalFile}: providers.openai.apiKey: expected string, got number`,
      `${globalFile}: autoCompact: expected boolean, got string`,
      `${localFile}: agents.title.reasoningEffort: expected one of "low", "medium", "high", got "extreme"`,
      `${localFile}: agents.title.maxSteps: expected number > 0, got 0`,
      `${localFile}: lsp.go: expected object, got null`,
      `${localFile}: contextPaths: expected array, got string`,
      `${localFile}: tui.theme: expected a theme name: letters, digits, ".", "_" or "-" (a built-in, or NAME of a themes/NAME.json file), got "../solarized"`,
    ]);
  });

  it('reports a fraction where an integer belongs with the value', () => {
    writeFileSync(localFile, JSON.stringify({ providers: { local: { models: { m: { contextWindow: 1.5 } } } } }));
    expect(errorLines()).toEqual([`${localFile}: providers.local.models.m.contextWindow: expected integer, got 1.5`]);
  });

  it('reports an env that is neither an object nor an array; only that MCP server is disabled', () => {
    writeFileSync(
      localFile,
      JSON.stringify({ mcpServers: { git: { command: 'g', env: 'A=1' }, ok: { command: 'o' } } }),
    );
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([
      `${localFile}: mcpServers.git.env: expected an object of strings or an array of "KEY=VALUE" strings, got string; server disabled`,
    ]);
    expect(config.mcpServers).toEqual({ git: { type: 'stdio', disabled: true }, ok: { type: 'stdio', command: 'o' } });
  });

  it('turns every problem of one MCP server entry into one warning line and keeps its type', () => {
    writeFileSync(
      localFile,
      JSON.stringify({
        mcpServers: {
          git: { args: ['--repo', 7], env: ['NO_EQUALS'] },
          web: { type: 'http', url: 'http://x', timeout: -1 },
        },
      }),
    );
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([
      `${localFile}: mcpServers.git.args[1]: expected string, got number; mcpServers.git.env[0]: expected a "KEY=VALUE" string, got "NO_EQUALS"; server disabled`,
      `${localFile}: mcpServers.web.timeout: expected number > 0, got -1; server disabled`,
    ]);
    expect(config.mcpServers).toEqual({
      git: { type: 'stdio', disabled: true },
      web: { type: 'http', disabled: true },
    });
  });

  it.each([
    ['{\n  "debug": tru\n}', 'line 2 column 12: unexpected character "t", expected a value'],
    ['{\n  "tui": {"theme": "dracula"\n', 'line 3 column 1: unexpected end of input, expected "," or "}"'],
    ['{"a": "b', 'line 1 column 7: unterminated string'],
    ['{"a": "\\x"}', 'line 1 column 7: bad escape in string'],
    ['{"a" 1}', 'line 1 column 6: unexpected character "1", expected ":" after the property name'],
    ['{a: 1}', 'line 1 column 2: unexpected character "a", expected a double-quoted property name'],
    ['{"a": 1,,}', 'line 1 column 9: unexpected character ",", expected a double-quoted property name'],
    ['{"a": [1 2]}', 'line 1 column 10: unexpected character "2", expected "," or "]"'],
    ['{} {}', 'line 1 column 4: unexpected text after the end of the JSON value'],
    ['', 'line 1 column 1: unexpected end of input, expected a value'],
    ['{\n  /* the model\n  "debug": true\n}', 'line 2 column 3: unterminated /* comment'],
  ])('reports invalid JSON %j with its line and column', (text, where) => {
    writeFileSync(localFile, text);
    expect(errorLines()).toEqual([`${localFile}: invalid JSON at ${where}`]);
  });

  it("reads comments and trailing commas (JSONC), as the README's examples are written", () => {
    writeFileSync(
      localFile,
      [
        '// project settings',
        '{',
        '  /* the main agent */',
        '  "agents": {',
        '    "coder": { "model": "openai/gpt-4.1", }, // trailing comma in an object',
        '  },',
        '  "contextPaths": ["AGENTS.md", "NOTES.md",], // and in an array',
        '}',
        '',
      ].join('\n'),
    );
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([]);
    expect(config.agents.coder).toEqual({ model: 'openai/gpt-4.1', maxSteps: 100 });
    expect(config.contextPaths).toEqual(['AGENTS.md', 'NOTES.md']);
  });

  it('takes "__proto__" as an unknown key, as JSON.parse does, never as the object\'s prototype', () => {
    writeFileSync(localFile, '{"__proto__": {"debug": true}}');
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(config.debug).toBe(false);
    expect(warnings).toEqual([`${localFile}: __proto__: unknown key`]);
  });

  it('accepts a byte-order mark', () => {
    writeFileSync(localFile, '\ufeff{"debug": true}');
    expect(loadConfig({ cwd: project, env: {}, home }).config.debug).toBe(true);
  });

  it('rejects a file whose top level is not an object', () => {
    writeFileSync(localFile, '["debug"]');
    expect(errorLines()).toEqual([`${localFile}: expected an object at the top level, got array`]);
  });

  it('reports an unreadable config path', () => {
    mkdirSync(localFile);
    const lines = errorLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${localFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read: EISDIR`));
  });
});

describe('unknown keys', () => {
  it('are warnings in the same style, and are dropped', () => {
    writeFileSync(
      localFile,
      JSON.stringify({
        theme: 'dark',
        agents: { coder: { model: 'm', temperature: 0.2 } },
        providers: { openai: { key: 'x' } },
      }),
    );
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([
      `${localFile}: providers.openai.key: unknown key`,
      `${localFile}: agents.coder.temperature: unknown key`,
      `${localFile}: theme: unknown key`,
    ]);
    expect(config.agents.coder).toEqual({ model: 'm', maxSteps: 100 });
    expect(config.providers).toEqual({ openai: {} });
    expect('theme' in config).toBe(false);
  });

  it('are still reported beside real errors, which alone make the load fail', () => {
    writeFileSync(localFile, JSON.stringify({ debug: 'on', extra: true }));
    expect(errorLines()).toEqual([`${localFile}: debug: expected boolean, got string`]);
  });
});
