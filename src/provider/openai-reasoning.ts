/**
 * Which field, if any, carries a model's reasoning back to an OpenAI-compatible API on the assistant
 * messages of the history that called tools. Some APIs require it on turns with tool calls and reject the request without it;
 * others reject a field they do not know. Nothing is sent unless a row below says so.
 *
 * A row matches the provider id (`providers.deepseek` in the config), the API's host, or the model name
 * (for a `local` or custom server running that model).
 */

/** The assistant message field that carries reasoning back. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

interface ReasoningRule {
  /** matched against the provider id, the base URL's host and the model name, case-insensitively */
  pattern: RegExp;
  field: ReasoningField;
  /** the provider's requirement, from its API documentation */
  reason: string;
}

/** The providers that take reasoning back, first match wins. */
export const REASONING_RULES: readonly ReasoningRule[] = [
  {
    pattern: /openrouter/i,
    field: 'reasoning',
    reason:
      'OpenRouter (openrouter.ai/docs, "Reasoning tokens": preserving reasoning): an assistant message takes its reasoning back in `reasoning`',
  },
  {
    pattern: /deepseek/i,
    field: 'reasoning_content',
    reason:
      'DeepSeek thinking mode (api-docs.deepseek.com/guides/thinking_mode, "Tool calls"): a turn with tool calls must pass its reasoning_content back in every later request, else HTTP 400 "Missing reasoning_content field"',
  },
  {
    pattern: /moonshot|kimi/i,
    field: 'reasoning_content',
    reason:
      'Moonshot Kimi thinking models (platform.moonshot.ai docs): keep reasoning_content in the context of a multi-step tool call',
  },
  {
    pattern: /bigmodel|z\.ai|zhipu|\bglm/i,
    field: 'reasoning_content',
    reason:
      'Z.ai GLM thinking (docs.z.ai, "Preserved thinking"): reasoning_content sent back keeps the reasoning of tool-call turns',
  },
];

/** Providers never sent reasoning back, whatever model they serve. */
const NEVER: ReadonlySet<string> = new Set(['openai', 'groq', 'xai']);

/**
 * The field to send reasoning back in for this provider (`providerId`), server (`baseURL`) and model
 * (`apiModel`), or undefined to send none: OpenAI, xAI and Groq are never sent it (Groq answers HTTP 400
 * "property 'reasoning_content' is unsupported"; OpenAI and xAI stream no reasoning text to send back), nor
 * servers no row names (Qwen's DashScope documents no such field on input).
 */
export function reasoningFieldFor(providerId: string, baseURL: string, apiModel: string): ReasoningField | undefined {
  let host = '';
  try {
    host = new URL(baseURL).host;
  } catch {
    // not a URL: the provider id and model still decide
  }
  // these serve models a row names (Kimi and Qwen on Groq) but take no reasoning back
  if (NEVER.has(providerId) || /(^|\.)(groq\.com|openai\.com|x\.ai)$/i.test(host)) return undefined;
  return REASONING_RULES.find((rule) => [providerId, host, apiModel].some((s) => rule.pattern.test(s)))?.field;
}
