/**
 * The TUI's profile and model services over an App: listing and switching
 * provider profiles for the next request, and saving the model picked with ctrl+o to the project's
 * `.opencode.json` (or the global one when asked), under the active profile when there is one.
 */
import type { App } from '../app/app.js';
import { applyProfile } from '../config/profiles.js';
import { resolveModel } from '../provider/resolve.js';
import type { Config } from '../config/schema.js';
import type { ProfileServices, ProfileView, SavedModel } from '../tui/state/services.js';
import { resolveModels } from '../app/models.js';
import { describeProfile, describeProfiles } from './profile-summary.js';

/**
 * The profiles of `config` (the files' own) as the profile dialog lists them; no network, no app:
 * the TUI's services list them before the app has loaded too (pending-services.ts).
 */
export function profileViews(config: Config, env: Record<string, string | undefined>): ProfileView[] {
  return describeProfiles(config, env).map((p) => ({
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    ...(p.models.coder ? { coderModel: p.models.coder } : {}),
    problems: p.problems,
  }));
}

/** Profile services over `app`, whose `config` is the files' own (profiles are applied to it). Undefined when the config has no profiles. */
export function profileServices(app: App, env: Record<string, string | undefined>): ProfileServices | undefined {
  const base = app.config;
  if (Object.keys(base.profiles ?? {}).length === 0) return undefined;
  return {
    list: () => profileViews(base, env),
    active: () => app.providerChoice.profile,
    async switch(name) {
      const config = applyProfile(base, name);
      // a missing key of the model the profile names is an error (resolveModels says which variable);
      // one of a provider it configures but does not use now is a warning
      const selected = await resolveModels(config, env, { profile: name });
      app.switchProviders({
        profile: name,
        agents: config.agents,
        models: selected.models,
        providerSettings: selected.settings,
      });
      const used = new Set(Object.values(selected.models).map((m) => m.provider));
      const unused =
        name === undefined
          ? []
          : describeProfile(base, name, env).problems.filter((line) => !used.has(line.slice(0, line.indexOf(':'))));
      return [...selected.warnings, ...unused];
    },
  };
}

/**
 * Switches the coder to `modelId` (resolved with the providers in use now) and saves it: to the
 * project's `.opencode.json` unless `global`; as `profiles.<name>.agents.coder.model` when a profile is
 * active, so the profile keeps its own choice. Comments and layout of the file are kept.
 * @throws ProviderError for an unknown model; ConfigError when the file cannot be written
 */
export async function saveCoderModel(
  app: App,
  modelId: string,
  options: { global?: boolean; env: Record<string, string | undefined> },
): Promise<SavedModel> {
  const model = await resolveModel(modelId, app.providerChoice.providerSettings);
  app.setCoderModel(model);
  const profile = app.providerChoice.profile;
  const keyPath = [...(profile !== undefined ? ['profiles', profile] : []), 'agents', 'coder', 'model'];
  // config/write.ts loads the schema (zod): imported when used, not at the TUI's start
  const { setGlobalConfigValue, setProjectConfigValue } = await import('../config/write.js');
  const file = options.global
    ? setGlobalConfigValue({ env: options.env }, keyPath, model.id)
    : setProjectConfigValue(app.cwd, keyPath, model.id);
  return { file, keyPath: keyPath.join('.') };
}
