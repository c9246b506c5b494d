/**
 * A provider key in the project's own `.opencode.json` warns: any command run in the project can read
 * the file, and it is shared with the repository. The same key in the user's config does not, nor
 * does a project file that names an environment variable; the project that is the home directory has
 * only the user's file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'opencode-config-keys-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, value: unknown): string {
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

const advice =
  'a provider key in the project\'s config can be read by any command run in the project and is shared with the repository; move it to your user config (~/.opencode.json) or name an environment variable with "apiKeyEnv"';

describe('a provider key in the project config', () => {
  it('warns once per key, in providers and in profiles', () => {
    const file = write(path.join(project, '.opencode.json'), {
      providers: { anthropic: { apiKey: 'sk-ant-123' }, openai: { apiKeyEnv: 'OPENAI_API_KEY' } },
      profiles: { work: { providers: { openai: { apiKey: 'sk-456' } } } },
    });
    const { warnings } = loadConfig({ cwd: project, env: {}, home });
    expect(warnings).toEqual([
      `${file}: providers.anthropic.apiKey: ${advice}`,
      `${file}: profiles.work.providers.openai.apiKey: ${advice}`,
    ]);
  });

  it('does not warn for the user config, nor for a project that names an environment variable', () => {
    write(path.join(home, '.opencode.json'), { providers: { anthropic: { apiKey: 'sk-ant-123' } } });
    write(path.join(project, '.opencode.json'), { providers: { openai: { apiKeyEnv: 'OPENAI_API_KEY' } } });
    expect(loadConfig({ cwd: project, env: {}, home }).warnings).toEqual([]);
  });

  it('does not warn when the project is the home directory: its file is the user config', () => {
    write(path.join(home, '.opencode.json'), { providers: { anthropic: { apiKey: 'sk-ant-123' } } });
    expect(loadConfig({ cwd: home, env: {}, home }).warnings).toEqual([]);
  });
});
