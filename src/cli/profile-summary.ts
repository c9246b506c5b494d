/**
 * What each provider profile resolves to, without network and without showing a key:
 * the models its agents use, and for each provider involved the base URL and whether its key is
 * there. Read by `opencode profiles` and the TUI's profile dialog.
 */
import { AGENT_KINDS } from '../config/constants.js';
import type { Config } from '../config/schema.js';
import { applyProfile } from '../config/profiles.js';
// provider/settings.js, not index.js (which loads the providers' HTTP clients): the TUI's first frame loads this
import {
  credentialStatus,
  providerBaseURL,
  type CredentialStatus,
  type ProviderSettings,
} from '../provider/settings.js';

/** One provider a profile uses. */
export interface ProfileProvider {
  /** e.g. `anthropic`, `local` */
  id: string;
  /** where requests go; undefined for a local or custom provider without one */
  baseURL?: string;
  key: CredentialStatus;
}

/** One profile, resolved. */
export interface ProfileSummary {
  name: string;
  description?: string;
  /** the agent kinds whose model is set (by the profile or the file), e.g. `{coder: 'anthropic/claude-sonnet-5-5'}` */
  models: Partial<Record<(typeof AGENT_KINDS)[number], string>>;
  providers: ProfileProvider[];
  /** one line per thing that stops a provider of the profile, e.g. `anthropic: WORK_ANTHROPIC_KEY is not set` */
  problems: string[];
}

/** Every profile of `config` (sorted by name), resolved against `env`. */
export function describeProfiles(config: Config, env: Record<string, string | undefined>): ProfileSummary[] {
  return Object.keys(config.profiles)
    .sort()
    .map((name) => describeProfile(config, name, env));
}

/**
 * Profile `name` of `config` resolved against `env`: the providers it configures and those its
 * agents' models need.
 * @throws {ConfigError} when there is no such profile
 */
export function describeProfile(config: Config, name: string, env: Record<string, string | undefined>): ProfileSummary {
  const applied = applyProfile(config, name);
  const settings: ProviderSettings = { providers: applied.providers, env };
  const models: ProfileSummary['models'] = {};
  for (const kind of AGENT_KINDS) {
    const model = applied.agents[kind].model;
    if (model) models[kind] = model;
  }
  const ids = new Set(Object.keys(config.profiles[name]!.providers ?? {}));
  for (const model of Object.values(models)) if (model.includes('/')) ids.add(model.slice(0, model.indexOf('/')));
  const providers = [...ids].map((id) => {
    const baseURL = providerBaseURL(id, settings);
    return { id, ...(baseURL ? { baseURL } : {}), key: credentialStatus(id, settings) };
  });
  const problems: string[] = [];
  for (const p of providers) {
    if (settings.providers[p.id]?.disabled) problems.push(`${p.id}: disabled (providers.${p.id}.disabled)`);
    else if (p.key.state === 'missing') problems.push(`${p.id}: ${p.key.from} is not set`);
    else if (!p.baseURL)
      problems.push(`${p.id}: no base URL (set baseURL${p.id === 'local' ? ' or LOCAL_ENDPOINT' : ''})`);
  }
  const description = config.profiles[name]!.description;
  return { name, ...(description ? { description } : {}), models, providers, problems };
}

/**
 * The listing of `opencode profiles`, e.g.
 * ```
 * * work  Anthropic, billed to work
 *     coder  anthropic/claude-sonnet-5-5
 *     anthropic  https://api.anthropic.com  key WORK_ANTHROPIC_KEY: missing
 *   local
 *     coder  local/qwen3-coder
 *     local  http://localhost:11434/v1  no key needed
 * ```
 * `*` marks the active profile. Keys are never shown, only where they are read from and whether they are there.
 */
export function formatProfiles(summaries: readonly ProfileSummary[], active: string | undefined): string {
  const lines: string[] = [];
  for (const s of summaries) {
    lines.push(`${s.name === active ? '*' : ' '} ${s.name}${s.description ? `  ${s.description}` : ''}`);
    if (!s.models.coder) lines.push('    coder  chosen by credentials (the first provider with a key)');
    for (const [kind, model] of Object.entries(s.models)) lines.push(`    ${kind}  ${model}`);
    for (const p of s.providers) lines.push(`    ${p.id}  ${p.baseURL ?? '(no base URL)'}  ${keyText(p.key)}`);
  }
  return `${lines.join('\n')}\n`;
}

function keyText(key: CredentialStatus): string {
  if (key.state === 'not needed') return 'no key needed';
  return `key ${key.from}: ${key.state}`;
}
