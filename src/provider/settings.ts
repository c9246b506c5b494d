/**
 * Which providers are usable and how to reach them: credentials and base URLs from the config's
 * `providers` section and the environment, as the original reads them.
 *
 * Precedence: a config value (`providers.<id>.apiKey` / `.baseURL`) wins over the environment, as the
 * original's config defaults did. `providers.<id>.apiKeyEnv` names the variable to read instead of the
 * provider's usual one (a profile's `WORK_ANTHROPIC_KEY`); when it is set and empty, the provider has
 * no key: the usual variable is not tried, so a work profile never bills a personal key. Base URLs are always passed to the SDKs explicitly, so the SDKs' own
 * environment reading (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, `ANTHROPIC_AUTH_TOKEN`, `OPENAI_ORG_ID`)
 * never decides for us; the env record given here is the only source. (`ANTHROPIC_CUSTOM_HEADERS` and
 * `OPENAI_CUSTOM_HEADERS` are still read by the SDKs from `process.env`, as their READMEs document.)
 */

/** Per-model limits from `providers.<id>.models.<name>` (config). */
export interface ModelOverride {
  contextWindow?: number;
  maxTokens?: number;
  canReason?: boolean;
  supportsImages?: boolean;
}

/** One provider's config entry. */
export interface ProviderConfig {
  apiKey?: string;
  /** the environment variable holding the key, read instead of the provider's usual one */
  apiKeyEnv?: string;
  baseURL?: string;
  disabled?: boolean;
  models?: Record<string, ModelOverride>;
  /** longest wait for the first byte of a response, ms (stall.ts; default 60 000) */
  firstByteTimeoutMs?: number;
  /** longest silence between two chunks of a streamed response, ms (default 120 000) */
  idleTimeoutMs?: number;
  /** longest time spent failing and retrying one request, ms (retry.ts; default 180 000) */
  retryBudgetMs?: number;
}

/** What the provider layer needs from the outside: the config's `providers` and the environment. */
export interface ProviderSettings {
  providers: Record<string, ProviderConfig>;
  env: Record<string, string | undefined>;
}

/** How a provider is reached: the SDK to use, its key, base URL and extra headers. */
export interface ProviderConnection {
  providerId: string;
  api: 'anthropic' | 'openai';
  /** e.g. `Anthropic`, `Groq`, `local`: used in messages */
  displayName: string;
  apiKey: string;
  baseURL: string;
  headers?: Record<string, string>;
}

interface BuiltinProvider {
  api: 'anthropic' | 'openai';
  displayName: string;
  /** env var holding the key */
  keyEnv: string;
  /** env var that overrides the base URL, if the SDK has one */
  baseURLEnv?: string;
  defaultBaseURL: string;
  headers?: Record<string, string>;
}

/** The providers we ship (the original's, but copilot, gemini, bedrock, azure and vertex, which are not supported yet). */
export const BUILTIN_PROVIDERS: Record<string, BuiltinProvider> = {
  anthropic: {
    api: 'anthropic',
    displayName: 'Anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    baseURLEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseURL: 'https://api.anthropic.com',
  },
  openai: {
    api: 'openai',
    displayName: 'OpenAI',
    keyEnv: 'OPENAI_API_KEY',
    baseURLEnv: 'OPENAI_BASE_URL',
    defaultBaseURL: 'https://api.openai.com/v1',
  },
  groq: {
    api: 'openai',
    displayName: 'Groq',
    keyEnv: 'GROQ_API_KEY',
    defaultBaseURL: 'https://api.groq.com/openai/v1',
  },
  openrouter: {
    api: 'openai',
    displayName: 'OpenRouter',
    keyEnv: 'OPENROUTER_API_KEY',
    defaultBaseURL: 'https://openrouter.ai/api/v1',
    // OpenRouter's app attribution headers, which the original sends too
    headers: { 'HTTP-Referer': 'https://opencode.ai', 'X-Title': 'OpenCode' },
  },
  xai: { api: 'openai', displayName: 'xAI', keyEnv: 'XAI_API_KEY', defaultBaseURL: 'https://api.x.ai/v1' },
};

/** Env var naming a local OpenAI-compatible server, e.g. `http://localhost:11434` (Ollama). */
export const LOCAL_ENDPOINT_ENV = 'LOCAL_ENDPOINT';

/** The API key placeholder for servers that need none (the SDK insists on a non-empty key). */
export const NO_KEY = 'dummy';

const nonEmpty = (value: string | undefined): string | undefined => (value && value.trim() ? value.trim() : undefined);

/**
 * A local endpoint as the OpenAI base URL: `http://host:11434`, `http://host:11434/` and
 * `http://host:11434/v1` all give `http://host:11434/v1`.
 */
export function localBaseURL(endpoint: string): string {
  return `${endpoint.trim().replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
}

/** The local server's endpoint (config `providers.local.baseURL`, else `LOCAL_ENDPOINT`), if any. */
export function localEndpoint(settings: ProviderSettings): string | undefined {
  return nonEmpty(settings.providers.local?.baseURL) ?? nonEmpty(settings.env[LOCAL_ENDPOINT_ENV]);
}

/**
 * How to reach `providerId`, or undefined when it has no credential (or no endpoint), is disabled, or is
 * unknown. Custom ids need `providers.<id>.baseURL`; their key is optional.
 */
export function providerConnection(providerId: string, settings: ProviderSettings): ProviderConnection | undefined {
  const config = settings.providers[providerId] ?? {};
  if (config.disabled) return undefined;
  const builtin = BUILTIN_PROVIDERS[providerId];
  const named = config.apiKeyEnv ? nonEmpty(settings.env[config.apiKeyEnv]) : undefined;
  // a named variable that is empty means no key (not "no key needed", not the usual variable)
  const namedMissing = !nonEmpty(config.apiKey) && config.apiKeyEnv !== undefined && named === undefined;
  if (builtin) {
    const apiKey =
      nonEmpty(config.apiKey) ?? (config.apiKeyEnv !== undefined ? named : nonEmpty(settings.env[builtin.keyEnv]));
    if (!apiKey) return undefined;
    const baseURL =
      nonEmpty(config.baseURL) ?? (builtin.baseURLEnv ? nonEmpty(settings.env[builtin.baseURLEnv]) : undefined);
    return {
      providerId,
      api: builtin.api,
      displayName: builtin.displayName,
      apiKey,
      baseURL: (baseURL ?? builtin.defaultBaseURL).replace(/\/+$/, ''),
      ...(builtin.headers ? { headers: { ...builtin.headers } } : {}),
    };
  }
  if (providerId === 'local') {
    const endpoint = localEndpoint(settings);
    if (!endpoint || namedMissing) return undefined;
    return {
      providerId,
      api: 'openai',
      displayName: 'local',
      apiKey: nonEmpty(config.apiKey) ?? named ?? NO_KEY,
      baseURL: localBaseURL(endpoint),
    };
  }
  const baseURL = nonEmpty(config.baseURL);
  if (!baseURL || namedMissing) return undefined;
  return {
    providerId,
    api: 'openai',
    displayName: providerId,
    apiKey: nonEmpty(config.apiKey) ?? named ?? NO_KEY,
    baseURL: baseURL.replace(/\/+$/, ''),
  };
}

/**
 * The base URL requests to `providerId` go to, whether or not it has a key: the configured one, the
 * local endpoint, the SDK's base-URL variable, else the provider's default. Undefined for a local or
 * custom provider without one.
 */
export function providerBaseURL(providerId: string, settings: ProviderSettings): string | undefined {
  const config = settings.providers[providerId] ?? {};
  if (providerId === 'local') {
    const endpoint = localEndpoint(settings);
    return endpoint ? localBaseURL(endpoint) : undefined;
  }
  const builtin = BUILTIN_PROVIDERS[providerId];
  const url =
    nonEmpty(config.baseURL) ??
    (builtin?.baseURLEnv ? nonEmpty(settings.env[builtin.baseURLEnv]) : undefined) ??
    builtin?.defaultBaseURL;
  return url?.replace(/\/+$/, '');
}

/** Whether `providerId` can be used with these settings. */
export function hasCredentials(providerId: string, settings: ProviderSettings): boolean {
  return providerConnection(providerId, settings) !== undefined;
}

/** What to set to make `providerId` usable, one line, e.g. "set ANTHROPIC_API_KEY or providers.anthropic.apiKey". */
export function credentialHint(providerId: string, settings?: ProviderSettings): string {
  const config = settings?.providers[providerId];
  if (config?.disabled) return `remove providers.${providerId}.disabled from the config`;
  if (config?.apiKeyEnv && !nonEmpty(config.apiKey)) {
    const endpointHint =
      providerId === 'local' && !localEndpoint(settings!)
        ? ` and ${LOCAL_ENDPOINT_ENV} or providers.local.baseURL`
        : '';
    return `set ${config.apiKeyEnv} (named by providers.${providerId}.apiKeyEnv)${endpointHint}`;
  }
  const builtin = BUILTIN_PROVIDERS[providerId];
  if (builtin) return `set ${builtin.keyEnv} or providers.${providerId}.apiKey`;
  if (providerId === 'local')
    return `set ${LOCAL_ENDPOINT_ENV} (e.g. http://localhost:11434) or providers.local.baseURL`;
  return `set providers.${providerId}.baseURL (and .apiKey if the server needs one) for an OpenAI-compatible server`;
}

/** Where a provider's key comes from and whether it is there, for listings that never show the key itself. */
export interface CredentialStatus {
  /** `present`, `missing`, or `not needed` (a local or custom server without a key) */
  state: 'present' | 'missing' | 'not needed';
  /** where the key is read from: an environment variable name, or `providers.<id>.apiKey` */
  from?: string;
}

/**
 * Whether `providerId` has its key, and where it is read from (e.g. `{state: 'missing', from:
 * 'WORK_ANTHROPIC_KEY'}`). Never returns the key. The base URL is not checked here.
 */
export function credentialStatus(providerId: string, settings: ProviderSettings): CredentialStatus {
  const config = settings.providers[providerId] ?? {};
  if (nonEmpty(config.apiKey)) return { state: 'present', from: `providers.${providerId}.apiKey` };
  const variable = config.apiKeyEnv ?? BUILTIN_PROVIDERS[providerId]?.keyEnv;
  if (!variable) return { state: 'not needed' };
  return { state: nonEmpty(settings.env[variable]) ? 'present' : 'missing', from: variable };
}

/**
 * The message shown when no provider has credentials: which env vars or config keys to set, and that a
 * local OpenAI-compatible server works through `LOCAL_ENDPOINT`.
 */
export function missingCredentialsMessage(): string {
  return [
    'No model provider is configured. Set one of these environment variables:',
    '  ANTHROPIC_API_KEY   (Anthropic Claude)',
    '  OPENAI_API_KEY      (OpenAI)',
    '  GROQ_API_KEY        (Groq)',
    '  OPENROUTER_API_KEY  (OpenRouter)',
    '  XAI_API_KEY         (xAI Grok)',
    "or put the key in your own ~/.opencode.json (not the project's: any command can read project files) as providers.<provider>.apiKey, e.g.",
    '  { "providers": { "anthropic": { "apiKey": "..." } } }',
    'A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp) works too:',
    '  LOCAL_ENDPOINT=http://localhost:11434 opencode -m local/<model>',
  ].join('\n');
}
