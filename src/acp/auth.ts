/**
 * ACP authentication for a program that holds no login of its own: our "auth methods" are the
 * providers whose credentials are present (an environment key or `providers.<id>` in
 * .opencode.json), so the editor can show which account the agent will use. `authenticate` with one of
 * them succeeds; with a provider that has no credential it fails with what to set.
 *
 * Source: ACP v1 `AuthMethod` (type `agent`, the default: the agent handles authentication itself).
 */
import type { AuthMethod } from '@agentclientprotocol/sdk';
import {
  BUILTIN_PROVIDERS,
  credentialHint,
  hasCredentials,
  LOCAL_ENDPOINT_ENV,
  type ProviderSettings,
} from '../provider/settings.js';

/** One auth method per usable provider, built-in ones first, e.g. `{ id: 'anthropic', name: 'Anthropic', description: 'API key from ANTHROPIC_API_KEY or providers.anthropic.apiKey' }`. */
export function authMethods(settings: ProviderSettings): AuthMethod[] {
  const ids = [
    ...Object.keys(BUILTIN_PROVIDERS),
    'local',
    ...Object.keys(settings.providers).filter((id) => !(id in BUILTIN_PROVIDERS) && id !== 'local'),
  ];
  return ids
    .filter((id) => hasCredentials(id, settings))
    .map((id) => {
      const builtin = BUILTIN_PROVIDERS[id];
      if (builtin)
        return {
          id,
          name: builtin.displayName,
          description: `API key from ${builtin.keyEnv} or providers.${id}.apiKey`,
        };
      if (id === 'local')
        return {
          id,
          name: 'Local server',
          description: `OpenAI-compatible server at ${LOCAL_ENDPOINT_ENV} or providers.local.baseURL`,
        };
      return { id, name: id, description: `OpenAI-compatible server at providers.${id}.baseURL` };
    });
}

/**
 * Checks the method the editor chose. Returns undefined when it can be used, else the reason, e.g.
 * `no credential for groq: set GROQ_API_KEY or providers.groq.apiKey, then restart the agent`.
 */
export function authenticationProblem(methodId: string, settings: ProviderSettings): string | undefined {
  if (hasCredentials(methodId, settings)) return undefined;
  return `no credential for ${methodId}: ${credentialHint(methodId, settings)}, then restart the agent`;
}
