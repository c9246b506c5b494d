/**
 * The request checks of the fake provider: the rules of the real APIs that a careless client breaks,
 * with the real APIs' wording where we know it. Each returns undefined for a valid body, else the
 * message of the HTTP 400 the real API would send.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are untyped JSON */
type Json = any;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Anthropic Messages API (`POST /v1/messages`). */
export function checkAnthropicRequest(body: Json): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'request body must be a JSON object';
  if (body.stream !== true) return 'stream: the fake provider serves streaming requests only (stream: true)';
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return 'max_tokens: Field required (a positive integer)';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';

  if (body.system !== undefined) {
    const blocks = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : body.system;
    if (!Array.isArray(blocks)) return 'system: Input should be a valid string or list';
    for (const [j, b] of blocks.entries()) {
      if (b?.type !== 'text' || typeof b.text !== 'string' || !b.text.trim()) {
        return `system.${j}.text: text content blocks must contain non-whitespace text`;
      }
    }
  }
  for (const [j, tool] of (body.tools ?? []).entries()) {
    if (typeof tool?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) {
      return `tools.${j}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    }
    if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object') {
      return `tools.${j}.custom.input_schema.type: Input should be 'object'`;
    }
  }

  // Claude 5 models reject the budget thinking form and non-default sampling (platform.claude.com Sonnet 5 page)
  const claude5 = /^claude-(opus|sonnet|haiku|fable|mythos)-5/.test(body.model);
  const thinkingType = body.thinking?.type;
  if (thinkingType === 'enabled') {
    if (claude5) {
      return '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
    }
    const budget = body.thinking.budget_tokens;
    if (!Number.isInteger(budget) || budget < 1024) {
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    }
    if (body.max_tokens <= budget) return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  if (thinkingType === 'adaptive' && body.thinking.budget_tokens !== undefined) {
    return 'thinking.adaptive.budget_tokens: Extra inputs are not permitted';
  }
  if (
    (thinkingType === 'enabled' || thinkingType === 'adaptive') &&
    body.temperature !== undefined &&
    body.temperature !== 1
  ) {
    return '`temperature` may only be set to 1 when thinking is enabled';
  }
  if (
    claude5 &&
    ((body.temperature !== undefined && body.temperature !== 1) || body.top_p !== undefined || body.top_k !== undefined)
  ) {
    return 'Sampling parameters (temperature, top_p, top_k) are not supported for this model.';
  }

  let cacheBreakpoints = 0;
  const countCache = (b: Json) => {
    if (isObject(b) && b.cache_control) cacheBreakpoints++;
  };
  (Array.isArray(body.system) ? body.system : []).forEach(countCache);
  (body.tools ?? []).forEach(countCache);

  const messages: Json[] = body.messages;
  for (const [i, m] of messages.entries()) {
    if (m?.role !== 'user' && m?.role !== 'assistant')
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const content: Json[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const isFinalAssistant = i === messages.length - 1 && m.role === 'assistant';
    if (!Array.isArray(content) || (content.length === 0 && !isFinalAssistant)) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    for (const [j, b] of content.entries()) {
      countCache(b);
      const at = `messages.${i}.content.${j}`;
      if (b?.type === 'text' && (typeof b.text !== 'string' || !b.text.trim())) {
        return `${at}.text: text content blocks must contain non-whitespace text`;
      }
      if (b?.type === 'thinking' && (typeof b.signature !== 'string' || !b.signature)) {
        return `${at}.thinking.signature: Field required (thinking blocks must be sent back with their signature)`;
      }
      if (b?.type === 'tool_use' && !isObject(b.input))
        return `${at}.tool_use.input: Input should be a valid dictionary`;
      if (
        (b?.type === 'tool_use' || b?.type === 'tool_result' || b?.type === 'thinking') &&
        m.role !== (b.type === 'tool_result' ? 'user' : 'assistant')
      ) {
        return `${at}: \`${b.type}\` blocks are not allowed in a ${m.role} message`;
      }
    }
  }
  if (cacheBreakpoints > 4)
    return `A maximum of 4 blocks with cache_control may be provided. Found ${cacheBreakpoints}.`;

  const blocksOf = (m: Json, type: string): Json[] =>
    Array.isArray(m?.content) ? m.content.filter((b: Json) => b?.type === type) : [];
  for (const [i, m] of messages.entries()) {
    if (m.role === 'assistant') {
      const ids = blocksOf(m, 'tool_use').map((b) => b.id);
      if (ids.length === 0) continue;
      const next = messages[i + 1];
      const answered = new Set(next?.role === 'user' ? blocksOf(next, 'tool_result').map((b) => b.tool_use_id) : []);
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    } else {
      const results = blocksOf(m, 'tool_result').map((b) => b.tool_use_id);
      if (results.length === 0) continue;
      const prev = messages[i - 1];
      const called = new Set(prev?.role === 'assistant' ? blocksOf(prev, 'tool_use').map((b) => b.id) : []);
      const unexpected = results.filter((id) => !called.has(id));
      if (unexpected.length > 0) {
        return `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
  }
  return undefined;
}

/** OpenAI Chat Completions API (`POST /v1/chat/completions`). */
export function checkOpenAIRequest(body: Json): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'request body must be a JSON object';
  if (body.stream !== true) return 'stream: the fake provider serves streaming requests only (stream: true)';
  if (typeof body.model !== 'string' || !body.model) return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
  }
  if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined) {
    return "Invalid request: 'max_tokens' and 'max_completion_tokens' cannot both be set.";
  }
  for (const [j, tool] of (body.tools ?? []).entries()) {
    if (tool?.type !== 'function' || typeof tool.function?.name !== 'string')
      return `Invalid 'tools[${j}]': expected a function tool.`;
    if (!isObject(tool.function.parameters) || tool.function.parameters.type !== 'object') {
      return `Invalid schema for function '${tool.function.name}': schema must be a JSON Schema of 'type: "object"'.`;
    }
  }
  const messages: Json[] = body.messages;
  for (const [i, m] of messages.entries()) {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m?.role)) {
      return `Invalid value: '${m?.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`;
    }
    if (m.role === 'assistant') {
      const calls: Json[] = m.tool_calls ?? [];
      if ((m.content === null || m.content === undefined || m.content === '') && calls.length === 0) {
        return `Invalid value for 'messages[${i}].content': expected a string, got null.`;
      }
      const answered = new Set<string>();
      for (let k = i + 1; messages[k]?.role === 'tool'; k++) answered.add(messages[k].tool_call_id);
      const missing = calls.map((c) => c.id).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`;
      }
    }
    if (m.role === 'tool') {
      let k = i - 1;
      while (messages[k]?.role === 'tool') k--;
      const ids = new Set<string>(
        (messages[k]?.role === 'assistant' ? (messages[k].tool_calls ?? []) : []).map((c: Json) => c.id),
      );
      if (!ids.has(m.tool_call_id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      }
      if (typeof m.content !== 'string' && !Array.isArray(m.content))
        return `Invalid value for 'messages[${i}].content'.`;
    }
  }
  return undefined;
}

/**
 * DeepSeek thinking mode (api-docs.deepseek.com/guides/thinking_mode, "Tool calls"): the reasoning_content
 * of a turn with tool calls must be passed back in every later request; without it the API answers 400
 * with this message.
 */
export function checkDeepSeekReasoning(body: Json): string | undefined {
  for (const [i, m] of (body.messages as Json[]).entries()) {
    if (m.role === 'assistant' && (m.tool_calls ?? []).length > 0 && typeof m.reasoning_content !== 'string') {
      return `Missing \`reasoning_content\` field in the assistant message at message index ${i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
    }
  }
  return undefined;
}
