/** Plain-text tables for the sub-commands' output (`sessions list`, `stats`, `tools`, `themes`, `keybindings`). */

/**
 * Lays out `rows` as columns two spaces apart, each as wide as its widest cell. Columns in
 * `leftAligned` are padded on the right, the others on the left (figures); every column is left-aligned
 * when it is omitted. Trailing spaces are cut, so a left-aligned last column is left unpadded.
 * @returns one line a row, without newlines
 */
export function alignColumns(rows: readonly (readonly string[])[], leftAligned?: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) =>
    r
      .map((cell, col) =>
        !leftAligned || leftAligned.has(col) ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!),
      )
      .join('  ')
      .trimEnd(),
  );
}
