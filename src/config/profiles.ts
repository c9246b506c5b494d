/**
 * Provider profiles: named sets of provider settings and agent models under `profiles`
 * in `.opencode.json`, applied over the file's own `providers` and `agents` when one is active.
 *
 * ```jsonc
 * "profiles": {
 *   "work":  { "providers": { "anthropic": { "apiKeyEnv": "WORK_ANTHROPIC_KEY" } },
 *              "agents": { "coder": { "model": "anthropic/claude-sonnet-5-5" } } },
 *   "local": { "providers": { "local": { "baseURL": "http://localhost:11434" } },
 *              "agents": { "coder": { "model": "local/qwen3-coder" } } }
 * }
 * ```
 *
 * Pure functions over the parsed config; which keys are present is the provider layer's business.
 */
import { AGENT_KINDS } from './constants.js';
import { ConfigError } from './light.js';
import type { Config, ProfileConfig, ProviderConfig } from './schema.js';

/** The environment variable naming the active profile when `--profile` is not given. */
export const PROFILE_ENV = 'OPENCODE_PROFILE';

/**
 * The profile to use: `--profile NAME` wins over `OPENCODE_PROFILE`; an empty value (or none) means no
 * profile. Not checked against the config here (see {@link applyProfile}).
 */
export function chooseProfileName(
  cliProfile: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  const name = (cliProfile ?? env[PROFILE_ENV])?.trim();
  return name ? name : undefined;
}

/**
 * `config` with profile `name` applied: each provider the profile names is merged over the file's entry
 * (a profile's `apiKey` or `apiKeyEnv` replaces both of the file's, so a work key never mixes with a
 * personal one; `models` merge by name), and each agent kind's settings the profile sets replace the
 * file's. `undefined` gives `config` back unchanged. The result keeps `profiles`.
 * @throws {ConfigError} when no profile has that name, listing those there are
 */
export function applyProfile(config: Config, name: string | undefined): Config {
  if (name === undefined) return config;
  const profile = config.profiles[name];
  if (!profile) throw new ConfigError([unknownProfileMessage(config, name)]);
  const providers: Record<string, ProviderConfig> = { ...config.providers };
  for (const [id, over] of Object.entries(profile.providers ?? {})) providers[id] = mergeProvider(providers[id], over);
  const agents = { ...config.agents };
  for (const kind of AGENT_KINDS) {
    const over = profile.agents?.[kind];
    if (over) agents[kind] = { ...agents[kind], ...definedOnly(over) };
  }
  return { ...config, providers, agents };
}

/** `unknown profile "wrok"; the config has: home, local, work` (or says how to add one). */
export function unknownProfileMessage(config: Pick<Config, 'profiles'>, name: string): string {
  const names = Object.keys(config.profiles);
  if (names.length === 0)
    return `unknown profile "${name}": .opencode.json has no "profiles"; add one, e.g. "profiles": {"${name}": {"agents": {"coder": {"model": "provider/model"}}}}`;
  return `unknown profile "${name}"; the config has: ${names.sort().join(', ')}`;
}

/** The provider ids a profile configures, for the default-model order (`preferProviders`). */
export function profileProviders(config: Pick<Config, 'profiles'>, name: string | undefined): string[] {
  return name === undefined ? [] : Object.keys(config.profiles[name]?.providers ?? {});
}

/** Whether profile `name` sets agent `kind`'s model or configures `providerId` (its failures are the profile's to report). */
export function profileDecides(
  config: Pick<Config, 'profiles'>,
  name: string | undefined,
  kind: string,
  providerId: string,
): boolean {
  if (name === undefined) return false;
  const profile: ProfileConfig | undefined = config.profiles[name];
  return !!profile?.agents?.[kind as (typeof AGENT_KINDS)[number]]?.model || !!profile?.providers?.[providerId];
}

/**
 * Every environment variable a provider entry names with `apiKeyEnv`, in `providers` and in every
 * profile: the values are keys, to be redacted from tool output like the usual key variables.
 */
export function apiKeyEnvNames(config: Pick<Config, 'providers' | 'profiles'>): string[] {
  const entries = [
    ...Object.values(config.providers),
    ...Object.values(config.profiles).flatMap((profile) => Object.values(profile.providers ?? {})),
  ];
  return [...new Set(entries.flatMap((entry) => (entry.apiKeyEnv ? [entry.apiKeyEnv] : [])))];
}

function mergeProvider(base: ProviderConfig | undefined, over: ProviderConfig): ProviderConfig {
  const merged: ProviderConfig = { ...base, ...definedOnly(over) };
  if (over.apiKey !== undefined || over.apiKeyEnv !== undefined) {
    if (over.apiKey === undefined) delete merged.apiKey;
    if (over.apiKeyEnv === undefined) delete merged.apiKeyEnv;
  }
  if (base?.models || over.models) merged.models = { ...base?.models, ...over.models };
  return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
