import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, setGlobalConfigValue } from '../../src/config/index.js';

let root: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'opencode-config-'));
  home = path.join(root, 'home');
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('setGlobalConfigValue', () => {
  it('creates ~/.opencode.json when there is no global file', () => {
    const file = setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'tokyonight');
    expect(file).toBe(path.join(home, '.opencode.json'));
    expect(readFileSync(file, 'utf8')).toBe('{\n  "tui": {\n    "theme": "tokyonight"\n  }\n}\n');
  });

  it('changes only the one key and keeps unknown keys and lsp.disabled as written', () => {
    const file = path.join(home, '.config', 'opencode', '.opencode.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ custom: 1, lsp: { go: { command: 'gopls', disabled: true } }, agents: { coder: { maxTokens: 10 } } }));
    expect(setGlobalConfigValue({ env: {}, home }, ['agents', 'coder', 'model'], 'gpt-4.1')).toBe(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      custom: 1,
      lsp: { go: { command: 'gopls', disabled: true } },
      agents: { coder: { maxTokens: 10, model: 'gpt-4.1' } },
    });
    expect(loadConfig({ cwd: root, env: {}, home }).config.agents.coder.model).toBe('gpt-4.1');
  });

  it('refuses a value the schema rejects and leaves the file alone', () => {
    const file = path.join(home, '.opencode.json');
    writeFileSync(file, '{"debug": true}');
    expect(() => setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'neon')).toThrow(ConfigError);
    try {
      setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'neon');
    } catch (err) {
      expect((err as ConfigError).lines).toEqual([
        `${file}: tui.theme: expected one of "catppuccin", "dracula", "flexoki", "gruvbox", "monokai", "onedark", "opencode", "tokyonight", "tron", got "neon"`,
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"debug": true}');
  });
});
