/**
 * Terminal-column arithmetic for the render layer. Every line the render layer returns is at most
 * `width` columns as string-width counts them (CJK and emoji are 2 columns, ANSI escapes 0) and
 * never contains a newline. Wrapping follows wrap-ansi's hard wrap in linear time (wrap.ts), cutting is
 * slice-ansi; both keep ANSI colour codes balanced.
 */
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { clustersWidth, wrapLine } from './wrap.js';

/** ANSI colour/style (SGR) escapes, the only escapes the render layer produces. */
const SGR = /\u001b\[[0-9;]*m/g;

/** Columns a tab becomes. Terminals use tab stops of 8; code reads better at 4 and stays predictable. */
export const TAB_WIDTH = 4;

/** Columns `s` takes in a terminal (ANSI escapes count 0, CJK/emoji 2). */
export function displayWidth(s: string): number {
  // fast path: colour codes around printable ASCII (most lines) are as wide as they are long;
  // string-width segments graphemes and was the hottest function while an answer streamed
  const plain = s.includes('\u001b') ? s.replace(SGR, '') : s;
  if (NARROW_ONLY.test(plain)) return plain.length;
  // the same lines are measured frame after frame (a streaming message's finished part): remember them
  let width = widthCache.get(s);
  if (width === undefined) {
    // other escapes than colours are string-width's to strip; the render layer makes none (normalizeText)
    width = plain.includes('\u001b') ? stringWidth(s) : clustersWidth(plain);
    if (widthCache.size >= WIDTH_CACHE_SIZE) widthCache.clear();
    widthCache.set(s, width);
  }
  return width;
}

/**
 * Characters one column wide for string-width, each one UTF-16 unit: printable ASCII, Latin-1, the
 * dashes, quotes and bullets of General Punctuation, box drawing and the few symbols the render
 * layer draws (● ▸ ↑ ↓ …). A line of only these is as wide as it is long.
 */
const NARROW_ONLY =
  /^[\x20-\x7e\u00a0-\u00ff\u2010-\u2027\u2030-\u203b\u2039\u203a\u2190-\u2193\u2500-\u257f\u25cf\u25b8\u2713\u2714\u2716]*$/;
const WIDTH_CACHE_SIZE = 20_000;
const widthCache = new Map<string, number>();

/** Terminal control sequences other than colours: cursor moves, screen clears, titles, hyperlinks. */
const CONTROL_SEQUENCES = [
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\|$)/g, // OSC: window title, hyperlinks
  /\u001b\[[0-?]*[ -/]*[@-ln-~]/g, // CSI except SGR (`m`): cursor moves, erase line/screen
  /\u001b(?!\[[0-?]*[ -/]*m)/g, // any other escape, and a cut-off one at the end
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f]/g, // C0 controls but tab, newline and ESC (CR is gone already)
];

/**
 * Makes raw text (tool output, model text) safe to measure and print: `\r\n` becomes `\n`, other
 * carriage returns are dropped (a progress bar would otherwise overwrite the line), control sequences
 * other than colours are removed (`npm` output moves the cursor, `\u001b[2J` would clear the screen),
 * and tabs become {@link TAB_WIDTH} spaces. Colour codes are kept.
 */
export function normalizeText(text: string): string {
  let out = text.replace(/\r\n/g, '\n').replace(/\r/g, '');
  for (const pattern of CONTROL_SEQUENCES) out = out.replace(pattern, '');
  return out.replace(/\t/g, ' '.repeat(TAB_WIDTH));
}

/**
 * Cuts one line to at most `width` columns, keeping ANSI codes balanced. A wide character that would
 * straddle the edge is dropped (slice-ansi alone keeps it, giving `width + 1` columns).
 * `width < 1` gives `''`. The line must not contain `\n`.
 */
export function fitLine(line: string, width: number): string {
  if (width < 1) return '';
  if (displayWidth(line) <= width) return line;
  let end = width;
  let cut = sliceAnsi(line, 0, end);
  while (end > 0 && displayWidth(cut) > width) cut = sliceAnsi(line, 0, --end);
  return cut;
}

/**
 * Wraps text to lines of at most `width` columns (hard wrap: words longer than the width are broken).
 * Newlines in `text` start new lines; tabs are expanded first. A line's leading indentation is kept
 * and repeated on its continuation lines (a hanging indent), so wrapped code and nested text stay
 * aligned; when the indentation leaves no room it is wrapped as plain text. Empty text gives `['']`.
 * Linear in the text's length (wrap.ts): a 1 MB line is as cheap per character as a short one.
 */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const source of normalizeText(text).split('\n')) {
    // a short line that fits is the common case; a long one is measured by wrapping it
    if (source.length <= SHORT_LINE_CHARS && displayWidth(source) <= w) {
      out.push(source);
      continue;
    }
    // measured on the visible text: a highlighted code line may start with a colour code
    const indent = /^ */.exec(source.slice(0, 4 * w).replace(SGR, ''))![0];
    const room = w - indent.length;
    const rows =
      room >= Math.min(10, Math.ceil(w / 2))
        ? wrapLine(withoutLeadingSpaces(source, indent.length), room).map((row) => indent + row)
        : wrapLine(source, w, { trim: false });
    // rows are within the width, but for a wide character on rows of width 1: fitLine drops it
    for (const row of rows) out.push(w < 2 ? fitLine(row, w) : row);
  }
  return out;
}

/** Lines up to this many characters are measured whole before wrapping (cheap); longer ones are wrapped at once. */
const SHORT_LINE_CHARS = 1024;

/** `line` without its first `count` spaces, colour codes among them kept (slice-ansi's cut, in linear time). */
function withoutLeadingSpaces(line: string, count: number): string {
  let kept = '';
  let i = 0;
  let left = count;
  while (left > 0 && i < line.length) {
    if (line[i] === ' ') {
      left--;
      i++;
      continue;
    }
    const escape = /^\u001b\[[0-9;]*m/.exec(line.slice(i, i + 32));
    if (!escape) break;
    kept += escape[0];
    i += escape[0].length;
  }
  return kept + line.slice(i);
}

/** `line` followed by spaces up to `width` columns (unchanged when already that wide). */
export function padLine(line: string, width: number): string {
  const gap = width - displayWidth(line);
  return gap > 0 ? line + ' '.repeat(gap) : line;
}
