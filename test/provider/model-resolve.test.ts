/**
 * Choosing models: catalog lookups, config-defined models, local discovery, default order, credentials
 * and cost.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CATALOG,
  ProviderError,
  computeCost,
  createProvider,
  defaultModels,
  listModels,
  missingCredentialsMessage,
  resolveModel,
} from '../../src/provider/index.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { envSettings } from '../support/provider-helpers.js';
import { closedPort } from '../support/ports.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
async function fakeWith(...args: Parameters<typeof startFakeProvider>): Promise<FakeProvider> {
  const f = await startFakeProvider(...args);
  closers.push(() => f.close());
  return f;
}

const none = envSettings({});

describe('resolveModel', () => {
  it('returns the catalog row, with gpt-4.1-mini mapped to its own API model (the original sent gpt-4.1)', async () => {
    expect(await resolveModel('openai/gpt-4.1-mini', none)).toEqual({
      id: 'openai/gpt-4.1-mini',
      provider: 'openai',
      apiModel: 'gpt-4.1-mini',
      name: 'GPT-4.1 mini',
      contextWindowTokens: 1_047_576,
      defaultMaxTokens: 20000,
      price: { input: 0.4, output: 1.6, cacheWrite: 0, cacheRead: 0.1 },
      canReason: false,
      supportsImages: true,
    });
    expect((await resolveModel('anthropic/claude-sonnet-4-5', none)).apiModel).toBe('claude-sonnet-4-5-20250929');
  });

  it('has unique ids and every provider of the brief in the catalog', () => {
    expect(new Set(CATALOG.map((m) => m.id)).size).toBe(CATALOG.length);
    for (const id of [
      'anthropic/claude-opus-4-5',
      'anthropic/claude-haiku-4-5',
      'anthropic/claude-opus-4-1',
      'anthropic/claude-sonnet-4',
      'anthropic/claude-3-7-sonnet',
      'openai/gpt-5',
      'openai/gpt-5-mini',
      'openai/o3',
      'openai/o4-mini',
      'openai/gpt-4o',
    ]) {
      expect(
        CATALOG.some((m) => m.id === id),
        id,
      ).toBe(true);
    }
    expect(new Set(CATALOG.map((m) => m.provider))).toEqual(
      new Set(['anthropic', 'openai', 'groq', 'openrouter', 'xai']),
    );
  });

  it('accepts a bare catalog name when it is unambiguous, preferring the first-party provider', async () => {
    expect((await resolveModel('gpt-4.1', none)).id).toBe('openai/gpt-4.1');
    expect((await resolveModel('claude-sonnet-4.5', none)).id).toBe('openrouter/anthropic/claude-sonnet-4.5');
  });

  it('applies config overrides to a catalog model and accepts a model known only from config', async () => {
    const settings = envSettings(
      {},
      {
        anthropic: {
          models: {
            'claude-sonnet-4': { maxTokens: 8000 },
            'claude-next': { contextWindow: 500_000, maxTokens: 64000, canReason: true },
          },
        },
      },
    );
    expect((await resolveModel('anthropic/claude-sonnet-4', settings)).defaultMaxTokens).toBe(8000);
    expect(await resolveModel('anthropic/claude-next', settings)).toEqual({
      id: 'anthropic/claude-next',
      provider: 'anthropic',
      apiModel: 'claude-next',
      name: 'claude-next',
      contextWindowTokens: 500_000,
      defaultMaxTokens: 64000,
      price: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
      canReason: true,
      supportsImages: false,
    });
  });

  it('rejects an unknown model naming the id and the config key to set', async () => {
    await expect(resolveModel('openai/gpt-9', none)).rejects.toThrow(
      /^Unknown model "openai\/gpt-9"\. Known openai models: .*openai\/gpt-4\.1.*set providers\.openai\.models\["gpt-9"\] \(contextWindow, maxTokens\)/,
    );
    await expect(resolveModel('acme/x', none)).rejects.toThrow(
      /provider "acme" is not configured; set providers\.acme\.baseURL/,
    );
    await expect(resolveModel('local/x', none)).rejects.toThrow(
      /the local provider is not configured; set LOCAL_ENDPOINT/,
    );
    await expect(resolveModel('openai/gpt-4.1', envSettings({}, { openai: { disabled: true } }))).rejects.toThrow(
      /disabled/,
    );
    const err = await resolveModel('nope', none).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('unknown_model');
  });

  it('discovers local models from <LOCAL_ENDPOINT>/v1/models with sane defaults', async () => {
    const fake = await fakeWith([], { models: [{ id: 'qwen3:8b', context_length: 40960 }, 'llama3.2'] });
    for (const endpoint of [fake.url, `${fake.url}/`, `${fake.url}/v1`]) {
      const settings = envSettings({ LOCAL_ENDPOINT: endpoint });
      expect(await resolveModel('local/llama3.2', settings)).toMatchObject({
        id: 'local/llama3.2',
        provider: 'local',
        apiModel: 'llama3.2',
        contextWindowTokens: 32768,
        defaultMaxTokens: 4096,
      });
    }
    const settings = envSettings({ LOCAL_ENDPOINT: fake.url });
    expect(await resolveModel('local/qwen3:8b', settings)).toMatchObject({
      contextWindowTokens: 40960,
      defaultMaxTokens: 4096,
    });
    await expect(resolveModel('local/mistral', settings)).rejects.toThrow(
      `Unknown model "local/mistral": the server at ${fake.url}/v1 does not list "mistral". It lists: qwen3:8b, llama3.2.`,
    );
    expect(fake.requests.every((r) => r.path === '/v1/models')).toBe(true);
  });

  it('gives up discovery after the timeout with a clear error', async () => {
    const silent = http.createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const started = Date.now();
    await expect(
      resolveModel('local/x', envSettings({ LOCAL_ENDPOINT: url }), { discoveryTimeoutMs: 200 }),
    ).rejects.toThrow(`Could not list models at ${url}/v1/models: no answer within 200 ms. Is the server running?`);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a refused discovery connection', async () => {
    const port = await closedPort();
    await expect(resolveModel('local/x', envSettings({ LOCAL_ENDPOINT: `http://127.0.0.1:${port}` }))).rejects.toThrow(
      `cannot reach http://127.0.0.1:${port} (connection refused): is the server running? (listing its models at http://127.0.0.1:${port}/v1/models)`,
    );
  });

  it('names a port that Node\'s fetch refuses to use, instead of "fetch failed"', async () => {
    await expect(resolveModel('local/x', envSettings({ LOCAL_ENDPOINT: 'http://127.0.0.1:9' }))).rejects.toThrow(
      "cannot reach http://127.0.0.1:9 (Node's fetch refuses port 9 as unsafe): use another port (listing its models at http://127.0.0.1:9/v1/models)",
    );
  });
});

describe('defaultModels', () => {
  const anthropicDefaults = {
    coder: 'anthropic/claude-sonnet-5-5',
    task: 'anthropic/claude-sonnet-5-5',
    title: 'anthropic/claude-haiku-4-5',
    summarizer: 'anthropic/claude-sonnet-5-5',
  };

  it('is undefined without any credential', async () => {
    expect(await defaultModels(none)).toBeUndefined();
  });

  it('follows local → anthropic → openai → groq → openrouter → xai', async () => {
    const fake = await fakeWith([], { models: ['qwen3:8b', 'llama3.2'] });
    const all = {
      LOCAL_ENDPOINT: fake.url,
      ANTHROPIC_API_KEY: 'a',
      OPENAI_API_KEY: 'o',
      GROQ_API_KEY: 'g',
      OPENROUTER_API_KEY: 'r',
      XAI_API_KEY: 'x',
    };
    const order: Array<[keyof typeof all, string]> = [
      ['LOCAL_ENDPOINT', 'local/qwen3:8b'],
      ['ANTHROPIC_API_KEY', 'anthropic/claude-sonnet-5-5'],
      ['OPENAI_API_KEY', 'openai/gpt-4.1'],
      ['GROQ_API_KEY', 'groq/openai/gpt-oss-120b'],
      ['OPENROUTER_API_KEY', 'openrouter/anthropic/claude-sonnet-4.5'],
      ['XAI_API_KEY', 'xai/grok-4'],
    ];
    const env: Record<string, string> = { ...all };
    for (const [key, coder] of order) {
      expect((await defaultModels(envSettings(env)))?.coder, key).toBe(coder);
      delete env[key];
    }
    expect(await defaultModels(envSettings({ ANTHROPIC_API_KEY: 'a' }))).toEqual(anthropicDefaults);
    expect(await defaultModels(envSettings({ OPENAI_API_KEY: 'o' }))).toEqual({
      coder: 'openai/gpt-4.1',
      task: 'openai/gpt-4.1-mini',
      title: 'openai/gpt-4.1-mini',
      summarizer: 'openai/gpt-4.1',
    });
  });

  it('counts config keys, skips disabled providers, and prefers configured local models over discovery', async () => {
    expect((await defaultModels(envSettings({}, { openai: { apiKey: 'k' } })))?.coder).toBe('openai/gpt-4.1');
    expect(
      (
        await defaultModels(
          envSettings({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, { anthropic: { disabled: true } }),
        )
      )?.coder,
    ).toBe('openai/gpt-4.1');
    const port = await closedPort(); // nothing listens: configured models need no network
    const local = envSettings(
      { LOCAL_ENDPOINT: `http://127.0.0.1:${port}` },
      { local: { models: { 'my-model': {} } } },
    );
    expect(await defaultModels(local)).toEqual({
      coder: 'local/my-model',
      task: 'local/my-model',
      title: 'local/my-model',
      summarizer: 'local/my-model',
    });
  });

  it('falls through a local server that is down, and reports it when nothing else is configured', async () => {
    const port = await closedPort();
    const endpoint = `http://127.0.0.1:${port}`;
    expect(await defaultModels(envSettings({ LOCAL_ENDPOINT: endpoint, ANTHROPIC_API_KEY: 'a' }))).toEqual(
      anthropicDefaults,
    );
    await expect(defaultModels(envSettings({ LOCAL_ENDPOINT: endpoint }))).rejects.toThrow(
      /cannot reach .* \(connection refused\)/,
    );
  });
});

describe('credentials and cost', () => {
  it('createProvider names the env var or config key when a credential is missing', async () => {
    const model = await resolveModel('groq/llama-3.1-8b-instant', none);
    expect(() => createProvider(model, none)).toThrow(
      'No credentials for provider "groq" (model groq/llama-3.1-8b-instant): set GROQ_API_KEY or providers.groq.apiKey.',
    );
  });

  it('tells which env vars and config keys to set, including LOCAL_ENDPOINT', () => {
    const message = missingCredentialsMessage();
    for (const name of [
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'GROQ_API_KEY',
      'OPENROUTER_API_KEY',
      'XAI_API_KEY',
      'LOCAL_ENDPOINT',
      'providers.<provider>.apiKey',
      'Ollama',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('lists catalog and config models of providers with credentials only', () => {
    const ids = listModels(
      envSettings({ XAI_API_KEY: 'x' }, { mine: { baseURL: 'http://127.0.0.1:1/v1', models: { m: {} } } }),
    ).map((m) => m.id);
    expect(ids).toEqual([...CATALOG.filter((m) => m.provider === 'xai').map((m) => m.id), 'mine/m']);
  });

  it('computes cost in USD from the four token counts', async () => {
    const sonnet = await resolveModel('anthropic/claude-sonnet-4', none);
    const cost = computeCost(sonnet, { input: 1_000_000, output: 100_000, cacheWrite: 200_000, cacheRead: 2_000_000 });
    // 3 + 1.5 + 0.75 + 0.6
    expect(cost).toBeCloseTo(5.85, 10);
  });
});
