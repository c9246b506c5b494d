/**
 * Rows of the message list that need not exist as strings until they are shown (laying
 * out a 1 MiB line whole on opening a session cost 170–270 ms). A {@link Rows} is what the viewport
 * reads: a length and the rows it asks for. A plain `string[]` is one; {@link RowSeq} joins several,
 * {@link mapRows} styles each row when it is read, and lazy-rows.ts cuts rows from a huge text.
 */

/**
 * A read-only list of terminal rows (each at most the width, no `\n`). `string[]` satisfies it.
 * `at(i)` for `0 ≤ i < length` is the row; outside it, `undefined`. `slice` is Array's (a new array).
 */
export interface Rows {
  readonly length: number;
  at(index: number): string | undefined;
  slice(start?: number, end?: number): string[];
}

/** Rows of several {@link Rows} one after another. Lengths are read on first use and kept. */
export class RowSeq implements Rows {
  private starts: number[] | undefined;
  private total = 0;

  constructor(private readonly parts: readonly Rows[]) {}

  get length(): number {
    this.index();
    return this.total;
  }

  at(index: number): string | undefined {
    const starts = this.index();
    if (!Number.isInteger(index) || index < 0 || index >= this.total) return undefined;
    // few parts (an item's sections): a linear search is as fast as a binary one
    let part = starts.length - 1;
    while (starts[part]! > index) part--;
    return this.parts[part]!.at(index - starts[part]!);
  }

  slice(start = 0, end = this.length): string[] {
    const starts = this.index();
    const from = clampIndex(start, this.total);
    const to = clampIndex(end, this.total);
    const out: string[] = [];
    for (let part = 0; part < this.parts.length && from + out.length < to; part++) {
      const partStart = starts[part]!;
      const partEnd = partStart + this.parts[part]!.length;
      const a = Math.max(from, partStart);
      const b = Math.min(to, partEnd);
      if (a < b) out.push(...this.parts[part]!.slice(a - partStart, b - partStart));
    }
    return out;
  }

  private index(): number[] {
    if (!this.starts) {
      this.starts = [];
      let at = 0;
      for (const part of this.parts) {
        this.starts.push(at);
        at += part.length;
      }
      this.total = at;
    }
    return this.starts;
  }
}

/** `rows` with `style` applied to each row when it is read (not stored: a frame reads ~40 rows). */
export function mapRows(rows: Rows, style: (row: string) => string): Rows {
  return {
    get length() {
      return rows.length;
    },
    at: (index) => {
      const row = rows.at(index);
      return row === undefined || index < 0 ? undefined : style(row);
    },
    slice: (start, end) => rows.slice(start, end).map(style),
  };
}

/** `rows` then `more`: an array stays an array (the cached rows of normal items), else a {@link RowSeq}. */
export function concatRows(rows: Rows, more: readonly string[]): Rows {
  return Array.isArray(rows) ? [...(rows as string[]), ...more] : new RowSeq([rows, more]);
}

/** Array.slice's reading of a start or end: negative counts from the end, then clamped to [0, length]. */
function clampIndex(index: number, length: number): number {
  const i = Math.trunc(index) || 0;
  return i < 0 ? Math.max(0, length + i) : Math.min(i, length);
}
