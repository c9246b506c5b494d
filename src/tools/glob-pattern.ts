/**
 * Glob patterns as the search tools read them: one pure compiler to a RegExp, shared by the
 * ripgrep path and the pure-Node fallback so that both select exactly the same paths.
 *
 * Syntax (ripgrep's `globset` / gitignore dialect): `*` any run of characters except `/`; `**` as a
 * whole segment any number of directories (inside a segment it acts as `*`); `?` one character
 * except `/`; `[abc]` `[a-z]` `[!abc]` `[^abc]` classes; `{a,b}` alternatives (nestable); `\x` a
 * literal x.
 * Matching is case-sensitive and against `/`-separated paths relative to the search root.
 */
import { ToolError } from './tool-error.js';

const REGEX_SPECIALS = /[.*+?^${}()|[\]\\/]/g;

/**
 * Compiles `pattern` to a RegExp that must match the whole path.
 * Unbalanced `{` `}` and an unclosed `[` are taken literally rather than thrown on.
 */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${globSource(pattern)}$`);
}

/**
 * {@link globToRegExp} for a pattern from the model: an invalid one (`[z-a]`) becomes a
 * {@link ToolError} saying why in a few words, not "Invalid regular expression: /^[z-a]$/: …".
 */
export function compileGlob(pattern: string): RegExp {
  try {
    return globToRegExp(pattern);
  } catch (err) {
    // V8: "Invalid regular expression: /…/: Range out of order in character class"
    const reason = (err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new ToolError(
      `Invalid glob pattern ${JSON.stringify(pattern)}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
    );
  }
}

function globSource(pattern: string): string {
  const braces = matchedBraces(pattern);
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      out += escapeRegex(pattern[++i]!);
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        const atSegmentStart = i === 0 || pattern[i - 1] === '/';
        const next = pattern[i + 2];
        if (atSegmentStart && next === '/') {
          out += '(?:[^/]*/)*'; // `**/`: zero or more whole directories
          i += 2;
        } else if (atSegmentStart && next === undefined) {
          out += '.*'; // trailing `**`: everything below
          i += 1;
        } else {
          out += '[^/]*'; // `**` inside a segment acts as `*` (globset does the same)
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const cls = readClass(pattern, i);
      if (cls) {
        out += cls.source;
        i = cls.end;
      } else {
        out += '\\[';
      }
    } else if (c === '{' && braces.has(i)) {
      out += '(?:';
      depth++;
    } else if (c === '}' && braces.has(i)) {
      out += ')';
      depth--;
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

/** Positions of `{` and `}` that form balanced pairs (outside classes and escapes). */
function matchedBraces(pattern: string): Set<number> {
  const open: number[] = [];
  const pairs = new Set<number>();
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') i = readClass(pattern, i)?.end ?? i;
    else if (c === '{') open.push(i);
    else if (c === '}' && open.length) {
      pairs.add(open.pop()!);
      pairs.add(i);
    }
  }
  return pairs;
}

/** Reads a `[...]` class starting at `start`; undefined when it is not closed. */
function readClass(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  // a `]` right after the opening is a literal member
  if (pattern[i] === ']') {
    body += '\\]';
    i++;
  }
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === ']') return { source: `[${negated ? '^/' : ''}${body}]`, end: i };
    if (c === '\\' && i + 1 < pattern.length) body += `\\${pattern[++i]}`;
    else if (c === '-') body += '-';
    else body += escapeRegex(c);
  }
  return undefined;
}

function escapeRegex(c: string): string {
  return c.replace(REGEX_SPECIALS, '\\$&');
}

/**
 * Splits `a,b{c,d}` at the commas outside braces: `['a', 'b{c,d}']`. Lets `include: "*.ts,*.tsx"`
 * mean what the model meant.
 */
export function splitTopLevelCommas(pattern: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The literal words of a pattern: its segments and alternatives split at `/ { } ,`. */
export function patternWords(pattern: string): Set<string> {
  return new Set(pattern.split(/[/{},]/).filter((w) => w !== ''));
}

/**
 * Whether the pattern names hidden entries: some segment or alternative starts with `.`
 * (`.github/**`, a `.env` segment, `{.eslintrc,.prettierrc}*`), not counting `.` and `..`.
 */
export function namesHiddenEntries(pattern: string): boolean {
  for (const word of patternWords(pattern)) {
    if (word.startsWith('.') && word !== '.' && word !== '..') return true;
  }
  return false;
}

/** Whether the pattern has glob syntax (otherwise it names one path). */
export function hasGlobSyntax(text: string): boolean {
  return /[*?[{]/.test(text);
}
