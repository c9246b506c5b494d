/** A session/prompt's content blocks as the person's message. */
import { describe, expect, it } from 'vitest';
import { promptMessage } from '../../src/acp/prompt-content.js';

const cwd = '/work/project';

describe('promptMessage', () => {
  it('keeps text as written and puts a resource link in place as an @ mention', () => {
    expect(
      promptMessage(
        [
          { type: 'text', text: 'Look at ' },
          { type: 'resource_link', name: 'a.ts', uri: 'file:///work/project/src/a.ts' },
          { type: 'text', text: ' and ' },
          { type: 'resource_link', name: 'hosts', uri: 'file:///etc/hosts' },
          { type: 'text', text: ' and ' },
          { type: 'resource_link', name: 'docs', uri: 'https://example.com/docs' },
        ],
        cwd,
      ),
    ).toEqual({ text: 'Look at @src/a.ts and @/etc/hosts and @https://example.com/docs', attachments: [] });
  });

  it('puts an embedded text resource after the message as context', () => {
    expect(
      promptMessage(
        [
          { type: 'text', text: 'Fix ' },
          { type: 'resource', resource: { uri: 'file:///work/project/a.ts', text: 'const x = 1;' } },
        ],
        cwd,
      ).text,
    ).toBe('Fix @a.ts\n\n<context ref="file:///work/project/a.ts">\nconst x = 1;\n</context>');
  });

  it('attaches images, inline or embedded', () => {
    expect(
      promptMessage(
        [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          {
            type: 'resource',
            resource: { uri: 'file:///work/project/shot.jpg', blob: '/9j/4AAQ', mimeType: 'image/jpeg' },
          },
        ],
        cwd,
      ),
    ).toEqual({
      text: 'What is this?@shot.jpg',
      attachments: [
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'image', mimeType: 'image/jpeg', data: '/9j/4AAQ', name: 'shot.jpg' },
      ],
    });
  });

  it('refuses audio, a binary that is no image, and an empty prompt, saying what to send', () => {
    expect(() => promptMessage([{ type: 'audio', mimeType: 'audio/wav', data: 'AA' }], cwd)).toThrow(
      'audio is not supported (promptCapabilities.audio is false): send text, images or resources',
    );
    expect(() =>
      promptMessage(
        [{ type: 'resource', resource: { uri: 'file:///x.zip', blob: 'AA', mimeType: 'application/zip' } }],
        cwd,
      ),
    ).toThrow(
      'the embedded resource file:///x.zip is binary (application/zip); only text and images can be sent: attach it as a resource link instead',
    );
    expect(() => promptMessage([{ type: 'text', text: '  ' }], cwd)).toThrow(
      'the prompt is empty: send at least one text, resource or image block',
    );
  });
});
