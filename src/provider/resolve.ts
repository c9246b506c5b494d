/**
 * From a model id (`provider/model`) to a {@link ModelInfo}: the catalog, config overrides and models of
 * OpenAI-compatible servers discovered through their `/v1/models` listing; and the default model per agent
 * kind by available credentials, as the original chooses it.
 */
import { interruptKind } from '../abort.js';
import { CATALOG, CATALOG_PROVIDERS, DEFAULT_MODELS, catalogModel } from './catalog.js';
import {
  BUILTIN_PROVIDERS,
  credentialHint,
  localEndpoint,
  providerConnection,
  type ModelOverride,
  type ProviderSettings,
} from './settings.js';
import { ProviderError, type ModelInfo } from './types.js';
import { connectionDetail, unreachableMessage } from './retry.js';

/** Limits of a model we know nothing about (a local or custom server's), in tokens. */
export const UNKNOWN_MODEL_DEFAULTS = { contextWindowTokens: 32768, defaultMaxTokens: 4096 } as const;

/** How long a `/v1/models` listing may take before discovery gives up, in ms. */
export const DISCOVERY_TIMEOUT_MS = 2000;

/** Options of {@link resolveModel} and {@link defaultModels}. */
export interface ResolveOptions {
  /** default {@link DISCOVERY_TIMEOUT_MS} */
  discoveryTimeoutMs?: number;
  /**
   * Providers tried first by {@link defaultModels}, in {@link DEFAULT_PROVIDER_ORDER} among themselves:
   * those an active profile configures, so a `home` profile with only an OpenRouter key gets an
   * OpenRouter model even when ANTHROPIC_API_KEY is set too.
   */
  preferProviders?: readonly string[];
  /**
   * Given: {@link resolveModel} does not stop when a `local` or custom server's `/v1/models` listing fails
   * (many servers list no models, e.g. a 404): the named model is used with default limits, and this is
   * called with one line naming the URL and what failed.
   */
  onWarning?: (message: string) => void;
}

/** The model id per agent kind (`coder`, `task`, `title`, `summarizer`). */
export type DefaultModels = { coder: string; task: string; title: string; summarizer: string };

/** Providers in default-choice order (the original's, minus copilot/gemini/bedrock/azure/vertex). */
export const DEFAULT_PROVIDER_ORDER = ['local', ...CATALOG_PROVIDERS] as const;

/** One model listed by an OpenAI-compatible server. */
export interface DiscoveredModel {
  id: string;
  /** context window if the server says (vLLM `max_model_len`, LM Studio / OpenRouter `context_length`) */
  contextWindowTokens?: number;
}

/**
 * Resolves `id` (`provider/model`; the model part may itself contain `/`). In order: a catalog row (with
 * `providers.<p>.models.<name>` overrides applied); a model named in `providers.<p>.models` (limits from
 * there, else {@link UNKNOWN_MODEL_DEFAULTS}); for `local` and custom providers with a `baseURL`, a model
 * the server lists at `/v1/models`. A bare name (`gpt-4.1`) is accepted when exactly one catalog id ends
 * in `/<name>`, preferring first-party providers.
 * Credentials are not checked here (see `createProvider`).
 * @throws ProviderError (`unknown_model`) naming the id and what to set; (`connection`) when discovery fails
 *   and no `options.onWarning` is given.
 */
export async function resolveModel(
  id: string,
  settings: ProviderSettings,
  options: ResolveOptions = {},
): Promise<ModelInfo> {
  const fullId = id.includes('/') ? id : bareNameToId(id);
  const slash = fullId.indexOf('/');
  const providerId = fullId.slice(0, slash);
  const name = fullId.slice(slash + 1);
  if (slash <= 0 || !name) {
    throw new ProviderError(`Unknown model "${id}": use provider/model, e.g. anthropic/claude-sonnet-4-5.`, {
      code: 'unknown_model',
    });
  }
  const config = settings.providers[providerId];
  if (config?.disabled) {
    throw new ProviderError(
      `Model "${id}" belongs to provider "${providerId}", which is disabled (providers.${providerId}.disabled).`,
      {
        code: 'unknown_model',
      },
    );
  }
  const override = config?.models?.[name];
  const known = catalogModel(fullId);
  if (known) return applyOverride(known, override);
  if (override) return applyOverride(unknownModel(providerId, name), override);

  const isBuiltin = providerId in BUILTIN_PROVIDERS;
  const configHint = `set providers.${providerId}.models["${name}"] (contextWindow, maxTokens) in .opencode.json`;
  if (isBuiltin) {
    const names = CATALOG.filter((m) => m.provider === providerId).map((m) => m.id);
    throw new ProviderError(
      `Unknown model "${id}". Known ${providerId} models: ${names.join(', ')}. To use another model, ${configHint}.`,
      { code: 'unknown_model' },
    );
  }
  const connection = providerConnection(providerId, settings);
  if (!connection) {
    const what = providerId === 'local' ? 'the local provider' : `provider "${providerId}"`;
    throw new ProviderError(
      `Unknown model "${id}": ${what} is not configured; ${credentialHint(providerId, settings)}.`,
      {
        code: 'unknown_model',
      },
    );
  }
  let listed: DiscoveredModel[];
  try {
    listed = await discoverModels(connection.baseURL, connection.apiKey, options.discoveryTimeoutMs);
  } catch (err) {
    if (!options.onWarning) throw err;
    const limits = `${UNKNOWN_MODEL_DEFAULTS.contextWindowTokens}-token context, ${UNKNOWN_MODEL_DEFAULTS.defaultMaxTokens} output tokens`;
    options.onWarning(
      `${(err as Error).message.replace(/\.$/, '')}; using ${fullId} as named, with default limits (${limits}; to change them, ${configHint})`,
    );
    return unknownModel(providerId, name);
  }
  const hit = listed.find((m) => m.id === name);
  if (!hit) {
    const available = listed.length > 0 ? listed.map((m) => m.id).join(', ') : '(none)';
    throw new ProviderError(
      `Unknown model "${id}": the server at ${connection.baseURL} does not list "${name}". It lists: ${available}. Or ${configHint}.`,
      { code: 'unknown_model' },
    );
  }
  const model = unknownModel(providerId, name);
  if (hit.contextWindowTokens) {
    model.contextWindowTokens = hit.contextWindowTokens;
    model.defaultMaxTokens = Math.min(model.defaultMaxTokens, Math.floor(hit.contextWindowTokens / 2));
  }
  return model;
}

/**
 * Lists the models of an OpenAI-compatible server: GET `<baseURL>/models` (baseURL ends in `/v1`),
 * expecting `{data: [{id}]}`. Gives up after `timeoutMs`.
 * @throws ProviderError (`connection`) saying what failed and where.
 */
export function discoverModels(
  baseURL: string,
  apiKey?: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
): Promise<DiscoveredModel[]> {
  // one listing per server and process: choosing the coder, task and title models asks the same question
  const key = JSON.stringify([baseURL, apiKey ?? '']);
  let listing = discovered.get(key);
  if (!listing) {
    listing = listModelsOnce(baseURL, apiKey, timeoutMs);
    discovered.set(key, listing);
    listing.catch(() => discovered.delete(key));
  }
  return listing;
}

const discovered = new Map<string, Promise<DiscoveredModel[]>>();

/** The code of a connection the server closed (undici's `SocketError: other side closed`, node-fetch.ts). */
const SOCKET_CLOSED = 'UND_ERR_SOCKET';

async function listModelsOnce(
  baseURL: string,
  apiKey: string | undefined,
  timeoutMs: number,
): Promise<DiscoveredModel[]> {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  const fail = (why: string, cause?: unknown, question = ' Is the server running?') =>
    new ProviderError(`Could not list models at ${url}: ${why}.${question}`, { code: 'connection', cause });
  let response: Response;
  try {
    // node:http (node-fetch.ts), as the providers' requests: Node's fetch would compile and run undici's
    // WebAssembly HTTP parser, whose optimising compile costs a -p run ~100-200 ms of CPU (BENCHMARKS.md)
    const { nodeFetch } = await import('./node-fetch.js');
    response = await nodeFetch()(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    if (interruptKind(err) === 'timeout') throw fail(`no answer within ${timeoutMs} ms`, err);
    const detail = connectionDetail(err);
    const unreachable = unreachableMessage(detail, baseURL);
    // the same words as a request that cannot connect: `cannot reach http://127.0.0.1:11434 (connection refused): …`
    if (unreachable)
      throw new ProviderError(`${unreachable.message} (listing its models at ${url})`, {
        code: 'connection',
        cause: err,
      });
    throw fail(
      detail === SOCKET_CLOSED ? 'the server closed the connection without answering' : detail || e.message,
      err,
    );
  }
  // a server that answers 404 here is up: it does not list models at this path (llama.cpp builds, proxies)
  if (response.status === 404)
    throw fail('HTTP 404: the server answers but does not list models there (it is not down)', undefined, '');
  if (!response.ok) throw fail(`HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (err) {
    // the body's read ends by the timeout or a broken connection as well as by text that is not JSON
    if (err instanceof SyntaxError) throw fail('the answer is not JSON', err);
    if (interruptKind(err) === 'timeout') throw fail(`the answer did not arrive in full within ${timeoutMs} ms`, err);
    const detail = connectionDetail(err);
    throw fail(
      detail === SOCKET_CLOSED
        ? 'the server closed the connection before the answer ended'
        : `the answer could not be read (${detail})`,
      err,
    );
  }
  // `null`, a list, or entries that are not objects: what a server that is not OpenAI-compatible may answer
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw fail('the answer has no "data" list');
  return data
    .filter(
      (m): m is Record<string, unknown> =>
        typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string',
    )
    .map((m) => {
      const context = [m.context_length, m.max_model_len, m.max_context_length, m.loaded_context_length].find(
        (v): v is number => typeof v === 'number' && v > 0,
      );
      return { id: m.id as string, ...(context ? { contextWindowTokens: context } : {}) };
    });
}

/**
 * The default model id per agent kind: the first provider with credentials in the order local →
 * anthropic → openai → groq → openrouter → xai (the original's order, with a local endpoint first). The local
 * default is the first model in `providers.local.models`, else the first one the server lists.
 * `options.preferProviders` are tried first. Resolves undefined when no provider has credentials.
 * @throws ProviderError when `LOCAL_ENDPOINT` is the only credential and its server cannot be listed.
 */
export async function defaultModels(
  settings: ProviderSettings,
  options: ResolveOptions = {},
): Promise<DefaultModels | undefined> {
  let localFailure: ProviderError | undefined;
  const preferred = new Set(options.preferProviders ?? []);
  const order = [
    ...DEFAULT_PROVIDER_ORDER.filter((p) => preferred.has(p)),
    ...DEFAULT_PROVIDER_ORDER.filter((p) => !preferred.has(p)),
  ];
  for (const providerId of order) {
    const connection = providerConnection(providerId, settings);
    if (!connection) continue;
    if (providerId !== 'local') return { ...DEFAULT_MODELS[providerId] };
    const configured = Object.keys(settings.providers.local?.models ?? {})[0];
    try {
      const name =
        configured ?? (await discoverModels(connection.baseURL, connection.apiKey, options.discoveryTimeoutMs))[0]?.id;
      if (name) {
        const id = `local/${name}`;
        return { coder: id, task: id, title: id, summarizer: id };
      }
      localFailure = new ProviderError(`The local server at ${localEndpoint(settings)} lists no models.`, {
        code: 'connection',
      });
    } catch (err) {
      localFailure = err as ProviderError; // try the next provider; reported only if none is usable
    }
  }
  if (localFailure) throw localFailure;
  return undefined;
}

/**
 * Models usable with these settings, without network: catalog rows of providers with credentials (config
 * overrides applied) and models named in `providers.<id>.models`. For model pickers.
 */
export function listModels(settings: ProviderSettings): ModelInfo[] {
  const out: ModelInfo[] = [];
  for (const model of CATALOG) {
    if (providerConnection(model.provider, settings)) {
      out.push(
        applyOverride(
          catalogModel(model.id)!,
          settings.providers[model.provider]?.models?.[model.id.slice(model.provider.length + 1)],
        ),
      );
    }
  }
  for (const [providerId, config] of Object.entries(settings.providers)) {
    if (!providerConnection(providerId, settings)) continue;
    for (const [name, override] of Object.entries(config.models ?? {})) {
      if (!catalogModel(`${providerId}/${name}`)) out.push(applyOverride(unknownModel(providerId, name), override));
    }
  }
  return out;
}

function bareNameToId(name: string): string {
  const hits = CATALOG.filter((m) => m.id.endsWith(`/${name}`));
  const firstParty = hits.filter((m) => m.id === `${m.provider}/${name}`);
  const pick = firstParty.length === 1 ? firstParty : hits;
  return pick.length === 1 ? pick[0]!.id : name;
}

function unknownModel(providerId: string, name: string): ModelInfo {
  return {
    id: `${providerId}/${name}`,
    provider: providerId,
    apiModel: name,
    name,
    ...UNKNOWN_MODEL_DEFAULTS,
    price: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
    canReason: false,
    supportsImages: false,
  };
}

function applyOverride(model: ModelInfo, override: ModelOverride | undefined): ModelInfo {
  if (!override) return model;
  return {
    ...model,
    contextWindowTokens: override.contextWindow ?? model.contextWindowTokens,
    defaultMaxTokens: override.maxTokens ?? model.defaultMaxTokens,
    canReason: override.canReason ?? model.canReason,
    supportsImages: override.supportsImages ?? model.supportsImages,
  };
}
