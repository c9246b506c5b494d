/**
 * The stdout wrapper Ink writes to: the size follows the real terminal after a resize (a copy taken
 * at start would make every later frame the old size), and resizes are debounced into one redraw.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createTuiOutput, RESIZE_DEBOUNCE_MS } from '../../src/tui/output.js';

function fakeTerminal(columns: number, rows: number) {
  const written: string[] = [];
  const real = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns,
    rows,
    write: (s: string) => written.push(s) > 0,
    hasColors: () => true,
    getColorDepth: () => 24,
  });
  return { real, written };
}

describe('createTuiOutput', () => {
  it('drops writes once the terminal is restored: a frame drawn while exiting never reaches the normal screen', () => {
    const { real, written } = fakeTerminal(80, 24);
    let active = true;
    const output = createTuiOutput(real as unknown as NodeJS.WriteStream, RESIZE_DEBOUNCE_MS, () => active);
    output.stream.write('frame 1');
    active = false;
    let called = false;
    expect(output.stream.write('frame 2', () => (called = true))).toBe(true);
    expect(written).toEqual(['frame 1']);
    expect(called).toBe(true);
    expect(output.bytesWritten()).toBe(7);
  });

  it('reports the current size and debounces a storm of resizes into one', () => {
    vi.useFakeTimers();
    try {
      const { real, written } = fakeTerminal(120, 40);
      const output = createTuiOutput(real as unknown as NodeJS.WriteStream);
      const redraws: string[] = [];
      output.onResize(() => redraws.push('clear'));
      output.stream.on('resize', () => redraws.push(`${output.stream.columns}x${output.stream.rows}`));
      for (const [c, r] of [
        [100, 30],
        [90, 25],
        [80, 20],
      ] as const) {
        real.columns = c;
        real.rows = r;
        real.emit('resize');
        vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS - 1);
      }
      expect(redraws).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(redraws).toEqual(['clear', '80x20']);
      output.stream.write('frame');
      expect(written).toEqual(['frame']);
      expect(output.bytesWritten()).toBe(5);
      output.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
