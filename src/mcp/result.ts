/**
 * Turns an MCP `tools/call` result into our {@link ToolResult}. Pure functions.
 *
 * Fixes over the original, which kept only the last content item and ignored `isError`:
 * every item is kept in order (text as is, images passed on as images with a placeholder line, embedded
 * resources as their text or URI), `isError` is honoured, and the output is capped like a built-in tool's.
 * Image data is checked before it can reach the history: a provider refuses a whole request with an image
 * that is not valid base64 or whose bytes are not the format it claims, which would break every later
 * turn of the session.
 */
import type { ToolResult } from '../tools/tool.js';
import { MAX_OUTPUT_CHARS, truncateOutput } from '../tools/truncate.js';

/** The parts of an MCP `CallToolResult` we read (protocol 2025-11-25, plus the 2024-10-07 `toolResult`). */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
  /** protocol 2024-10-07 */
  toolResult?: unknown;
}

/** One content item of a tool result. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

/** Largest image passed to the model, in base64 characters (Anthropic refuses images over 5 MB). */
export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

/** Image formats every image-capable provider takes, with their leading bytes. */
const IMAGE_SIGNATURES: { mimeType: string; matches: (b: Buffer) => boolean }[] = [
  {
    mimeType: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mimeType: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: 'image/gif', matches: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  {
    mimeType: 'image/webp',
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

// with the length a multiple of 4 (checked apart: a grouped pattern overflows the stack on megabytes)
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A checked image, or why it cannot be sent. */
export type ImageCheck = { ok: true; mimeType: string; data: string; bytes: number } | { ok: false; reason: string };

/**
 * Checks an image for the model: valid base64 (whitespace removed), at most {@link MAX_IMAGE_BASE64_CHARS},
 * and bytes that are PNG, JPEG, GIF or WebP. The MIME type returned is the one the bytes show.
 */
export function checkImage(data: string, declaredMimeType: string): ImageCheck {
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0) return { ok: false, reason: 'the image data is empty' };
  if (compact.length > MAX_IMAGE_BASE64_CHARS) {
    return {
      ok: false,
      reason: `the image is too large (${compact.length} base64 characters; at most ${MAX_IMAGE_BASE64_CHARS})`,
    };
  }
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    return { ok: false, reason: 'the image data is not valid base64' };
  const bytes = Buffer.from(compact, 'base64');
  const format = IMAGE_SIGNATURES.find((s) => s.matches(bytes));
  if (!format)
    return {
      ok: false,
      reason: `the data is not a PNG, JPEG, GIF or WebP image (declared ${declaredMimeType || 'no type'})`,
    };
  return { ok: true, mimeType: format.mimeType, data: compact, bytes: bytes.length };
}

/** Where a result came from, for the text of notes and the UI's metadata. */
export interface McpResultSource {
  server: string;
  tool: string;
}

/** Converts a call result. `maxOutputChars` defaults to the built-in tools' {@link MAX_OUTPUT_CHARS}. */
export function toToolResult(
  result: McpCallResult,
  source: McpResultSource,
  maxOutputChars = MAX_OUTPUT_CHARS,
): ToolResult {
  const lines: string[] = [];
  const images: { mimeType: string; data: string }[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (const item of content) {
    const line = describeItem(item, images);
    if (line !== undefined) lines.push(line);
  }
  if (content.length === 0 && result.structuredContent !== undefined) {
    lines.push(JSON.stringify(result.structuredContent, null, 2));
  } else if (content.length === 0 && result.toolResult !== undefined) {
    lines.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult, null, 2));
  }
  const isError = result.isError === true;
  let output = lines.join('\n');
  if (isError && output.trim() === '')
    output = `MCP tool ${source.tool} of server ${source.server} reported an error without a message`;
  const toolResult: ToolResult = {
    output: truncateOutput(output, 'marker', { maxOutputChars }).text,
    isError,
    metadata: { mcpServer: source.server, mcpTool: source.tool },
  };
  if (images.length > 0) toolResult.images = images;
  return toolResult;
}

/** The text line of one content item; a valid image is also pushed to `images`. */
function describeItem(item: McpContent, images: { mimeType: string; data: string }[]): string | undefined {
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : undefined;
    case 'image': {
      const { data, mimeType } = item as { data: unknown; mimeType: unknown };
      const check = checkImage(typeof data === 'string' ? data : '', typeof mimeType === 'string' ? mimeType : '');
      if (!check.ok) return `Error: the tool returned an image that cannot be shown: ${check.reason}`;
      images.push({ mimeType: check.mimeType, data: check.data });
      return `[image: ${check.mimeType}, ${check.bytes} bytes]`;
    }
    case 'audio':
      return `[audio: ${String(item.mimeType ?? 'unknown type')}, not shown]`;
    case 'resource': {
      const resource = (item as { resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown } })
        .resource;
      if (!resource) return undefined;
      if (typeof resource.text === 'string') return resource.text;
      const type = typeof resource.mimeType === 'string' ? `, ${resource.mimeType}` : '';
      return `[resource: ${String(resource.uri)}${type}]`;
    }
    case 'resource_link': {
      const link = item as { uri?: unknown; name?: unknown };
      const name = typeof link.name === 'string' && link.name !== link.uri ? `${link.name} ` : '';
      return `[resource link: ${name}${String(link.uri)}]`;
    }
    default:
      return `[${String(item.type)} content, not shown]`;
  }
}
