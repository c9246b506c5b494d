/**
 * Choosing the models of a run: `-m` for the coder, else `agents.<kind>.model`, else the default order
 * by available credentials (reference §3).
 */
import type { Config } from '../config/schema.js';
import {
  credentialHint,
  defaultModels,
  hasCredentials,
  missingCredentialsMessage,
  resolveModel,
  type ProviderSettings,
} from '../provider/index.js';
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
}

/**
 * Resolves the coder, task, title and summarizer models (the last three fall back to the coder's).
 * @throws {ModelSelectionError} with no credential at all, or an unknown / unusable model id
 */
export async function resolveModels(
  config: Config,
  env: Record<string, string | undefined>,
  cliModel?: string,
): Promise<SelectedModels> {
  const settings: ProviderSettings = { providers: config.providers ?? {}, env };
  let defaults;
  try {
    defaults = await defaultModels(settings);
  } catch (err) {
    // e.g. LOCAL_ENDPOINT is the only credential and its server cannot be listed
    throw new ModelSelectionError((err as Error).message);
  }
  const pick = async (kind: 'coder' | 'task' | 'title' | 'summarizer'): Promise<ModelInfo> => {
    const id = (kind === 'coder' ? cliModel : undefined) ?? config.agents?.[kind]?.model ?? defaults?.[kind];
    if (!id) throw new ModelSelectionError(missingCredentialsMessage());
    let model: ModelInfo;
    try {
      model = await resolveModel(id, settings);
    } catch (err) {
      throw new ModelSelectionError((err as Error).message);
    }
    if (!hasCredentials(model.provider, settings)) {
      throw new ModelSelectionError(`No credentials for provider "${model.provider}" (model ${model.id}): ${credentialHint(model.provider, settings)}.`);
    }
    return model;
  };
  const coder = await pick('coder');
  // task and title fall back to the coder model when their own cannot be used
  const [task, title, summarizer] = await Promise.all(
    (['task', 'title', 'summarizer'] as const).map((kind) => pick(kind).catch(() => coder)),
  );
  return { models: { coder, task: task!, title: title!, summarizer: summarizer! }, settings };
}
