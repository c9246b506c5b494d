/**
 * Provider-neutral preparation of a history before it is converted to an API's message format.
 *
 * Both APIs reject a conversation where a tool call has no result or a result has no call (Anthropic:
 * "tool_use ids were found without tool_result blocks immediately after"; OpenAI: "An assistant message
 * with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"). The agent
 * keeps its history paired, but a provider must never send an invalid request, so this layer repairs
 * what it is given rather than trusting it (the original's dropped invalid tool input left an orphaned tool_result: a 400 and a stuck session).
 */
import type { Message, ToolCallPart, ToolResultPart } from '../message.js';
import { toolCalls, toolResults } from '../message.js';

/** The result sent for a tool call that has no recorded result. */
export const MISSING_TOOL_RESULT = 'Tool execution was interrupted: no result was recorded for this call.';

/**
 * Returns the history with `system` messages removed and tool results re-paired: each assistant
 * message with tool calls is followed by exactly one `tool` message holding one result per call, in
 * call order. Results come from the `tool` messages directly after the assistant message; a call without
 * one gets {@link MISSING_TOOL_RESULT} (`isError`); results that answer no call of the preceding assistant
 * message are dropped, as are `tool` messages that follow no assistant tool calls. Pure; does not modify
 * its input.
 */
export function pairToolResults(messages: readonly Message[]): Message[] {
  const kept = messages.filter((m) => m.role !== 'system');
  const out: Message[] = [];
  for (let i = 0; i < kept.length; i++) {
    const message = kept[i]!;
    if (message.role === 'tool') continue; // a tool message not consumed below answers nothing
    out.push(message);
    const calls = message.role === 'assistant' ? toolCalls(message) : [];
    if (calls.length === 0) continue;

    // the usual case, one tool message answering every call once in call order: no lookup
    const next = kept[i + 1];
    const inOrder = next?.role === 'tool' && kept[i + 2]?.role !== 'tool' ? resultsInOrder(next, calls) : undefined;
    if (inOrder) {
      out.push(inOrder.length === next!.parts.length ? next! : { ...next!, parts: inOrder });
      i++;
      continue;
    }
    const found = new Map<string, ToolResultPart>();
    let holder: Message | undefined;
    while (kept[i + 1]?.role === 'tool') {
      i++;
      holder ??= kept[i]!;
      for (const result of toolResults(kept[i]!)) {
        if (!found.has(result.toolCallId)) found.set(result.toolCallId, result);
      }
    }
    const results: ToolResultPart[] = calls.map(
      (call) =>
        found.get(call.id) ?? {
          type: 'tool_result',
          toolCallId: call.id,
          name: call.name,
          content: MISSING_TOOL_RESULT,
          isError: true,
        },
    );
    const base = holder ?? { ...message, id: `${message.id}-results` };
    out.push({ ...base, role: 'tool', parts: results });
  }
  return out;
}

/**
 * `message`'s results when they are exactly one per call of `calls`, in call order, besides parts that
 * are not results (dropped); undefined otherwise (a missing, extra, repeated or reordered result, or
 * calls sharing an id), which the general pairing handles.
 */
function resultsInOrder(message: Message, calls: readonly ToolCallPart[]): ToolResultPart[] | undefined {
  const results = toolResults(message);
  if (results.length !== calls.length) return undefined;
  for (let i = 0; i < results.length; i++) {
    const id = calls[i]!.id;
    if (results[i]!.toolCallId !== id) return undefined;
    for (let j = 0; j < i; j++) if (calls[j]!.id === id) return undefined;
  }
  return results;
}

/**
 * A tool call's raw input as a JSON object, for APIs that need one (Anthropic `tool_use.input` must be an
 * object). Empty input → `{}`; valid JSON that is an object → that object; anything else (invalid or
 * truncated JSON, an array, a string) → `{ "_invalid_json": raw }`, so the call stays in the history
 * next to its result instead of being dropped (the original dropped it).
 */
export function toolInputObject(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  return parseObject(raw) ?? { _invalid_json: raw };
}

/**
 * A tool call's raw input as a JSON text encoding an object (OpenAI `function.arguments`). The raw text is
 * kept byte for byte when it already is a JSON object; otherwise it is {@link toolInputObject} serialised.
 * (OpenAI itself accepts any string here, but OpenAI-compatible servers such as Ollama parse it.)
 */
export function toolInputJson(raw: string): string {
  return parseObject(raw) ? raw : JSON.stringify(toolInputObject(raw));
}

function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/**
 * A tool's JSON Schema ready for an API: `type: "object"`, `properties` and `required` always present
 * (the original sent Anthropic tools without `required`), and the `$schema` keyword
 * dropped (zod's `toJSONSchema` adds it; APIs do not need it).
 */
export function toolParameters(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = inputSchema;
  return {
    ...rest,
    type: 'object',
    properties: (rest.properties as Record<string, unknown> | undefined) ?? {},
    required: (rest.required as string[] | undefined) ?? [],
  };
}
