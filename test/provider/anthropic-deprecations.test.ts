/**
 * The warnings the Anthropic SDK printed on each request, kept now that the provider sends requests
 * itself (anthropic-deprecations.ts): one example per table row, and the cases that warn of nothing.
 */
import { describe, expect, it } from 'vitest';
import { DEPRECATED_MODELS, MODELS_TO_WARN_WITH_THINKING_ENABLED, requestWarnings } from '../../src/provider/anthropic-deprecations.js';

describe('requestWarnings', () => {
  it.each(Object.entries(DEPRECATED_MODELS))('%s is named as retiring on %s', (model, date) => {
    expect(requestWarnings(model, undefined)).toEqual([
      `The model '${model}' is deprecated and will reach end-of-life on ${date}\nPlease migrate to a newer model. Visit https://docs.anthropic.com/en/docs/resources/model-deprecations for more information.`,
    ]);
  });

  it.each(MODELS_TO_WARN_WITH_THINKING_ENABLED)('%s with the budget thinking form is told to use adaptive; adaptive is not', (model) => {
    const thinking = requestWarnings(model, { type: 'enabled' }).filter((w) => w.startsWith('Using Claude'));
    expect(thinking).toEqual([
      `Using Claude with ${model} and 'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead which results in better model performance in our testing: https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking`,
    ]);
    expect(requestWarnings(model, { type: 'adaptive' }).filter((w) => w.startsWith('Using Claude'))).toEqual([]);
  });

  it('warns of nothing for a current model, with or without thinking', () => {
    expect(requestWarnings('claude-haiku-4-5', undefined)).toEqual([]);
    expect(requestWarnings('claude-sonnet-4-20250514', { type: 'enabled' })).toEqual([]);
  });
});
