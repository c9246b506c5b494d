/**
 * The `/` list in the whole TUI says when more commands follow than it shows (10 rows): its last row
 * counts those below, and those above once the selection has moved down past the first rows.
 */
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();

/** The list's rows (inside its round border), as drawn. */
function listRows(frame: string): string[] {
  const lines = frame.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith('╭'));
  const end = lines.findIndex((l, i) => i > start && l.trimStart().startsWith('╰'));
  return lines.slice(start + 1, end).map((l) => l.replace(/^\s*│\s?/, '').replace(/\s*│\s*$/, ''));
}

describe('the / list when more commands match than fit', () => {
  it('ends with how many follow, and how many are above after moving down', async () => {
    await tui.start([]);
    const { type, waitFor } = tui.render();
    await type('/');
    const frame = await waitFor((f) => f.includes('/sessions') && /↓ \d+ more/.test(f));
    const rows = listRows(frame);
    expect(rows).toHaveLength(10);
    const total = Number(/↓ (\d+) more/.exec(rows[9]!)![1]) + 9;
    expect(rows[9]!.trim()).toBe(`↓ ${total - 9} more`);
    // to the last command: the rows above it are counted instead
    for (let i = 1; i < total; i++) await type('\u001b[B');
    const last = await waitFor((f) => /↑ \d+ more/.test(f));
    expect(listRows(last)[9]!.trim()).toBe(`↑ ${total - 9} more`);
  });
});
