/**
 * An MCP call result keeps every content item in order, honours isError, passes valid images on as
 * images and never lets a bad one through, and is capped like a built-in tool's output.
 */
import { describe, expect, it } from 'vitest';
import { checkImage, toToolResult } from '../../src/mcp/result.js';
import { MAX_OUTPUT_CHARS } from '../../src/tools/tool.js';

const source = { server: 'srv', tool: 'thing' };
// a valid 1×1 PNG (the test server's)
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]).toString('base64');

describe('MCP results', () => {
  it('joins every text and resource item in order (the original kept only the last)', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'first' },
          { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'resource text' } },
          {
            type: 'resource',
            resource: { uri: 'file:///blob.bin', mimeType: 'application/octet-stream', blob: 'AAEC' },
          },
          { type: 'resource_link', uri: 'file:///linked.md', name: 'linked.md' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'text', text: 'last' },
        ],
      },
      source,
    );
    expect(result).toEqual({
      output: [
        'first',
        'resource text',
        '[resource: file:///blob.bin, application/octet-stream]',
        '[resource link: linked.md file:///linked.md]',
        '[audio: audio/wav, not shown]',
        'last',
      ].join('\n'),
      isError: false,
      metadata: { mcpServer: 'srv', mcpTool: 'thing' },
    });
  });

  it('honours isError', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'no such repo' }], isError: true }, source)).toMatchObject({
      output: 'no such repo',
      isError: true,
    });
    expect(toToolResult({ content: [], isError: true }, source).output).toBe(
      'MCP tool thing of server srv reported an error without a message',
    );
  });

  it('passes a valid image on as an image, with its type taken from its bytes', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: JPEG, mimeType: 'image/png' },
        ],
      },
      source,
    );
    expect(result.output).toBe('look\n[image: image/jpeg, 8 bytes]');
    expect(result.images).toEqual([{ mimeType: 'image/jpeg', data: JPEG }]);
  });

  it('turns an image that is not base64, or not an image, into error text and no image', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'image', data: 'this is not base64!', mimeType: 'image/png' },
          { type: 'image', data: Buffer.from('<svg/>').toString('base64'), mimeType: 'image/svg+xml' },
        ],
      },
      source,
    );
    expect(result.images).toBeUndefined();
    expect(result.output).toBe(
      [
        'Error: the tool returned an image that cannot be shown: the image data is not valid base64',
        'Error: the tool returned an image that cannot be shown: the data is not a PNG, JPEG, GIF or WebP image (declared image/svg+xml)',
      ].join('\n'),
    );
  });

  it('accepts base64 with line breaks and refuses an oversized image', () => {
    const wrapped = PNG_1PX.replace(/(.{20})/g, '$1\n');
    expect(checkImage(wrapped, 'image/png')).toMatchObject({ ok: true, mimeType: 'image/png', data: PNG_1PX });
    const huge = 'A'.repeat(5 * 1024 * 1024 + 4);
    expect(checkImage(huge, 'image/png')).toMatchObject({ ok: false });
  });

  it('uses structuredContent when there is no content', () => {
    expect(toToolResult({ content: [], structuredContent: { temperature: 21 } }, source).output).toBe(
      '{\n  "temperature": 21\n}',
    );
  });

  it('caps the output like a built-in tool, keeping head and tail', () => {
    const text = `HEAD${'x\n'.repeat(40_000)}TAIL`;
    const { output } = toToolResult({ content: [{ type: 'text', text }] }, source);
    expect(output.length).toBeLessThan(MAX_OUTPUT_CHARS + 100);
    expect(output.startsWith('HEAD')).toBe(true);
    expect(output.endsWith('TAIL')).toBe(true);
    expect(output).toContain('lines truncated');
  });
});
