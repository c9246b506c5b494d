/**
 * The model catalog: one row per model we know, as data.
 *
 * Sources: Anthropic's model pages and pricing (platform.claude.com, Nov 2026), OpenAI's model and pricing
 * pages, Groq's "Supported models" page, OpenRouter's model list, xAI's "Models and pricing" (2025).
 * Prices are USD per 1M tokens. `cacheWrite` is the prompt-cache write price (Anthropic only; 0 where the
 * API reports no cache writes), `cacheRead` the cached-input price (equal to `input` where the provider
 * gives no discount).
 *
 * `canReason` means "we drive this model's reasoning": Anthropic extended thinking, or OpenAI-style
 * `max_completion_tokens` + `reasoning_effort`. It is false for models that reason on their own but reject
 * `reasoning_effort` (xAI grok-4, Groq qwen3 which only takes `none|default`), and for OpenRouter routes,
 * which take `max_tokens` for every model.
 *
 * Fixes the original's [BUG] `gpt-4.1-mini` → API model `gpt-4.1`.
 */
import type { ModelInfo } from './types.js';

/** `[id, apiModel, name, contextWindowTokens, defaultMaxTokens, [input, output, cacheWrite, cacheRead], canReason, supportsImages]` */
type Row = [string, string, string, number, number, [number, number, number, number], boolean, boolean];

const K = 1000;

// prettier-ignore
const ROWS: Row[] = [
  // Anthropic. The 5.x and 4.6 rows are the current line-up (platform.claude.com model pages, Nov 2026):
  // 1M context, 128K max output, adaptive thinking (anthropic.ts picks the thinking form by version).
  // claude-sonnet-4-5 reaches end of life on 2026-11-30 (the SDK warns on every request).
  ['anthropic/claude-opus-5-5',   'claude-opus-5-5',            'Claude Opus 5.5',   1_000_000, 32000, [4, 20, 5, 0.2],       true,  true],
  ['anthropic/claude-sonnet-5-5', 'claude-sonnet-5-5',          'Claude Sonnet 5.5', 1_000_000, 32000, [2, 10, 2.5, 0.2],     true,  true],
  ['anthropic/claude-opus-5',     'claude-opus-5',              'Claude Opus 5',     1_000_000, 32000, [5, 25, 6.25, 0.5],    true,  true],
  ['anthropic/claude-sonnet-5',   'claude-sonnet-5',            'Claude Sonnet 5',   1_000_000, 32000, [2, 10, 2.5, 0.2],     true,  true],
  ['anthropic/claude-opus-4-6',   'claude-opus-4-6',            'Claude Opus 4.6',   1_000_000, 32000, [5, 25, 6.25, 0.5],    true,  true],
  ['anthropic/claude-sonnet-4-6', 'claude-sonnet-4-6',          'Claude Sonnet 4.6', 1_000_000, 32000, [3, 15, 3.75, 0.3],    true,  true],
  // Older Anthropic models: 200k context, budget-style extended thinking.
  ['anthropic/claude-opus-4-5',   'claude-opus-4-5-20251101',   'Claude Opus 4.5',   200 * K, 32000, [5, 25, 6.25, 0.5],     true,  true],
  ['anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', 200 * K, 32000, [3, 15, 3.75, 0.3],     true,  true],
  ['anthropic/claude-haiku-4-5',  'claude-haiku-4-5-20251001',  'Claude Haiku 4.5',  200 * K, 32000, [1, 5, 1.25, 0.1],      true,  true],
  ['anthropic/claude-opus-4-1',   'claude-opus-4-1-20250805',   'Claude Opus 4.1',   200 * K, 32000, [15, 75, 18.75, 1.5],   true,  true],
  ['anthropic/claude-opus-4',     'claude-opus-4-20250514',     'Claude Opus 4',     200 * K, 32000, [15, 75, 18.75, 1.5],   true,  true],
  ['anthropic/claude-sonnet-4',   'claude-sonnet-4-20250514',   'Claude Sonnet 4',   200 * K, 32000, [3, 15, 3.75, 0.3],     true,  true],
  ['anthropic/claude-3-7-sonnet', 'claude-3-7-sonnet-20250219', 'Claude 3.7 Sonnet', 200 * K, 32000, [3, 15, 3.75, 0.3],     true,  true],
  ['anthropic/claude-3-5-haiku',  'claude-3-5-haiku-20241022',  'Claude 3.5 Haiku',  200 * K, 8192,  [0.8, 4, 1, 0.08],      false, true],

  // OpenAI (Chat Completions). No cache-write price: OpenAI caches automatically and bills writes as input.
  ['openai/gpt-5.1',       'gpt-5.1',       'GPT-5.1',       400 * K,   32000, [1.25, 10, 0, 0.125],   true,  true],
  ['openai/gpt-5',         'gpt-5',         'GPT-5',         400 * K,   32000, [1.25, 10, 0, 0.125],   true,  true],
  ['openai/gpt-5-mini',    'gpt-5-mini',    'GPT-5 mini',    400 * K,   32000, [0.25, 2, 0, 0.025],    true,  true],
  ['openai/gpt-5-nano',    'gpt-5-nano',    'GPT-5 nano',    400 * K,   32000, [0.05, 0.4, 0, 0.005],  true,  true],
  ['openai/gpt-4.1',       'gpt-4.1',       'GPT-4.1',       1_047_576, 20000, [2, 8, 0, 0.5],         false, true],
  ['openai/gpt-4.1-mini',  'gpt-4.1-mini',  'GPT-4.1 mini',  1_047_576, 20000, [0.4, 1.6, 0, 0.1],     false, true],
  ['openai/gpt-4.1-nano',  'gpt-4.1-nano',  'GPT-4.1 nano',  1_047_576, 20000, [0.1, 0.4, 0, 0.025],   false, true],
  ['openai/o3',            'o3',            'o3',            200 * K,   50000, [2, 8, 0, 0.5],         true,  true],
  ['openai/o4-mini',       'o4-mini',       'o4-mini',       200 * K,   50000, [1.1, 4.4, 0, 0.275],   true,  true],
  ['openai/o3-mini',       'o3-mini',       'o3-mini',       200 * K,   50000, [1.1, 4.4, 0, 0.55],    true,  false],
  ['openai/gpt-4o',        'gpt-4o',        'GPT-4o',        128 * K,   16384, [2.5, 10, 0, 1.25],     false, true],
  ['openai/gpt-4o-mini',   'gpt-4o-mini',   'GPT-4o mini',   128 * K,   16384, [0.15, 0.6, 0, 0.075],  false, true],

  // Groq (OpenAI-compatible).
  ['groq/openai/gpt-oss-120b',                  'openai/gpt-oss-120b',                       'GPT-OSS 120B (Groq)',      131_072, 32000, [0.15, 0.75, 0, 0.075], true,  false],
  ['groq/openai/gpt-oss-20b',                   'openai/gpt-oss-20b',                        'GPT-OSS 20B (Groq)',       131_072, 32000, [0.1, 0.5, 0, 0.05],    true,  false],
  ['groq/moonshotai/kimi-k2-instruct-0905',     'moonshotai/kimi-k2-instruct-0905',          'Kimi K2 (Groq)',           262_144, 16384, [1, 3, 0, 0.5],         false, false],
  ['groq/qwen/qwen3-32b',                       'qwen/qwen3-32b',                            'Qwen3 32B (Groq)',         131_072, 32000, [0.29, 0.59, 0, 0.29],  false, false],
  ['groq/llama-3.3-70b-versatile',              'llama-3.3-70b-versatile',                   'Llama 3.3 70B (Groq)',     131_072, 32768, [0.59, 0.79, 0, 0.59],  false, false],
  ['groq/llama-3.1-8b-instant',                 'llama-3.1-8b-instant',                      'Llama 3.1 8B (Groq)',      131_072, 8192,  [0.05, 0.08, 0, 0.05],  false, false],
  ['groq/meta-llama/llama-4-maverick-17b-128e-instruct', 'meta-llama/llama-4-maverick-17b-128e-instruct', 'Llama 4 Maverick (Groq)', 131_072, 8192, [0.2, 0.6, 0, 0.2], false, true],

  // OpenRouter (OpenAI-compatible; model names are `vendor/model`).
  ['openrouter/anthropic/claude-opus-4.5',   'anthropic/claude-opus-4.5',   'Claude Opus 4.5 (OpenRouter)',   200 * K,   32000, [5, 25, 6.25, 0.5],    false, true],
  ['openrouter/anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4.5', 'Claude Sonnet 4.5 (OpenRouter)', 200 * K,   32000, [3, 15, 3.75, 0.3],    false, true],
  ['openrouter/anthropic/claude-haiku-4.5',  'anthropic/claude-haiku-4.5',  'Claude Haiku 4.5 (OpenRouter)',  200 * K,   32000, [1, 5, 1.25, 0.1],     false, true],
  ['openrouter/anthropic/claude-sonnet-4',   'anthropic/claude-sonnet-4',   'Claude Sonnet 4 (OpenRouter)',   200 * K,   32000, [3, 15, 3.75, 0.3],    false, true],
  ['openrouter/openai/gpt-5',                'openai/gpt-5',                'GPT-5 (OpenRouter)',             400 * K,   32000, [1.25, 10, 0, 0.125],  false, true],
  ['openrouter/openai/gpt-4.1',              'openai/gpt-4.1',              'GPT-4.1 (OpenRouter)',           1_047_576, 20000, [2, 8, 0, 0.5],        false, true],
  ['openrouter/openai/gpt-4.1-mini',         'openai/gpt-4.1-mini',         'GPT-4.1 mini (OpenRouter)',      1_047_576, 20000, [0.4, 1.6, 0, 0.1],    false, true],
  ['openrouter/openai/o4-mini',              'openai/o4-mini',              'o4-mini (OpenRouter)',           200 * K,   50000, [1.1, 4.4, 0, 0.275],  false, true],
  ['openrouter/google/gemini-2.5-pro',       'google/gemini-2.5-pro',       'Gemini 2.5 Pro (OpenRouter)',    1_048_576, 32000, [1.25, 10, 0, 0.31],   false, true],
  ['openrouter/google/gemini-2.5-flash',     'google/gemini-2.5-flash',     'Gemini 2.5 Flash (OpenRouter)',  1_048_576, 32000, [0.3, 2.5, 0, 0.075],  false, true],
  ['openrouter/x-ai/grok-code-fast-1',       'x-ai/grok-code-fast-1',       'Grok Code Fast 1 (OpenRouter)',  256 * K,   16384, [0.2, 1.5, 0, 0.02],   false, false],
  ['openrouter/qwen/qwen3-coder',            'qwen/qwen3-coder',            'Qwen3 Coder (OpenRouter)',       262_144,   16384, [0.22, 0.95, 0, 0.22], false, false],
  ['openrouter/moonshotai/kimi-k2',          'moonshotai/kimi-k2',          'Kimi K2 (OpenRouter)',           131_072,   16384, [0.5, 2.4, 0, 0.5],    false, false],

  // xAI (OpenAI-compatible). grok-4 rejects `reasoning_effort`, so canReason is false (see header).
  ['xai/grok-4',                    'grok-4-0709',                   'Grok 4',                    256 * K,   16384, [3, 15, 0, 0.75],     false, true],
  ['xai/grok-4-fast-reasoning',     'grok-4-fast-reasoning',         'Grok 4 Fast (reasoning)',   2_000_000, 16384, [0.2, 0.5, 0, 0.05],  false, true],
  ['xai/grok-4-fast-non-reasoning', 'grok-4-fast-non-reasoning',     'Grok 4 Fast',               2_000_000, 16384, [0.2, 0.5, 0, 0.05],  false, true],
  ['xai/grok-code-fast-1',          'grok-code-fast-1',              'Grok Code Fast 1',          256 * K,   16384, [0.2, 1.5, 0, 0.02],  false, false],
  ['xai/grok-3',                    'grok-3',                        'Grok 3',                    131_072,   16384, [3, 15, 0, 0.75],     false, false],
  ['xai/grok-3-mini',               'grok-3-mini',                   'Grok 3 mini',               131_072,   16384, [0.3, 0.5, 0, 0.075], false, false],
];

function toModel([
  id,
  apiModel,
  name,
  contextWindowTokens,
  defaultMaxTokens,
  price,
  canReason,
  supportsImages,
]: Row): ModelInfo {
  const provider = id.slice(0, id.indexOf('/'));
  const [input, output, cacheWrite, cacheRead] = price;
  return {
    id,
    provider,
    apiModel,
    name,
    contextWindowTokens,
    defaultMaxTokens,
    price: { input, output, cacheWrite, cacheRead },
    canReason,
    supportsImages,
  };
}

/** Every catalog model, in the order above (by provider, newest and most capable first). Frozen. */
export const CATALOG: readonly ModelInfo[] = Object.freeze(ROWS.map(toModel).map((m) => Object.freeze(m)));

/** The catalog row for `id` (`provider/model`), or undefined. Returns a fresh copy the caller may change. */
export function catalogModel(id: string): ModelInfo | undefined {
  const hit = CATALOG.find((m) => m.id === id);
  return hit ? { ...hit, price: { ...hit.price } } : undefined;
}

/** Providers the catalog has models for. */
export const CATALOG_PROVIDERS = ['anthropic', 'openai', 'groq', 'openrouter', 'xai'] as const;

/**
 * Default model ids per agent kind and provider (the original's choice by provider, with current
 * models: the original used claude-4-sonnet ×4, gpt-4.1 / gpt-4.1-mini, qwen-qwq, claude-3.7-sonnet,
 * grok-3-beta). `local` is missing: its default is the first model the server lists.
 */
export const DEFAULT_MODELS: Record<
  (typeof CATALOG_PROVIDERS)[number],
  { coder: string; task: string; title: string; summarizer: string }
> = {
  anthropic: {
    coder: 'anthropic/claude-sonnet-5-5',
    task: 'anthropic/claude-sonnet-5-5',
    title: 'anthropic/claude-haiku-4-5',
    summarizer: 'anthropic/claude-sonnet-5-5',
  },
  openai: {
    coder: 'openai/gpt-4.1',
    task: 'openai/gpt-4.1-mini',
    title: 'openai/gpt-4.1-mini',
    summarizer: 'openai/gpt-4.1',
  },
  groq: {
    coder: 'groq/openai/gpt-oss-120b',
    task: 'groq/openai/gpt-oss-120b',
    title: 'groq/llama-3.1-8b-instant',
    summarizer: 'groq/openai/gpt-oss-120b',
  },
  openrouter: {
    coder: 'openrouter/anthropic/claude-sonnet-4.5',
    task: 'openrouter/anthropic/claude-sonnet-4.5',
    title: 'openrouter/anthropic/claude-haiku-4.5',
    summarizer: 'openrouter/anthropic/claude-sonnet-4.5',
  },
  xai: { coder: 'xai/grok-4', task: 'xai/grok-4', title: 'xai/grok-3-mini', summarizer: 'xai/grok-4' },
};
