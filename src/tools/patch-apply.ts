/**
 * Matching a parsed Update's hunks against a file's text and computing the new text (as the
 * original's `findContext`/`getUpdatedFile`). Pure: text in, text out.
 *
 * Each hunk's context and removed lines are searched from where the previous hunk ended: exactly
 * (fuzz 0), else with trailing whitespace ignored (fuzz 1), else with all surrounding whitespace
 * ignored (fuzz 100). An `@@` anchor found only with whitespace ignored adds 1; a hunk marked
 * `*** End of File` found away from the end adds 10,000. The caller refuses a patch whose total fuzz
 * is above {@link MAX_PATCH_FUZZ}. The first match is taken, as in the original.
 *
 * Differences from the original, each a silent wrong result there: the file is split without the
 * empty "line" after its final newline, so an end-of-file hunk matches a file that ends with a newline
 * and lines added at the end go before that newline; an `@@` anchor that is not in the file is an
 * error (the original ignored it and matched the context anywhere, as codex's apply_patch refuses);
 * a hunk of added lines only, with no `@@` line to place it, goes at the end of the file (the
 * original put it at the top; codex's `compute_replacements` appends it, and so do we). With an `@@`
 * line it goes right after that line (codex appends it at the end even then, away from the place the
 * model named).
 */
import type { PatchHunk } from './patch-parse.js';
import { toAsciiLookalikes } from './fuzzy-match.js';

/** The original's limit: a patch whose fuzz adds up to more than this is refused. */
export const MAX_PATCH_FUZZ = 3;

/** Fuzz added per kind of loose match (the original's values). */
export const FUZZ = {
  trailingWhitespace: 1,
  surroundingWhitespace: 100,
  looseAnchor: 1,
  lookalikes: 1,
  endOfFileAway: 10_000,
} as const;

/** A file's text as lines, without the empty element a final newline would give. */
export interface TextLines {
  lines: string[];
  /** the text ends with `\n` (an empty text counts as ending with one: lines added to it get one) */
  finalNewline: boolean;
}

export function toLines(text: string): TextLines {
  if (text === '') return { lines: [], finalNewline: true };
  const lines = text.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

export function fromLines({ lines, finalNewline }: TextLines): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (finalNewline ? '\n' : '');
}

/** Where a hunk's lines were found: 0-based line index and the fuzz of the comparison used. */
export interface ContextMatch {
  index: number;
  fuzz: number;
  /** how the lines matched when not exactly, e.g. `with trailing whitespace ignored` */
  loosely?: string;
}

type LineEquals = (fileLine: string, patchLine: string) => boolean;

/** Spaces other than U+0020 that look like one: no-break, en/em and the other fixed-width spaces, ideographic. */
const LOOKALIKE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * `line` with typographic quotes and dashes ({@link toAsciiLookalikes}) and look-alike spaces as ASCII,
 * as codex's `seek_sequence` compares in its last pass: a model often writes `"` for a file's `“`.
 */
export function asciiLookalikeLine(line: string): string {
  return toAsciiLookalikes(line).replace(LOOKALIKE_SPACES, ' ');
}

/**
 * The original's three comparisons, strictest first, with their fuzz, and look-alike punctuation and
 * spaces (codex's last pass) before indentation, which is refused above the limit anyway.
 */
const COMPARISONS: { fuzz: number; equals: LineEquals; loosely?: string }[] = [
  { fuzz: 0, equals: (a, b) => a === b },
  {
    fuzz: FUZZ.trailingWhitespace,
    equals: (a, b) => a.trimEnd() === b.trimEnd(),
    loosely: 'with trailing whitespace ignored',
  },
  {
    fuzz: FUZZ.lookalikes,
    equals: (a, b) => asciiLookalikeLine(a).trimEnd() === asciiLookalikeLine(b).trimEnd(),
    loosely: 'with look-alike quotes, dashes or spaces taken as ASCII',
  },
  {
    fuzz: FUZZ.surroundingWhitespace,
    equals: (a, b) => asciiLookalikeLine(a).trim() === asciiLookalikeLine(b).trim(),
    loosely: 'with indentation and trailing whitespace ignored',
  },
];

/** First index ≥ `start` where `context` occurs in `lines`, trying each comparison in turn. */
export function findLines(lines: string[], context: string[], start: number): ContextMatch | undefined {
  if (context.length === 0) return { index: start, fuzz: 0 };
  for (const { fuzz, equals, loosely } of COMPARISONS) {
    for (let i = Math.max(start, 0); i + context.length <= lines.length; i++) {
      if (context.every((line, j) => equals(lines[i + j], line)))
        return loosely ? { index: i, fuzz, loosely } : { index: i, fuzz };
    }
  }
  return undefined;
}

/**
 * Finds a hunk's lines from `start` on. A hunk marked end-of-file is looked for at the end first;
 * found only elsewhere it costs {@link FUZZ.endOfFileAway}.
 */
export function findContext(
  lines: string[],
  context: string[],
  start: number,
  endOfFile: boolean,
): ContextMatch | undefined {
  if (!endOfFile) return findLines(lines, context, start);
  const atEnd = lines.length - context.length;
  if (atEnd >= 0) {
    const match = findLines(lines, context, atEnd);
    if (match) return match;
  }
  const away = findLines(lines, context, start);
  return away && { ...away, fuzz: away.fuzz + FUZZ.endOfFileAway };
}

/**
 * Finds an `@@` anchor line (the original's order): exactly before `start` (already passed: the
 * position stays), exactly from `start` on, trimmed before `start`, trimmed from `start` on (fuzz 1).
 * Returns where the hunk's search continues, or undefined when the line is not in the file.
 */
export function findAnchor(lines: string[], anchor: string, start: number): ContextMatch | undefined {
  const exact: LineEquals = (a, b) => a === b;
  const trimmed: LineEquals = (a, b) => asciiLookalikeLine(a).trim() === asciiLookalikeLine(b).trim();
  const searches: { passed: boolean; equals: LineEquals; fuzz: number }[] = [
    { passed: true, equals: exact, fuzz: 0 },
    { passed: false, equals: exact, fuzz: 0 },
    { passed: true, equals: trimmed, fuzz: 0 },
    { passed: false, equals: trimmed, fuzz: FUZZ.looseAnchor },
  ];
  for (const { passed, equals, fuzz } of searches) {
    const [from, to] = passed ? [0, Math.min(start, lines.length)] : [start, lines.length];
    for (let i = from; i < to; i++) {
      if (equals(lines[i], anchor)) return { index: passed ? start : i + 1, fuzz };
    }
  }
  return undefined;
}

/** A hunk that matched only loosely, for the refusal message. */
export interface LooseMatch {
  /** 1-based hunk number within the file */
  hunk: number;
  /** 1-based line of the hunk in the patch text */
  patchLine: number;
  fuzz: number;
  /** e.g. `matched at line 12 only with trailing whitespace ignored` */
  reason: string;
}

export interface UpdatedText {
  text: string;
  /**
   * For each line of `text` (0-based, as {@link toLines} splits it): the line of the original whose
   * line ending it keeps, or undefined for a new line. A kept line is its own source; a line that
   * replaces a removed one takes the removed line's, paired from the end of each change. Unlike a
   * diff of the two texts, this never mistakes a kept line for a removed identical one.
   */
  lineSources: (number | undefined)[];
  /** total fuzz of this file's hunks */
  fuzz: number;
  loose: LooseMatch[];
}

/** A hunk that is not in the file. `message` names the hunk and shows the closest lines of the file. */
export class HunkMismatchError extends Error {
  constructor(
    message: string,
    /** 1-based hunk number within the file */
    readonly hunk: number,
    /** 1-based line of the hunk in the patch text */
    readonly patchLine: number,
  ) {
    super(message);
    this.name = 'HunkMismatchError';
  }
}

/**
 * Applies `hunks` (in file order) to `text` (LF line endings). Throws {@link HunkMismatchError} for
 * the first hunk that cannot be found. Does not check the fuzz limit: see {@link MAX_PATCH_FUZZ}.
 */
export function applyHunks(text: string, hunks: PatchHunk[]): UpdatedText {
  const file = toLines(text);
  const { lines } = file;
  const edits: { at: number; removeCount: number; added: string[] }[] = [];
  const loose: LooseMatch[] = [];
  let fuzz = 0;
  let position = 0;

  hunks.forEach((hunk, i) => {
    const number = i + 1;
    const name = `hunk ${number} (patch line ${hunk.line})`;
    const noteLoose = (amount: number, reason: string) => {
      if (amount === 0) return;
      fuzz += amount;
      loose.push({ hunk: number, patchLine: hunk.line, fuzz: amount, reason });
    };

    if (hunk.anchor !== undefined) {
      const found = findAnchor(lines, hunk.anchor, position);
      if (!found) {
        throw new HunkMismatchError(
          `${name}: the @@ line ${JSON.stringify(hunk.anchor)} is not in the file${after(position)}.` +
            closestLinesNote(lines, [hunk.anchor], position),
          number,
          hunk.line,
        );
      }
      noteLoose(found.fuzz, `its @@ line matched only with whitespace ignored, at line ${found.index}`);
      position = found.index;
    }

    // added lines only, placed by nothing: at the end of the file (codex), never silently at the top
    const appended = hunk.oldLines.length === 0 && hunk.anchor === undefined;
    const match = appended
      ? { index: lines.length, fuzz: 0 }
      : findContext(lines, hunk.oldLines, position, hunk.endOfFile);
    if (!match) throw new HunkMismatchError(describeMissing(name, lines, hunk, position), number, hunk.line);
    const base = match.fuzz % FUZZ.endOfFileAway;
    if ('loosely' in match && match.loosely)
      noteLoose(base, `matched at line ${match.index + 1} only ${match.loosely}`);
    if (match.fuzz >= FUZZ.endOfFileAway) {
      noteLoose(
        FUZZ.endOfFileAway,
        `is marked "*** End of File" but matched at line ${match.index + 1}, not at the end of the file`,
      );
    }

    for (const chunk of hunk.chunks) {
      edits.push({ at: match.index + chunk.oldIndex, removeCount: chunk.removed.length, added: chunk.added });
    }
    position = match.index + hunk.oldLines.length;
  });

  // the hunks were found in increasing order, so the edits are too (the original's getUpdatedFile)
  const out: string[] = [];
  const lineSources: (number | undefined)[] = [];
  const keep = (from: number, to: number) => {
    for (let k = from; k < to; k++) {
      out.push(lines[k]);
      lineSources.push(k);
    }
  };
  let cursor = 0;
  for (const edit of edits) {
    keep(cursor, edit.at);
    const paired = Math.min(edit.added.length, edit.removeCount);
    edit.added.forEach((line, k) => {
      out.push(line);
      // paired from the end: the last added line replaces the last removed one
      const fromEnd = edit.added.length - 1 - k;
      lineSources.push(fromEnd < paired ? edit.at + edit.removeCount - 1 - fromEnd : undefined);
    });
    cursor = edit.at + edit.removeCount;
  }
  keep(cursor, lines.length);
  // a kept line keeps its own line break: when the last line now is one that had a line after it, the
  // file ends with that line's break, also in a file that had none ('a\nb' without 'b' is 'a\n', as
  // in git and codex, rather than giving `a` the removed line's missing break)
  const lastSource = lineSources.at(-1);
  const finalNewline = lastSource !== undefined && lastSource < lines.length - 1 ? true : file.finalNewline;
  return { text: fromLines({ lines: out, finalNewline }), lineSources, fuzz, loose };
}

function after(position: number): string {
  return position > 0 ? ` after line ${position}` : '';
}

function describeMissing(name: string, lines: string[], hunk: PatchHunk, position: number): string {
  const what = hunk.endOfFile
    ? 'its context and removed lines (marked "*** End of File")'
    : 'its context and removed lines';
  const earlier =
    position > 0 ? findLines(lines.slice(0, position + hunk.oldLines.length - 1), hunk.oldLines, 0) : undefined;
  if (earlier) {
    return (
      `${name}: ${what} occur at line ${earlier.index + 1}, before where the previous hunk ended (line ${position}). ` +
      'Hunks of one file must follow the order of the file, and must not overlap.'
    );
  }
  return (
    `${name}: ${what} were not found in the file${after(position)}.` + closestLinesNote(lines, hunk.oldLines, position)
  );
}

/** How many lines of the file the error shows at most. */
const MAX_SHOWN_LINES = 10;

function closestLinesNote(lines: string[], wanted: string[], position: number): string {
  const window = closestWindow(lines, wanted, position);
  if (!window) return lines.length === 0 ? ' The file is empty.' : ' No lines of the file resemble them.';
  const shown = lines.slice(window.index, window.index + Math.min(Math.max(wanted.length, 1), MAX_SHOWN_LINES));
  const numbered = shown.map((line, i) => `${String(window.index + i + 1).padStart(6)}|${line}`).join('\n');
  const more = wanted.length > MAX_SHOWN_LINES ? '\n   ...' : '';
  return `\nThe closest lines in the file (line ${window.index + 1}):\n${numbered}${more}`;
}

/** Above this many line comparisons, similarity is plain equality (an error path must stay fast). */
const MAX_FUZZY_COMPARISONS = 2_000_000;
/** Only this much of a line counts for similarity. */
const MAX_COMPARED_CHARS = 200;

/**
 * The window of `wanted.length` lines of `lines` most like `wanted`: the sum over its lines of a
 * similarity in [0, 1] (Dice coefficient of character pairs, whitespace trimmed). Ties go to the
 * first window at or after `position`, then to the first. Undefined when nothing is alike at all.
 */
export function closestWindow(
  lines: string[],
  wanted: string[],
  position = 0,
): { index: number; score: number } | undefined {
  if (lines.length === 0 || wanted.length === 0) return undefined;
  const cheap = lines.length * wanted.length > MAX_FUZZY_COMPARISONS;
  const fileKeys = lines.map(similarityKey);
  const wantedKeys = wanted.map(similarityKey);
  let best: { index: number; score: number } | undefined;
  const lastStart = Math.max(lines.length - wanted.length, 0);
  for (let i = 0; i <= lastStart; i++) {
    let score = 0;
    for (let j = 0; j < wanted.length && i + j < lines.length; j++) {
      score += cheap ? Number(fileKeys[i + j].text === wantedKeys[j].text) : similarity(fileKeys[i + j], wantedKeys[j]);
    }
    if (score <= 0) continue;
    const better =
      !best ||
      score > best.score + 1e-9 ||
      (Math.abs(score - best.score) <= 1e-9 && best.index < position && i >= position);
    if (better) best = { index: i, score };
  }
  return best;
}

interface SimilarityKey {
  text: string;
  pairs: Map<string, number>;
  pairCount: number;
}

function similarityKey(line: string): SimilarityKey {
  const text = line.trim().slice(0, MAX_COMPARED_CHARS);
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const pair = text.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  return { text, pairs, pairCount: Math.max(text.length - 1, 0) };
}

function similarity(a: SimilarityKey, b: SimilarityKey): number {
  if (a.text === b.text) return 1;
  if (a.pairCount === 0 || b.pairCount === 0) return 0;
  let common = 0;
  const [small, large] = a.pairs.size <= b.pairs.size ? [a.pairs, b.pairs] : [b.pairs, a.pairs];
  for (const [pair, count] of small) common += Math.min(count, large.get(pair) ?? 0);
  return (2 * common) / (a.pairCount + b.pairCount);
}
