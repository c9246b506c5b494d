/**
 * Finding `old_string` in a file for `edit`, forgiving the model's slips in whitespace and quotes. Pure functions on
 * LF text; the tool decodes the file and normalises line endings first.
 *
 * An exact match always wins. Only when there is none, two normalisations are tried together:
 * (a) indentation compared by width, so tabs and spaces are the same (tab widths 4, 8 and 2 are
 *     tried, the file's and the model's unknown), and whitespace-only lines match each other;
 * (b) typographic quotes and dashes compared as their ASCII look-alikes ({@link LOOKALIKE_CHARACTERS}).
 * A normalised match is applied in the file's own style: lines the model did not change are kept
 * byte for byte, new lines are re-indented with the file's indentation, and in changed lines the
 * characters the model did not touch keep the file's form (a curly quote stays curly).
 */
import { diffArrays, diffChars } from 'diff';

/**
 * Characters models and people swap with an ASCII look-alike, mapped to it. Each is one UTF-16 unit,
 * as is its replacement, so positions survive the mapping.
 */
export const LOOKALIKE_CHARACTERS: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘ left single quote
  '\u2019': "'", // ’ right single quote, the typographic apostrophe (it’s)
  '\u201A': "'", // ‚ low single quote (German „…“ style)
  '\u201B': "'", // ‛ reversed single quote
  '\u2032': "'", // ′ prime
  '\u201C': '"', // “ left double quote
  '\u201D': '"', // ” right double quote
  '\u201E': '"', // „ low double quote
  '\u201F': '"', // ‟ reversed double quote
  '\u2033': '"', // ″ double prime
  '\u2010': '-', // ‐ hyphen
  '\u2011': '-', // ‑ non-breaking hyphen
  '\u2012': '-', // ‒ figure dash
  '\u2013': '-', // – en dash (ranges: 1–3)
  '\u2014': '-', // — em dash
  '\u2212': '-', // − minus sign
};

const LOOKALIKE_PATTERN = new RegExp(`[${Object.keys(LOOKALIKE_CHARACTERS).join('')}]`, 'g');

/** Tab widths tried when tabs meet spaces: the common editor default first. */
const TAB_WIDTHS = [4, 8, 2] as const;

/** What a normalised match had to overlook. */
export type Normalisation = 'indentation' | 'quotes';

/** One replaced place: characters `start` to `end` (exclusive) of the original text became `replacement`. */
export interface ReplacedSpan {
  start: number;
  end: number;
  replacement: string;
}

export type ReplaceOutcome =
  | {
      status: 'replaced';
      text: string;
      /** places changed */
      count: number;
      /** 1-based line of each place changed, in the original text */
      lines: number[];
      /** empty for an exact match */
      normalised: Normalisation[];
      /** each place changed: `start`–`end` in the original text, and the text put there */
      spans: ReplacedSpan[];
    }
  | { status: 'not-found' }
  /** several places match and `replaceAll` was not set; `lines` are 1-based */
  | { status: 'ambiguous'; lines: number[]; normalised: Normalisation[] };

/**
 * Replaces `oldString` in `text` with `newString`: the one occurrence, or every one with
 * `replaceAll`. Both strings use `\n` line endings like `text`. `oldString` must not be empty.
 */
export function replaceText(text: string, oldString: string, newString: string, replaceAll: boolean): ReplaceOutcome {
  const exact = findExact(text, oldString);
  if (exact.length > 0) {
    if (exact.length > 1 && !replaceAll) return { status: 'ambiguous', lines: linesAt(text, exact), normalised: [] };
    const parts: string[] = [];
    let last = 0;
    for (const start of exact) {
      parts.push(text.slice(last, start), newString);
      last = start + oldString.length;
    }
    parts.push(text.slice(last));
    const out = parts.join('');
    const spans = exact.map((start) => ({ start, end: start + oldString.length, replacement: newString }));
    return { status: 'replaced', text: out, count: exact.length, lines: linesAt(text, exact), normalised: [], spans };
  }

  const regions = findNormalised(text, oldString);
  if (regions.length === 0) return { status: 'not-found' };
  const normalised = normalisationsUsed(text, oldString, regions);
  const lines = linesAt(
    text,
    regions.map((r) => r.start),
  );
  if (regions.length > 1 && !replaceAll) return { status: 'ambiguous', lines, normalised };

  const style = indentStyle(text);
  let out = '';
  let last = 0;
  const spans: ReplacedSpan[] = [];
  for (const region of regions) {
    const found = text.slice(region.start, region.end);
    const atLineStart = region.start === 0 || text[region.start - 1] === '\n';
    const replacement = adaptReplacement(found, oldString, newString, region.tabWidth, style, atLineStart);
    spans.push({ start: region.start, end: region.end, replacement });
    out += text.slice(last, region.start) + replacement;
    last = region.end;
  }
  out += text.slice(last);
  return { status: 'replaced', text: out, count: regions.length, lines, normalised, spans };
}

/** `text` with every look-alike quote and dash made ASCII. */
export function toAsciiLookalikes(text: string): string {
  return text.replace(LOOKALIKE_PATTERN, (c) => LOOKALIKE_CHARACTERS[c]!);
}

/** Starts of the non-overlapping occurrences of `needle`. */
function findExact(text: string, needle: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) starts.push(i);
  return starts;
}

/** 1-based line numbers of `offsets` (ascending), in one pass. */
function linesAt(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = text.indexOf('\n');
  for (const offset of offsets) {
    while (newline !== -1 && newline < offset) {
      line++;
      newline = text.indexOf('\n', newline + 1);
    }
    lines.push(line);
  }
  return lines;
}

interface Region {
  start: number;
  end: number;
  /** the tab width under which it matched */
  tabWidth: number;
}

/** Non-overlapping places that match `oldString` once indentation and look-alikes are normalised, in order. */
function findNormalised(text: string, oldString: string): Region[] {
  const widths = text.includes('\t') || oldString.includes('\t') ? TAB_WIDTHS : TAB_WIDTHS.slice(0, 1);
  const mustStartLine = /^[ \t]/.test(oldString);
  const byStart = new Map<number, Region>();
  for (const tabWidth of widths) {
    const needle = canonicalise(oldString, tabWidth, true).text;
    if (needle.trim() === '') return [];
    const hay = canonicalise(text, tabWidth, true);
    for (let i = hay.text.indexOf(needle); i !== -1; i = hay.text.indexOf(needle, i + 1)) {
      // old_string starting with indentation names whole lines: don't match inside a deeper indentation
      if (mustStartLine && i > 0 && hay.text[i - 1] !== '\n') continue;
      const start = hay.from[i]!;
      if (!byStart.has(start)) byStart.set(start, { start, end: hay.to[i + needle.length - 1]!, tabWidth });
    }
  }
  const regions: Region[] = [];
  for (const region of [...byStart.values()].sort((a, b) => a.start - b.start)) {
    if (regions.length && region.start < regions[regions.length - 1]!.end) continue;
    regions.push(region);
  }
  return regions;
}

/** A canonical text and, for each of its characters, the span of the original that produced it. */
interface Canonical {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

const TAB = 9;
const SPACE = 32;
const NEWLINE = 10;

/** Look-alike → ASCII by char code, for the hot loop below. */
const LOOKALIKE_CODES = new Map(
  Object.entries(LOOKALIKE_CHARACTERS).map(([k, v]) => [k.charCodeAt(0), v.charCodeAt(0)]),
);

/**
 * `text` with each line's indentation expanded to spaces (tabs to the next multiple of `tabWidth`),
 * whitespace-only lines emptied (but a last line without `\n`, which may be the start of the next
 * line's indentation, kept), and, with `lookalikes`, quotes and dashes made ASCII.
 * Two passes over char codes into typed arrays: this runs on whole files, three times.
 */
function canonicalise(text: string, tabWidth: number, lookalikes: boolean): Canonical {
  // pass 1: the canonical length
  let length = 0;
  forEachLine(text, tabWidth, (_lineStart, contentStart, lineEnd, width, blank, hasNewline) => {
    if (!blank) length += width + (lineEnd - contentStart);
    if (hasNewline) length++;
  });
  // pass 2: the characters and where each came from
  const codes = new Uint16Array(length);
  const from = new Int32Array(length);
  const to = new Int32Array(length);
  let p = 0;
  forEachLine(text, tabWidth, (lineStart, contentStart, lineEnd, _width, blank, hasNewline) => {
    if (!blank) {
      let column = 0;
      for (let k = lineStart; k < contentStart; k++) {
        const w = text.charCodeAt(k) === TAB ? tabWidth - (column % tabWidth) : 1;
        for (let i = 0; i < w; i++, p++) {
          codes[p] = SPACE;
          from[p] = k;
          to[p] = k + 1;
        }
        column += w;
      }
      for (let k = contentStart; k < lineEnd; k++, p++) {
        const code = text.charCodeAt(k);
        codes[p] = lookalikes && code >= 0x2010 ? (LOOKALIKE_CODES.get(code) ?? code) : code;
        from[p] = k;
        to[p] = k + 1;
      }
    }
    if (hasNewline) {
      codes[p] = NEWLINE;
      // a match starting at an emptied line takes its whitespace too
      from[p] = blank ? lineStart : lineEnd;
      to[p] = lineEnd + 1;
      p++;
    }
  });
  return { text: decodeUtf16Units(codes), from, to };
}

/** Calls `visit` for each line with where its content starts, its indentation width and whether it is blank. */
function forEachLine(
  text: string,
  tabWidth: number,
  visit: (
    lineStart: number,
    contentStart: number,
    lineEnd: number,
    width: number,
    blank: boolean,
    hasNewline: boolean,
  ) => void,
): void {
  let lineStart = 0;
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    let contentStart = lineStart;
    let width = 0;
    for (; contentStart < lineEnd; contentStart++) {
      const code = text.charCodeAt(contentStart);
      if (code === SPACE) width++;
      else if (code === TAB) width += tabWidth - (width % tabWidth);
      else break;
    }
    visit(lineStart, contentStart, lineEnd, width, contentStart === lineEnd && newline !== -1, newline !== -1);
    if (newline === -1) return;
    lineStart = newline + 1;
  }
}

/** UTF-16 code units to a string, lone surrogates kept (Uint16Array is little-endian on every platform Node runs on). */
function decodeUtf16Units(codes: Uint16Array): string {
  return Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('utf16le');
}

/** Which normalisations the matches needed, for the note to the model. */
function normalisationsUsed(text: string, oldString: string, regions: Region[]): Normalisation[] {
  let indentation = false;
  let quotes = false;
  for (const region of regions) {
    const found = text.slice(region.start, region.end);
    if (toAsciiLookalikes(found) !== toAsciiLookalikes(oldString)) indentation = true;
    if (canonicalise(found, region.tabWidth, false).text !== canonicalise(oldString, region.tabWidth, false).text)
      quotes = true;
  }
  const used: Normalisation[] = [];
  if (indentation) used.push('indentation');
  if (quotes) used.push('quotes');
  return used;
}

type IndentStyle = 'tabs' | 'spaces' | undefined;

/** How the file indents: by the first indented line. */
function indentStyle(text: string): IndentStyle {
  const first = /^[ \t]/m.exec(text);
  if (!first) return undefined;
  return first[0] === '\t' ? 'tabs' : 'spaces';
}

/**
 * The text to put in place of `found` (the file's text that matched `oldString` after normalisation):
 * `newString` in the file's own style. Lines of `newString` equal to a line of `oldString` become the
 * file's line; other lines get the file's indentation, and the characters they share with the old line
 * they replace are taken from the file.
 */
function adaptReplacement(
  found: string,
  oldString: string,
  newString: string,
  tabWidth: number,
  fileStyle: IndentStyle,
  atLineStart: boolean,
): string {
  const foundLines = found.split('\n');
  const oldLines = oldString.split('\n');
  const newLines = newString.split('\n');
  // the region's own indentation decides over the file's first indented line
  let style = fileStyle;
  const indented = foundLines.filter((l, i) => (i > 0 || atLineStart) && /^[ \t]/.test(l) && l.trim() !== '');
  if (indented.some((l) => l.startsWith('\t'))) style = 'tabs';
  else if (indented.length) style = 'spaces';

  // indentation the model wrote → the file's indentation of the same line
  const indentMap = new Map<string, string>();
  oldLines.forEach((line, i) => {
    if ((i === 0 && !atLineStart) || line.trim() === '' || foundLines[i] === undefined) return;
    const oldIndent = leadingWhitespace(line);
    if (!indentMap.has(oldIndent)) indentMap.set(oldIndent, leadingWhitespace(foundLines[i]));
  });

  const adaptLine = (newIndex: number, oldIndex: number | undefined): string => {
    const next = newLines[newIndex]!;
    const old = oldIndex === undefined ? undefined : oldLines[oldIndex];
    const mine = oldIndex === undefined ? undefined : foundLines[oldIndex];
    if (old !== undefined && mine !== undefined && next === old) return mine;
    // a first line that starts mid-line has no indentation of its own
    const midLine = newIndex === 0 && !atLineStart;
    const nextIndent = midLine ? '' : leadingWhitespace(next);
    const indent = midLine ? '' : (indentMap.get(nextIndent) ?? convertIndent(nextIndent, tabWidth, style));
    let rest = next.slice(nextIndent.length);
    if (old !== undefined && mine !== undefined) {
      const oldMidLine = oldIndex === 0 && !atLineStart;
      const oldRest = oldMidLine ? old : old.slice(leadingWhitespace(old).length);
      const mineRest = oldMidLine ? mine : mine.slice(leadingWhitespace(mine).length);
      if (oldRest.length === mineRest.length && toAsciiLookalikes(oldRest) === toAsciiLookalikes(mineRest)) {
        rest = keepFileCharacters(oldRest, mineRest, rest);
      }
    }
    return indent + rest;
  };

  const out: string[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  let removed: number[] = [];
  for (const part of diffArrays(oldLines, newLines)) {
    const count = part.value.length;
    if (part.removed) {
      removed = Array.from({ length: count }, (_, k) => oldIndex + k);
      oldIndex += count;
    } else if (part.added) {
      // pair a changed line with the old line it replaces, in order
      for (let k = 0; k < count; k++) out.push(adaptLine(newIndex + k, removed[k]));
      newIndex += count;
      removed = [];
    } else {
      for (let k = 0; k < count; k++) out.push(adaptLine(newIndex + k, oldIndex + k));
      oldIndex += count;
      newIndex += count;
      removed = [];
    }
  }
  return out.join('\n');
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** Indentation of the same width in the file's style (unchanged when the file's style is unknown). */
function convertIndent(indent: string, tabWidth: number, style: IndentStyle): string {
  if (style === undefined || indent === '') return indent;
  let width = 0;
  for (const c of indent) width = c === '\t' ? width + tabWidth - (width % tabWidth) : width + 1;
  if (style === 'spaces') return ' '.repeat(width);
  return '\t'.repeat(Math.floor(width / tabWidth)) + ' '.repeat(width % tabWidth);
}

/**
 * `next` (the model's new line) with every stretch it shares with `old` (the model's old line) taken
 * from `mine` (the file's line, equal to `old` but for look-alike characters, same length).
 */
function keepFileCharacters(old: string, mine: string, next: string): string {
  let out = '';
  let at = 0;
  for (const part of diffChars(old, next)) {
    if (part.added) out += part.value;
    else if (part.removed) at += part.value.length;
    else {
      out += mine.slice(at, at + part.value.length);
      at += part.value.length;
    }
  }
  return out;
}
