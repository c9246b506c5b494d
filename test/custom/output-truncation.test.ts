/**
 * Cutting a custom tool's output: head and tail kept around one note line.
 */
import { describe, expect, it } from 'vitest';
import { truncateOutput } from '../../src/tools/truncate.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => `row ${i + 1}`).join('\n');

describe("truncateOutput's note style", () => {
  it('leaves output within the limits alone', () => {
    expect(truncateOutput(rows(5), 'note', { maxOutputLines: 5 })).toEqual({ text: rows(5), truncated: false });
  });

  it('keeps the first and last lines of a line limit, odd limits favouring the head', () => {
    expect(truncateOutput(rows(10), 'note', { maxOutputLines: 3 })).toEqual({
      text: 'row 1\nrow 2\n… 7 of 10 lines cut; ask for a narrower query\nrow 10',
      truncated: true,
    });
  });

  it('cuts at line boundaries for the character limit', () => {
    const text = rows(100); // "row 1" … "row 100", 791 characters
    const cut = truncateOutput(text, 'note', { maxOutputChars: 100 });
    expect(cut.text).toBe(
      'row 1\nrow 2\nrow 3\nrow 4\nrow 5\nrow 6\nrow 7\nrow 8\n… 85 of 100 lines cut; ask for a narrower query\nrow 94\nrow 95\nrow 96\nrow 97\nrow 98\nrow 99\nrow 100',
    );
  });

  it('counts characters when one long line is what overflows', () => {
    const cut = truncateOutput('x'.repeat(1000), 'note', { maxOutputChars: 100 });
    expect(cut.text).toBe(
      `${'x'.repeat(50)}\n… 900 of 1000 characters cut; ask for a narrower query\n${'x'.repeat(50)}`,
    );
  });
});
