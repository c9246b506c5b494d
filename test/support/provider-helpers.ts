/**
 * Small builders for provider tests: messages, requests, settings pointed at a fake provider, and
 * collecting a stream's events.
 */
import type { Message, MessagePart, Role } from '../../src/message.js';
import type { ProviderSettings } from '../../src/provider/index.js';
import type { ProviderEvent, ProviderRequest, ToolSchema } from '../../src/provider/types.js';

let seq = 0;

/** A stored-looking message with the given parts. */
export function msg(role: Role, ...parts: MessagePart[]): Message {
  seq++;
  return { id: `m${seq}`, sessionId: 's1', role, parts, seq, createdAt: 0, updatedAt: 0 };
}

/** A user message with one text part. */
export const user = (text: string): Message => msg('user', { type: 'text', text });

/** The `bash` tool schema used across provider tests. */
export const BASH_TOOL: ToolSchema = {
  name: 'bash',
  description: 'Run a shell command',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { command: { type: 'string' }, timeout: { type: 'number' } },
    required: ['command'],
    additionalProperties: false,
  },
};

/** The `view` tool schema. */
export const VIEW_TOOL: ToolSchema = {
  name: 'view',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

/** A request with defaults: system prompt "You are a test.", no tools, 1000 max tokens. */
export function request(messages: Message[], extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { systemPrompt: 'You are a test.', messages, tools: [], maxTokens: 1000, ...extra };
}

/** Every event of a stream, in order. */
export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The last event, asserted to be `complete`, returning its response. */
export function completed(events: ProviderEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'complete') throw new Error(`expected complete, got ${JSON.stringify(last)}`);
  return last.response;
}

/** The last event, asserted to be `error`, returning the error. */
export function failed(events: ProviderEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected error, got ${JSON.stringify(last)}`);
  return last.error;
}

/** Settings whose only credentials are the given env vars (no config, no process.env). */
export function envSettings(
  env: Record<string, string>,
  providers: ProviderSettings['providers'] = {},
): ProviderSettings {
  return { providers, env };
}
