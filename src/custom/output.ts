/**
 * What a custom tool's output becomes before the model sees it: control characters
 * other than tab and newline removed, and the text cut to the tool's limits keeping head and tail,
 * with a note that says what was cut and what to do about it. (Decoding a process's bytes is in
 * `decode-output.ts`, apart: the encoding detection it loads is needed only when a tool runs.)
 */
import { MAX_OUTPUT_CHARS } from '../tools/tool.js';

/** Default limit of a custom tool's output, in characters: the bash tool's, as in the original. */
export const DEFAULT_MAX_OUTPUT_CHARS = MAX_OUTPUT_CHARS;

/** Removes C0/C1 control characters and ANSI escape sequences, keeping tab and newline. */
export function removeControlCharacters(text: string): string {
  return text
    // colour and cursor sequences first, so their parameters don't remain as text
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Limits of one tool's output. */
export interface OutputLimits {
  /** default {@link DEFAULT_MAX_OUTPUT_CHARS} */
  maxOutputChars?: number;
  /** no line limit when absent */
  maxOutputLines?: number;
}

/** The output after {@link truncateOutput}: the text and whether anything was cut. */
export interface TruncatedOutput {
  text: string;
  truncated: boolean;
}

/**
 * Cuts `text` to the limits keeping the first and last halves, with one note line where the cut is,
 * e.g. `… 480 of 500 lines cut; ask for a narrower query` (or `… 12000 of 50000 characters cut; …`
 * when a few long lines are what overflows).
 */
export function truncateOutput(text: string, limits: OutputLimits = {}): TruncatedOutput {
  const maxChars = limits.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const lines = text.split('\n');
  const maxLines = limits.maxOutputLines;
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
