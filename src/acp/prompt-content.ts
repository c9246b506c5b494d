/**
 * A `session/prompt`'s content blocks as the person's message: text as written, a resource link as an
 * `@path` mention in place (the model reads it with view), an embedded resource (the editor's
 * selection or file) as the mention plus its text in a `<context>` block after the message, and
 * images as attachments. Audio is refused: we do not advertise it (`promptCapabilities.audio`).
 *
 * Source: ACP v1 "Content" and "Prompt Capabilities" (`ContentBlock` in `@agentclientprotocol/sdk`);
 * baseline agents must accept `text` and `resource_link`.
 */
import { fileURLToPath } from 'node:url';
import { isAbsolute, relative } from 'node:path';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { ImagePart } from '../message.js';

/** What the agent runs with. */
export interface PromptMessage {
  text: string;
  attachments: ImagePart[];
}

/** A block we cannot take; the message says which and what to do. */
export class PromptContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptContentError';
  }
}

/**
 * Builds the message. `cwd` makes file mentions relative to the project when inside it.
 * @throws {PromptContentError} for audio, an embedded binary that is not an image, or a prompt with no content
 */
export function promptMessage(blocks: readonly ContentBlock[], cwd: string): PromptMessage {
  let text = '';
  const contexts: string[] = [];
  const attachments: ImagePart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        text += block.text;
        break;
      case 'resource_link':
        text += mention(block.uri, cwd);
        break;
      case 'resource': {
        const resource = block.resource;
        text += mention(resource.uri, cwd);
        if ('text' in resource) {
          contexts.push(`<context ref="${resource.uri}">\n${resource.text}\n</context>`);
        } else if (resource.mimeType?.startsWith('image/')) {
          attachments.push({
            type: 'image',
            mimeType: resource.mimeType,
            data: resource.blob,
            name: nameOf(resource.uri),
          });
        } else {
          throw new PromptContentError(
            `the embedded resource ${resource.uri} is binary (${resource.mimeType ?? 'no MIME type'}); only text and images can be sent: attach it as a resource link instead`,
          );
        }
        break;
      }
      case 'image':
        attachments.push({
          type: 'image',
          mimeType: block.mimeType,
          data: block.data,
          ...(block.uri ? { name: nameOf(block.uri) } : {}),
        });
        break;
      case 'audio':
        throw new PromptContentError(
          'audio is not supported (promptCapabilities.audio is false): send text, images or resources',
        );
    }
  }
  const message = contexts.length > 0 ? `${text}\n\n${contexts.join('\n\n')}` : text;
  if (message.trim() === '' && attachments.length === 0)
    throw new PromptContentError('the prompt is empty: send at least one text, resource or image block');
  return { text: message, attachments };
}

/** `@src/a.ts` for a file in the project, `@/abs/path` outside it, the URI itself for anything not a file. */
function mention(uri: string, cwd: string): string {
  if (!uri.startsWith('file://')) return `@${uri}`;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return `@${uri}`;
  }
  const rel = relative(cwd, path);
  return `@${rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel}`;
}

function nameOf(uri: string): string {
  return uri.split('/').pop() || uri;
}
