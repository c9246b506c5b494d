/**
 * The first frame, drawn with plain escape sequences before Ink and the app's services load
 * ("draw first, load after": Ink's modules take ~0.4 s to evaluate on this machine). It has the
 * chat page's shape — an empty message area, the editor's top border and prompt, the status bar
 * — so Ink's first frame replaces it without a visible jump.
 */

/** Writes the frame to `out` (already in the alternate screen). `rows`/`columns`: the terminal's size. */
export function drawFirstFrame(
  out: { write(s: string): unknown },
  size: { rows: number; columns: number },
  text: { version: string; cwd: string },
): void {
  const { rows, columns } = size;
  if (!rows || !columns) return;
  const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;
  const lines: string[] = [];
  // the app draws rows-1 lines (a full-height frame would make Ink repaint the whole screen each time)
  const height = rows - 1;
  const editorTop = height - 3;
  for (let row = 0; row < height; row++) {
    if (row === 1) lines.push(`  OpenCode v${text.version}`.slice(0, columns));
    else if (row === 2) lines.push(dim(`  ${text.cwd}`.slice(0, columns)));
    else if (row === editorTop) lines.push(dim('─'.repeat(columns)));
    else if (row === editorTop + 1) lines.push('> ');
    else if (row === height - 1) lines.push(dim(' ctrl+/ help  loading…'.slice(0, columns)));
    else lines.push('');
  }
  out.write(`\u001b[H${lines.map((l) => `${l}\u001b[K`).join('\r\n')}`);
}
