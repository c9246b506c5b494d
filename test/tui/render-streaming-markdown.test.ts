/**
 * Streaming markdown is rendered incrementally: the finished blocks keep their lines, only the
 * block being written is rendered again, and the result matches a full render.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeStreamingPrefix } from '../../src/tui/render/markdown.js';
import { lastBlockBoundary, renderStreamingMarkdown } from '../../src/tui/render/streaming-markdown.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

describe('renderStreamingMarkdown', () => {
  it('finds the last blank line outside a code fence', () => {
    expect(lastBlockBoundary('a\n\nb')).toBe(1);
    expect(lastBlockBoundary('a\n\n```\nx\n\ny\n')).toBe(1);
    expect(lastBlockBoundary('one line')).toBe(-1);
  });

  it('gives the same lines as a full render at every step of a stream', () => {
    const full =
      '# Plan\n\nFirst **read** the file.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- one\n- two\n\nThen run `npm test` and check the output carefully.';
    for (let end = 1; end <= full.length; end += 7) {
      const text = full.slice(0, end);
      expect(renderStreamingMarkdown('m1', text, 50, theme)).toEqual(
        renderMarkdown(safeStreamingPrefix(text), 50, theme),
      );
    }
  });

  it("keeps the finished blocks' lines while the last block grows", () => {
    const head = 'Para one.\n\nPara two.\n\n';
    const first = renderStreamingMarkdown('m2', `${head}Third is being wri`, 40, theme);
    const second = renderStreamingMarkdown('m2', `${head}Third is being written now`, 40, theme);
    expect(first.slice(0, 3)).toEqual(['Para one.', '', 'Para two.']);
    expect(second.slice(0, 3)).toEqual(first.slice(0, 3));
    expect(second.at(-1)).toBe('Third is being written now');
  });
});
