import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, setGlobalConfigValue, setProjectConfigValue } from '../../src/config/index.js';

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
    writeFileSync(
      file,
      JSON.stringify({
        custom: 1,
        lsp: { go: { command: 'gopls', disabled: true } },
        agents: { coder: { maxTokens: 10 } },
      }),
    );
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
    expect(() => setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'neon/x')).toThrow(ConfigError);
    try {
      setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'neon/x');
    } catch (err) {
      expect((err as ConfigError).lines).toEqual([
        `${file}: tui.theme: expected a theme name: letters, digits, ".", "_" or "-" (a built-in, or NAME of a themes/NAME.json file), got "neon/x"`,
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"debug": true}');
  });
});

/** A project file as people write it: comments of both kinds, trailing commas, a compact object, tabs. */
const COMMENTED = [
  '// settings of this project',
  '{',
  '\t/* the main agent */',
  '\t"agents": {',
  '\t\t"task": { "maxTokens": 4000, }, // small replies',
  '\t},',
  '\t"tui": {"theme": "dracula"},',
  '\t"permission": {',
  '\t\t"bash": { "git status*": "allow", }, // read-only',
  '\t},',
  '}',
  '',
].join('\n');

describe('write-back keeps comments and layout (JSONC)', () => {
  it('adds the model to a commented project file and changes nothing else', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, COMMENTED);
    expect(setProjectConfigValue(root, ['agents', 'coder', 'model'], 'openai/gpt-4.1')).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(
      COMMENTED.replace(
        '\t\t"task": { "maxTokens": 4000, }, // small replies\n',
        '\t\t"task": { "maxTokens": 4000, }, // small replies\n\t\t"coder": {\n\t\t\t"model": "openai/gpt-4.1"\n\t\t},\n',
      ),
    );
    expect(loadConfig({ cwd: root, env: {}, home }).config.agents).toMatchObject({
      coder: { model: 'openai/gpt-4.1' },
      task: { maxTokens: 4000 },
    });
  });

  it("puts a new member after the comment that ends the last member's line, adding the comma it needs", () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{\n  "debug": false // off in CI\n}\n');
    setProjectConfigValue(root, ['autoCompact'], false);
    expect(readFileSync(file, 'utf8')).toBe('{\n  "debug": false, // off in CI\n  "autoCompact": false\n}\n');
  });

  it('changes an existing value in place, keeping the comment beside it', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{\n  "tui": { "theme": "dracula" /* dark */ }, // colours\n}\n');
    setProjectConfigValue(root, ['tui', 'theme'], 'tokyonight');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "tui": { "theme": "tokyonight" /* dark */ }, // colours\n}\n');
  });

  it('writes the theme into a commented global file by the same minimal edit', () => {
    const file = path.join(home, '.opencode.json');
    writeFileSync(file, '{\n  // my keys live in the environment\n  "debug": false,\n}\n');
    expect(setGlobalConfigValue({ env: {}, home }, ['tui', 'theme'], 'tron')).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  // my keys live in the environment\n  "debug": false,\n  "tui": {\n    "theme": "tron"\n  },\n}\n',
    );
  });

  it('keeps a comment that is all an empty object holds', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{\n  "agents": { // none yet\n  }\n}\n');
    setProjectConfigValue(root, ['agents', 'coder'], { model: 'openai/gpt-4.1' });
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "agents": {\n    "coder": {\n      "model": "openai/gpt-4.1"\n    } // none yet\n  }\n}\n',
    );
  });

  it('leaves a file it cannot read alone and says where it is broken', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{\n  "debug": tru\n}\n');
    expect(() => setProjectConfigValue(root, ['agents', 'coder', 'model'], 'openai/gpt-4.1')).toThrow(
      new ConfigError([`${file}: invalid JSON at line 2 column 12: unexpected character "t", expected a value`]),
    );
    expect(readFileSync(file, 'utf8')).toBe('{\n  "debug": tru\n}\n');
  });
});
