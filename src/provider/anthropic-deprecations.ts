/**
 * The warnings `@anthropic-ai/sdk` 1.14 printed with `console.warn` on each `messages.create` request
 * (resources/messages/messages.mjs), kept now that the Anthropic provider sends its requests itself
 * (event-stream-http.ts): a model that is retiring, and the budget thinking form on a model that
 * should take the adaptive one. `-p` moves them to stderr, once each (cli/library-console.ts).
 * The tables are the SDK's (internal/data/*.mjs of 1.14): update them with the SDK.
 */

/** API model → its end-of-life date, as the SDK words it. */
export const DEPRECATED_MODELS: Readonly<Record<string, string>> = {
  'claude-mythos-preview': 'June 30th, 2026',
  'claude-opus-4-5': 'January 22nd, 2027',
  'claude-opus-4-5-20251101': 'January 22nd, 2027',
  'claude-sonnet-4-5': 'November 30th, 2026',
  'claude-sonnet-4-5-20250929': 'November 30th, 2026',
};

/** Models for which `thinking.type = "enabled"` (the budget form) is deprecated in favour of `adaptive`. */
export const MODELS_TO_WARN_WITH_THINKING_ENABLED: readonly string[] = ['claude-opus-4-6', 'claude-mythos-preview'];

/** The SDK's warnings for a request of `model` with `thinking` (the request's field), in its words; [] when none. */
export function requestWarnings(model: string, thinking: { type: string } | undefined): string[] {
  const warnings: string[] = [];
  const endOfLife = DEPRECATED_MODELS[model];
  if (endOfLife) {
    warnings.push(
      `The model '${model}' is deprecated and will reach end-of-life on ${endOfLife}\nPlease migrate to a newer model. Visit https://docs.anthropic.com/en/docs/resources/model-deprecations for more information.`,
    );
  }
  if (MODELS_TO_WARN_WITH_THINKING_ENABLED.includes(model) && thinking?.type === 'enabled') {
    warnings.push(
      `Using Claude with ${model} and 'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead which results in better model performance in our testing: https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking`,
    );
  }
  return warnings;
}
