/**
 * Applies LSP `TextEdit`s to a text (`workspace/applyEdit`). Positions are 0-based lines and UTF-16
 * characters of the text the server was sent (line breaks `\n`). Pure.
 */
import type { TextEdit } from './client.js';

/**
 * The text with every edit applied. Edits must not overlap (LSP); they are applied from the last to
 * the first so earlier offsets stay valid. A position past a line's end is clamped to it.
 * @throws Error when a position is past the last line
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }): number => {
    if (p.line >= lineStarts.length) {
      if (p.line === lineStarts.length && p.character === 0) return text.length;
      throw new Error(`edit position line ${p.line + 1} is past the end of the file (${lineStarts.length} lines)`);
    }
    const start = lineStarts[p.line]!;
    const end = p.line + 1 < lineStarts.length ? lineStarts[p.line + 1]! - 1 : text.length;
    return Math.min(start + p.character, end);
  };
  const resolved = edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), text: e.newText }));
  resolved.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of resolved) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
