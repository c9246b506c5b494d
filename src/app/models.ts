/**
 * Choosing the models of a run: `-m` for the coder, else `agents.<kind>.model`, else the default order
 * by available credentials (as the original).
 */
import { configSource } from '../config/light.js';
import type { LoadedConfig } from '../config/load.js';
import {
  PROFILE_ENV,
  applyProfile,
  chooseProfileName,
  profileDecides,
  profileProviders,
  unknownProfileMessage,
} from '../config/profiles.js';
import type { Config } from '../config/schema.js';
// the modules themselves, not provider/index.js: that one loads the providers' HTTP clients, which
// the TUI's first frame does not need
import { defaultModels, resolveModel, type DefaultModels } from '../provider/resolve.js';
import {
  credentialHint,
  hasCredentials,
  missingCredentialsMessage,
  type ProviderSettings,
} from '../provider/settings.js';
import type { ModelInfo } from '../provider/types.js';

/** A model could not be chosen; the message says what to set. */
export class ModelSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelSelectionError';
  }
}

export interface SelectedModels {
  models: { coder: ModelInfo; task: ModelInfo; title: ModelInfo; summarizer: ModelInfo };
  settings: ProviderSettings;
  /**
   * One line per saved model that could not be used and what was used instead, naming the file it came
   * from, e.g. `agents.coder.model "anthropic/claude-sonnet-5-5" (from /home/u/.opencode.json): no
   * credentials for provider "anthropic" (set ANTHROPIC_API_KEY or providers.anthropic.apiKey); using openai/gpt-4.1`
   */
  warnings: string[];
}

/** Options of {@link resolveModels}. */
export interface ResolveModelsOptions {
  /** `-m provider/model`: the coder model, used as given or refused (never replaced) */
  cliModel?: string;
  /** the active profile, already applied to the config (`applyProfile`): its own choices are never replaced either */
  profile?: string;
  /** the file that set a key, for the warnings (`configSource`); without it warnings name no file */
  sourceOf?(keyPath: readonly string[]): string | undefined;
}

/**
 * Resolves the coder, task, title and summarizer models (the last three fall back to the coder's).
 * A model saved in a file (`agents.coder.model`) whose provider has no key does not stop the start:
 * the default by credentials is used instead, with a warning naming the file. A model
 * given with `-m`, or set by the active profile, is refused instead: it was asked for by name.
 * The third argument may be `-m`'s value alone.
 * @throws {ModelSelectionError} with no credential at all, or an unknown / unusable model id
 */
export async function resolveModels(
  config: Config,
  env: Record<string, string | undefined>,
  options: string | ResolveModelsOptions = {},
): Promise<SelectedModels> {
  const { cliModel, profile, sourceOf } = typeof options === 'string' ? { cliModel: options } : options;
  const settings: ProviderSettings = { providers: config.providers ?? {}, env };
  let defaults: DefaultModels | undefined;
  try {
    defaults = await defaultModels(settings, { preferProviders: profileProviders(config, profile) });
  } catch (err) {
    // e.g. LOCAL_ENDPOINT is the only credential and its server cannot be listed: a stop only when no
    // coder model is named (with one named, its own resolution says what failed)
    if (!(cliModel ?? config.agents?.coder?.model)) throw new ModelSelectionError((err as Error).message);
  }
  const warnings: string[] = [];
  // a named local or custom model whose server does not list models is used as named (resolve.ts)
  const resolveOptions = {
    onWarning: (message: string) => void (warnings.includes(message) || warnings.push(message)),
  };
  const pick = async (kind: 'coder' | 'task' | 'title' | 'summarizer'): Promise<ModelInfo> => {
    const fromCli = kind === 'coder' ? cliModel : undefined;
    const id = fromCli ?? config.agents?.[kind]?.model ?? defaults?.[kind];
    if (!id) throw new ModelSelectionError(missingCredentialsMessage());
    let model: ModelInfo;
    try {
      model = await resolveModel(id, settings, resolveOptions);
    } catch (err) {
      throw new ModelSelectionError((err as Error).message);
    }
    if (hasCredentials(model.provider, settings)) return model;
    const problem = `no credentials for provider "${model.provider}" (${credentialHint(model.provider, settings)})`;
    const saved = !fromCli && config.agents?.[kind]?.model === id;
    if (saved && profileDecides(config, profile, kind, model.provider)) {
      throw new ModelSelectionError(`Profile "${profile}": agents.${kind}.model "${model.id}": ${problem}.`);
    }
    const fallback = defaults?.[kind];
    if (!saved || !fallback || fallback === id) {
      throw new ModelSelectionError(
        `No credentials for provider "${model.provider}" (model ${model.id}): ${credentialHint(model.provider, settings)}.`,
      );
    }
    const file = sourceOf?.(
      profile !== undefined && profileDecides(config, profile, kind, '')
        ? ['profiles', profile, 'agents', kind, 'model']
        : ['agents', kind, 'model'],
    );
    const replacement = await resolveModel(fallback, settings, resolveOptions).catch((err: unknown) => {
      throw new ModelSelectionError((err as Error).message);
    });
    if (kind === 'coder')
      warnings.push(
        `agents.${kind}.model "${model.id}"${file ? ` (from ${file})` : ''}: ${problem}; using ${replacement.id}`,
      );
    return replacement;
  };
  const coder = await pick('coder');
  // task and title fall back to the coder model when their own cannot be used
  const [task, title, summarizer] = await Promise.all(
    (['task', 'title', 'summarizer'] as const).map((kind) => pick(kind).catch(() => coder)),
  );
  return { models: { coder, task: task!, title: title!, summarizer: summarizer! }, settings, warnings };
}

/** What {@link chooseProviders} decided: the config with the active profile applied, its name, the models. */
export interface ChosenProviders extends SelectedModels {
  config: Config;
  profile?: string;
}

/**
 * The start-up choice of `-p`, the TUI and `opencode acp`: the profile (`--profile`, else
 * OPENCODE_PROFILE) applied to `config`, then the models ({@link resolveModels}), with
 * warnings naming the file a replaced model came from (`loaded.sources`).
 * @throws {ModelSelectionError} for an unknown profile, a profile whose key is missing, or as resolveModels
 */
export async function chooseProviders(
  config: Config,
  loaded: Pick<LoadedConfig, 'sources'>,
  env: Record<string, string | undefined>,
  opts: { model?: string; profile?: string },
): Promise<ChosenProviders> {
  const profile = chooseProfileName(opts.profile, env);
  if (profile !== undefined && !config.profiles[profile]) {
    const how = opts.profile !== undefined ? '--profile' : PROFILE_ENV;
    throw new ModelSelectionError(`${unknownProfileMessage(config, profile)} (${how})`);
  }
  const applied = applyProfile(config, profile);
  const selected = await resolveModels(applied, env, {
    cliModel: opts.model,
    profile,
    sourceOf: (keyPath) => configSource(loaded, keyPath),
  });
  return { ...selected, config: applied, ...(profile !== undefined ? { profile } : {}) };
}
