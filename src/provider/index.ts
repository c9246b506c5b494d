/**
 * The provider layer's public face: pick a model, bind it to its API, price its usage.
 *
 * The SDKs are not imported here: `AnthropicProvider` / `OpenAIProvider` load them with `import()` on
 * their first stream, so `opencode --version` and config-only commands stay light.
 */
import type { Usage } from '../message.js';
import { AnthropicProvider } from './anthropic.js';
import { OpenAIProvider } from './openai.js';
import { credentialHint, providerConnection, type ProviderSettings } from './settings.js';
import type { ProviderCallOptions } from './retry.js';
import { ProviderError, type ModelInfo, type Provider } from './types.js';

export { CATALOG, catalogModel, DEFAULT_MODELS } from './catalog.js';
export {
  defaultModels,
  discoverModels,
  listModels,
  resolveModel,
  DISCOVERY_TIMEOUT_MS,
  UNKNOWN_MODEL_DEFAULTS,
  type DefaultModels,
  type DiscoveredModel,
  type ResolveOptions,
} from './resolve.js';
export {
  BUILTIN_PROVIDERS,
  credentialHint,
  credentialStatus,
  hasCredentials,
  localBaseURL,
  missingCredentialsMessage,
  providerBaseURL,
  providerConnection,
  type CredentialStatus,
  type ModelOverride,
  type ProviderConfig,
  type ProviderConnection,
  type ProviderSettings,
} from './settings.js';
export { DEFAULT_RETRY_BUDGET_MS, scrubSecrets, type ProviderCallOptions } from './retry.js';
export { DEFAULT_STALL_TIMEOUTS, ProviderStallError, type StallTimeouts } from './stall.js';
export * from './types.js';

/** Options of {@link createProvider}. */
export interface CreateProviderOptions {
  /** first retry backoff in ms; default 2000 (tests pass a few ms) */
  baseDelayMs?: number;
  /** retries on 429/5xx/529/connection errors before the first event; default 8 */
  maxRetries?: number;
}

/**
 * The retry and stall limits of `providerId`: its config entry's `firstByteTimeoutMs`, `idleTimeoutMs`
 * and `retryBudgetMs`, each left out (so defaulted) when not set.
 */
export function providerCallOptions(
  providerId: string,
  settings: ProviderSettings,
  options: CreateProviderOptions = {},
): ProviderCallOptions {
  const config = settings.providers[providerId] ?? {};
  const stallTimeouts = {
    ...(config.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: config.firstByteTimeoutMs } : {}),
    ...(config.idleTimeoutMs !== undefined ? { idleTimeoutMs: config.idleTimeoutMs } : {}),
  };
  return {
    ...(options.baseDelayMs !== undefined ? { baseDelayMs: options.baseDelayMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(config.retryBudgetMs !== undefined ? { retryBudgetMs: config.retryBudgetMs } : {}),
    stallTimeouts,
  };
}

/**
 * Binds `model` to its API with the credentials and base URL from `settings`: the Anthropic SDK for
 * `anthropic`, the OpenAI SDK for every other provider (OpenAI-compatible). Does no network I/O.
 * @throws ProviderError (`missing_credentials`) naming the env var or config key to set.
 */
export function createProvider(
  model: ModelInfo,
  settings: ProviderSettings,
  options: CreateProviderOptions = {},
): Provider {
  const connection = providerConnection(model.provider, settings);
  if (!connection) {
    throw new ProviderError(
      `No credentials for provider "${model.provider}" (model ${model.id}): ${credentialHint(model.provider, settings)}.`,
      {
        code: 'missing_credentials',
      },
    );
  }
  const retry = providerCallOptions(model.provider, settings, options);
  if (connection.api === 'anthropic') {
    return new AnthropicProvider(
      model,
      { apiKey: connection.apiKey, baseURL: connection.baseURL, headers: connection.headers },
      retry,
    );
  }
  return new OpenAIProvider(
    model,
    {
      displayName: connection.displayName,
      apiKey: connection.apiKey,
      baseURL: connection.baseURL,
      headers: connection.headers,
    },
    retry,
  );
}

/**
 * Cost of one call in USD: each token count times its price per 1M tokens (as the original, whose
 * "InCached"/"OutCached" prices are really cache-write and cache-read).
 */
export function computeCost(model: Pick<ModelInfo, 'price'>, usage: Usage): number {
  const { price } = model;
  return (
    (usage.input * price.input +
      usage.output * price.output +
      usage.cacheWrite * price.cacheWrite +
      usage.cacheRead * price.cacheRead) /
    1_000_000
  );
}
