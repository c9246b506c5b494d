import { describe, expect, it } from 'vitest';
import { OutputCapture } from '../../src/tools/shell.js';
import { truncateOutput } from '../../src/tools/truncate.js';

/** The built-in tools' cut: the `marker` style. */
const cutMarker = (text: string, maxOutputChars: number) => truncateOutput(text, 'marker', { maxOutputChars }).text;

function capture(chunks: string[], maxChars: number): string {
  const c = new OutputCapture(maxChars);
  for (const chunk of chunks) c.append(chunk);
  return c.text();
}

/** deterministic chunking of `text` into pieces of 1..97 characters */
function chunked(text: string): string[] {
  const out: string[] = [];
  for (let i = 0, n = 1; i < text.length; n = (n * 31 + 7) % 97 || 1) {
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe('OutputCapture keeps the head and tail with bounded memory', () => {
  const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}${i % 7 === 0 ? ' with more text' : ''}`).join('\n');

  it.each([10, 11, 1_000, 30_000])(
    "equals the kernel's cut of the whole text at %i characters whatever the chunking",
    (max) => {
      expect(capture(chunked(lines), max)).toBe(cutMarker(lines, max));
      expect(capture([lines], max)).toBe(cutMarker(lines, max));
    },
  );

  it('returns short output untouched', () => {
    expect(capture(['ab', 'c\n'], 10)).toBe('abc\n');
    expect(capture(['0123456789'], 10)).toBe('0123456789');
  });

  it('cuts output one character over the limit', () => {
    expect(capture(['0123456789X'], 10)).toBe(cutMarker('0123456789X', 10));
  });
});
