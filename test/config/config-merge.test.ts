import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_PATHS, loadConfig, resolveDataDir } from '../../src/config/index.js';

let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'opencode-config-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

describe('loading .opencode.json', () => {
  it('gives every default when no file exists', () => {
    const { config, warnings, files } = loadConfig({ cwd: project, env: { SHELL: '/bin/zsh' }, home });
    expect(files).toEqual([]);
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      data: { directory: '.opencode' },
      providers: {},
      agents: {
        coder: { maxSteps: 100 },
        task: { maxSteps: 100 },
        title: { maxSteps: 100 },
        summarizer: { maxSteps: 100 },
      },
      profiles: {},
      keybindings: {},
      mcpServers: {},
      lsp: {},
      shell: {},
      sandbox: 'auto',
      autoCompact: true,
      contextPaths: [...DEFAULT_CONTEXT_PATHS],
      tui: { theme: 'opencode' },
      debug: false,
      debugLSP: false,
      tools: {},
      plugins: [],
    });
    expect(config.contextPaths).toContain('AGENTS.md');
    expect(resolveDataDir(config, project)).toBe(path.join(project, '.opencode'));
  });

  it("leaves shell.path unset so the bash tool chooses (a zsh $SHELL must not become the bash tool's shell)", () => {
    expect(loadConfig({ cwd: project, env: { SHELL: '/usr/bin/zsh' }, home }).config.shell.path).toBeUndefined();
  });

  it('merges the project file over the global one, key by key', () => {
    const globalFile = write(path.join(home, '.opencode.json'), {
      providers: { anthropic: { apiKey: 'global-key' }, openai: { apiKey: 'o-key' } },
      agents: { coder: { model: 'claude-sonnet-4', maxTokens: 5000 } },
      tui: { theme: 'dracula' },
      contextPaths: ['GLOBAL.md', 'OTHER.md'],
      mcpServers: { git: { command: 'mcp-git', env: ['A=1', 'B=x=y'] } },
    });
    const localFile = write(path.join(project, '.opencode.json'), {
      providers: { anthropic: { disabled: true } },
      agents: { coder: { maxTokens: 8000, reasoningEffort: 'high' } },
      contextPaths: ['LOCAL.md'],
      mcpServers: { git: { disabled: true } },
    });
    const { config, files, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(files).toEqual([globalFile, localFile]);
    expect(warnings).toEqual([]);
    expect(config.providers).toEqual({
      anthropic: { apiKey: 'global-key', disabled: true },
      openai: { apiKey: 'o-key' },
    });
    expect(config.agents.coder).toEqual({
      model: 'claude-sonnet-4',
      maxTokens: 8000,
      reasoningEffort: 'high',
      maxSteps: 100,
    });
    expect(config.tui.theme).toBe('dracula');
    // arrays are replaced, not concatenated
    expect(config.contextPaths).toEqual(['LOCAL.md']);
    expect(config.mcpServers.git).toEqual({
      type: 'stdio',
      command: 'mcp-git',
      env: { A: '1', B: 'x=y' },
      disabled: true,
    });
  });

  it('uses only the first global file found: $HOME, then $XDG_CONFIG_HOME/opencode, then ~/.config/opencode', () => {
    const xdg = path.join(root, 'xdg');
    const xdgFile = write(path.join(xdg, 'opencode', '.opencode.json'), { tui: { theme: 'tron' } });
    write(path.join(home, '.config', 'opencode', '.opencode.json'), { tui: { theme: 'monokai' }, debug: true });
    let loaded = loadConfig({ cwd: project, env: { XDG_CONFIG_HOME: xdg }, home });
    expect(loaded.files).toEqual([xdgFile]);
    expect(loaded.config.tui.theme).toBe('tron');
    expect(loaded.config.debug).toBe(false);

    const homeFile = write(path.join(home, '.opencode.json'), { tui: { theme: 'gruvbox' } });
    loaded = loadConfig({ cwd: project, env: { XDG_CONFIG_HOME: xdg }, home });
    expect(loaded.files).toEqual([homeFile]);
    expect(loaded.config.tui.theme).toBe('gruvbox');

    loaded = loadConfig({ cwd: project, env: { HOME: path.join(root, 'nobody') }, home: path.join(root, 'nobody') });
    expect(loaded.files).toEqual([]);
  });

  it('reads ~/.config/opencode when neither $HOME nor XDG has a file, and HOME comes from env', () => {
    const file = write(path.join(home, '.config', 'opencode', '.opencode.json'), { autoCompact: false });
    const loaded = loadConfig({ cwd: project, env: { HOME: home } });
    expect(loaded.files).toEqual([file]);
    expect(loaded.config.autoCompact).toBe(false);
  });

  it('reads the file once when the project directory is the home directory', () => {
    const file = write(path.join(home, '.opencode.json'), { debug: true });
    const loaded = loadConfig({ cwd: home, env: {}, home });
    expect(loaded.files).toEqual([file]);
    expect(loaded.config.debug).toBe(true);
  });

  it('keeps every documented key', () => {
    write(path.join(project, '.opencode.json'), {
      $schema: './schema.json',
      data: { directory: '/var/oc' },
      providers: {
        local: {
          baseURL: 'http://127.0.0.1:8080/v1',
          models: { qwen: { contextWindow: 32768, maxTokens: 4096, canReason: false, supportsImages: true } },
        },
      },
      agents: { task: { model: 'gpt-4.1', maxSteps: 20 }, title: { maxTokens: 80 } },
      mcpServers: { web: { type: 'http', url: 'http://x/mcp', headers: { Authorization: 'Bearer t' }, timeout: 30 } },
      lsp: { typescript: { command: 'typescript-language-server', args: ['--stdio'], options: { a: 1 } } },
      shell: { path: '/bin/fish', args: [] },
      debugLSP: true,
    });
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([]);
    expect(resolveDataDir(config, project)).toBe('/var/oc');
    expect(config.providers.local.models?.qwen).toEqual({
      contextWindow: 32768,
      maxTokens: 4096,
      canReason: false,
      supportsImages: true,
    });
    expect(config.agents.task).toEqual({ model: 'gpt-4.1', maxSteps: 20 });
    expect(config.agents.title).toEqual({ maxTokens: 80, maxSteps: 100 });
    expect(config.mcpServers.web).toEqual({
      type: 'http',
      url: 'http://x/mcp',
      headers: { Authorization: 'Bearer t' },
      timeout: 30,
    });
    expect((config.lsp || {}).typescript).toEqual({
      command: 'typescript-language-server',
      args: ['--stdio'],
      options: { a: 1 },
    });
    expect(config.shell).toEqual({ path: '/bin/fish', args: [] });
    expect(config.debugLSP).toBe(true);
  });

  it('disables servers that cannot start, with a warning naming the file', () => {
    const file = write(path.join(project, '.opencode.json'), {
      mcpServers: { a: { type: 'sse' }, b: {}, c: { command: 'ok' }, d: { disabled: true } },
      lsp: { go: { args: ['serve'] } },
    });
    const { config, warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([
      `${file}: mcpServers.a: type "sse" needs "url"; server disabled`,
      `${file}: mcpServers.b: type "stdio" needs "command"; server disabled`,
      `${file}: lsp.go: no "command"; server disabled`,
    ]);
    expect(config.mcpServers.a.disabled).toBe(true);
    expect(config.mcpServers.c.disabled).toBeUndefined();
    expect((config.lsp || {}).go.disabled).toBe(true);
  });
});
