/**
 * Profiles applied over the file's providers and agents, and `apiKeyEnv`: pure rules,
 * one example per row.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  applyProfile,
  chooseProfileName,
  configSchema,
  loadConfig,
  type Config,
} from '../../src/config/index.js';
import { credentialHint, credentialStatus, providerConnection } from '../../src/provider/index.js';

const config = (input: object): Config => configSchema.parse(input) as Config;

describe('applyProfile', () => {
  const base = config({
    providers: {
      anthropic: { apiKey: 'sk-ant-personal', models: { 'claude-x': { contextWindow: 1000 } } },
      openai: { apiKey: 'sk-o' },
    },
    agents: { coder: { model: 'openai/gpt-4.1', maxTokens: 5000, maxSteps: 40 } },
    profiles: {
      work: {
        providers: { anthropic: { apiKeyEnv: 'WORK_ANTHROPIC_KEY', models: { 'claude-y': { maxTokens: 10 } } } },
        agents: { coder: { model: 'anthropic/claude-sonnet-5-5' } },
      },
      proxy: { providers: { anthropic: { baseURL: 'http://proxy:8080' } } },
    },
  });

  it.each([
    // [what, profile, the key path read after applying, expected]
    [
      "a profile's apiKeyEnv replaces the file's apiKey (a work profile never bills the personal key)",
      'work',
      ['providers', 'anthropic', 'apiKey'],
      undefined,
    ],
    ['…and is there', 'work', ['providers', 'anthropic', 'apiKeyEnv'], 'WORK_ANTHROPIC_KEY'],
    [
      'models merge by name',
      'work',
      ['providers', 'anthropic', 'models'],
      { 'claude-x': { contextWindow: 1000 }, 'claude-y': { maxTokens: 10 } },
    ],
    ['a provider the profile does not name is kept', 'work', ['providers', 'openai', 'apiKey'], 'sk-o'],
    ["the agent's model is replaced", 'work', ['agents', 'coder', 'model'], 'anthropic/claude-sonnet-5-5'],
    [
      'what the profile does not set of the agent is kept (no default overrides it)',
      'work',
      ['agents', 'coder', 'maxSteps'],
      40,
    ],
    ["a profile without a key keeps the file's key", 'proxy', ['providers', 'anthropic', 'apiKey'], 'sk-ant-personal'],
    ['…with its base URL', 'proxy', ['providers', 'anthropic', 'baseURL'], 'http://proxy:8080'],
  ])('%s', (_what, name, keyPath, expected) => {
    let node: unknown = applyProfile(base, name);
    for (const key of keyPath) node = (node as Record<string, unknown> | undefined)?.[key];
    expect(node).toEqual(expected);
  });

  it("leaves the config as it is without a profile, and the file's own entries unchanged with one", () => {
    expect(applyProfile(base, undefined)).toBe(base);
    applyProfile(base, 'work');
    expect(base.providers.anthropic).toEqual({
      apiKey: 'sk-ant-personal',
      models: { 'claude-x': { contextWindow: 1000 } },
    });
  });

  it('names the profiles there are for an unknown one, or says how to add one', () => {
    expect(() => applyProfile(base, 'home')).toThrow(
      new ConfigError(['unknown profile "home"; the config has: proxy, work']),
    );
    expect(() => applyProfile(config({}), 'home')).toThrow(
      new ConfigError([
        'unknown profile "home": .opencode.json has no "profiles"; add one, e.g. "profiles": {"home": {"agents": {"coder": {"model": "provider/model"}}}}',
      ]),
    );
  });
});

describe('chooseProfileName', () => {
  it.each([
    [undefined, {}, undefined],
    [undefined, { OPENCODE_PROFILE: 'work' }, 'work'],
    ['local', { OPENCODE_PROFILE: 'work' }, 'local'], // --profile wins
    [undefined, { OPENCODE_PROFILE: ' ' }, undefined], // empty: none
    ['', { OPENCODE_PROFILE: 'work' }, undefined], // --profile "" turns it off
  ])('--profile %j with %j is %j', (cli, env, expected) => {
    expect(chooseProfileName(cli, env)).toBe(expected);
  });
});

describe('apiKeyEnv', () => {
  it.each([
    // [providers entry, env, connection key (undefined: no connection), status]
    [
      { apiKeyEnv: 'WORK_KEY' },
      { WORK_KEY: 'sk-work', ANTHROPIC_API_KEY: 'sk-personal' },
      'sk-work',
      { state: 'present', from: 'WORK_KEY' },
    ],
    [
      { apiKeyEnv: 'WORK_KEY' },
      { ANTHROPIC_API_KEY: 'sk-personal' },
      undefined,
      { state: 'missing', from: 'WORK_KEY' },
    ],
    [
      { apiKeyEnv: 'WORK_KEY', apiKey: 'sk-inline' },
      {},
      'sk-inline',
      { state: 'present', from: 'providers.anthropic.apiKey' },
    ],
    [{}, { ANTHROPIC_API_KEY: 'sk-personal' }, 'sk-personal', { state: 'present', from: 'ANTHROPIC_API_KEY' }],
  ])('anthropic %j with %j', (entry, env, key, status) => {
    const settings = { providers: { anthropic: entry }, env };
    expect(providerConnection('anthropic', settings)?.apiKey).toBe(key);
    expect(credentialStatus('anthropic', settings)).toEqual(status);
  });

  it('a local server whose named key is missing has no connection; without apiKeyEnv it needs none', () => {
    expect(
      providerConnection('local', { providers: { local: { baseURL: 'http://h:1', apiKeyEnv: 'LOCAL_KEY' } }, env: {} }),
    ).toBeUndefined();
    expect(providerConnection('local', { providers: { local: { baseURL: 'http://h:1' } }, env: {} })?.apiKey).toBe(
      'dummy',
    );
    expect(credentialStatus('local', { providers: { local: { baseURL: 'http://h:1' } }, env: {} })).toEqual({
      state: 'not needed',
    });
  });

  it('the hint names the variable', () => {
    expect(credentialHint('anthropic', { providers: { anthropic: { apiKeyEnv: 'WORK_KEY' } }, env: {} })).toBe(
      'set WORK_KEY (named by providers.anthropic.apiKeyEnv)',
    );
  });
});

describe('the config file', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'opencode-profiles-'));
    mkdirSync(path.join(root, 'home'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('refuses "apiKey": "${NAME}" (it would be sent as the key) and says what to write', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{ "profiles": { "work": { "providers": { "anthropic": { "apiKey": "${WORK_KEY}" } } } } }');
    expect(() => loadConfig({ cwd: root, env: {}, home: path.join(root, 'home') })).toThrow(
      new ConfigError([
        `${file}: profiles.work.providers.anthropic.apiKey: "\${WORK_KEY}" is not expanded; for a key from the environment write "apiKeyEnv": "WORK_KEY"`,
      ]),
    );
  });

  it('refuses an apiKeyEnv that is not a variable name', () => {
    const file = path.join(root, '.opencode.json');
    writeFileSync(file, '{ "providers": { "openai": { "apiKeyEnv": "$OPENAI_KEY" } } }');
    expect(() => loadConfig({ cwd: root, env: {}, home: path.join(root, 'home') })).toThrow(
      new ConfigError([
        `${file}: providers.openai.apiKeyEnv: expected an environment variable name, e.g. "WORK_ANTHROPIC_KEY", got "$OPENAI_KEY"`,
      ]),
    );
  });
});
