/**
 * Cutting a tool's output to its limits, for every tool source: the head and the tail are kept and a
 * note where the cut is says what was left out, so the model knows the output is partial.
 *
 * Two styles, by source, because each matches what its readers expect:
 *
 * | style | used by | the cut |
 * |---|---|---|
 * | `marker` | built-in tools, MCP tools, a plugin's rewritten output | exactly half the limit each side; `\n\n... [N lines truncated] ...\n\n` between (the original's bash truncation, which models of the original were prompted with) |
 * | `note` | custom tools (declarative and plugin) | whole lines each side, an optional line limit; `… N of M lines cut; ask for a narrower query` on its own line (their authors set line limits; the advice is for the model) |
 */

/** Default cap on a tool's output, in characters (the original's bash limit). */
export const MAX_OUTPUT_CHARS = 30_000;

/** Which way the output is cut: see the table at the top of this file. */
export type TruncationStyle = 'marker' | 'note';

/** Limits of one tool's output. */
export interface OutputLimits {
  /** default {@link MAX_OUTPUT_CHARS} */
  maxOutputChars?: number;
  /** no line limit when absent; only the `note` style has one */
  maxOutputLines?: number;
}

/** The output after {@link truncateOutput}: the text and whether anything was cut. */
export interface TruncatedOutput {
  text: string;
  truncated: boolean;
}

/**
 * Cuts `text` to `limits` in `style`, keeping the head and the tail. Output within the limits comes
 * back unchanged with `truncated` false.
 *
 * - `marker`: at most about `maxOutputChars` characters; e.g. `head\n\n... [120 lines truncated] ...\n\ntail`.
 * - `note`: e.g. `… 480 of 500 lines cut; ask for a narrower query` (or `… 12000 of 50000 characters
 *   cut; …` when a few long lines are what overflows).
 */
export function truncateOutput(text: string, style: TruncationStyle, limits: OutputLimits = {}): TruncatedOutput {
  const maxChars = limits.maxOutputChars ?? MAX_OUTPUT_CHARS;
  return style === 'marker' ? cutAtHalves(text, maxChars) : cutAtLines(text, maxChars, limits.maxOutputLines);
}

function cutAtHalves(text: string, maxChars: number): TruncatedOutput {
  if (text.length <= maxChars) return { text, truncated: false };
  const half = Math.floor(maxChars / 2);
  const head = text.slice(0, half);
  const tail = text.slice(text.length - half);
  const omitted = text.slice(half, text.length - half);
  const omittedLines = omitted.split('\n').length;
  return { text: `${head}\n\n... [${omittedLines} lines truncated] ...\n\n${tail}`, truncated: true };
}

function cutAtLines(text: string, maxChars: number, maxLines: number | undefined): TruncatedOutput {
  const lines = text.split('\n');
  if (maxLines !== undefined && lines.length > maxLines) {
    const headCount = Math.ceil(maxLines / 2);
    const tailCount = maxLines - headCount;
    const kept = [...lines.slice(0, headCount), ...lines.slice(lines.length - tailCount)];
    const cut = lines.length - kept.length;
    const note = `… ${cut} of ${lines.length} lines cut; ask for a narrower query`;
    const joined = [...lines.slice(0, headCount), note, ...lines.slice(lines.length - tailCount)].join('\n');
    // the kept lines may still be too long for the character limit
    if (joined.length <= maxChars + note.length) return { text: joined, truncated: true };
  }
  if (text.length <= maxChars) return { text, truncated: false };
  const half = Math.floor(maxChars / 2);
  // cut at line boundaries when the halves hold any: whole lines are easier to read than halves
  let headEnd = text.lastIndexOf('\n', half);
  if (headEnd <= 0) headEnd = half;
  let tailStart = text.indexOf('\n', text.length - half);
  if (tailStart === -1 || tailStart <= headEnd) tailStart = text.length - half;
  else tailStart += 1;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const keptLines = head.split('\n').length + tail.split('\n').length;
  const note =
    lines.length > keptLines
      ? `… ${lines.length - keptLines} of ${lines.length} lines cut; ask for a narrower query`
      : `… ${text.length - head.length - tail.length} of ${text.length} characters cut; ask for a narrower query`;
  return { text: `${head}\n${note}\n${tail}`, truncated: true };
}
