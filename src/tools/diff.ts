/**
 * The unified diff the write tools attach for the permission dialog and the UI (as the
 * original: `a/<path>` and `b/<path>` relative to the project directory). The model never sees it.
 */
import { formatPatch, structuredPatch, FILE_HEADERS_ONLY, type StructuredPatch } from 'diff';
import { isAbsolute, relative, sep } from 'node:path';

export interface FileDiff {
  /** unified diff text, 3 lines of context */
  diff: string;
  /** lines added */
  additions: number;
  /** lines removed */
  removals: number;
}

/** Give up on a minimal diff after this long (a huge rewrite) and show the whole change instead. */
const DIFF_TIMEOUT_MS = 2_000;

/** The diff of `absPath` from `before` to `after`; names are relative to `cwd` when inside it. */
export function fileDiff(cwd: string, absPath: string, before: string, after: string): FileDiff {
  const name = displayPath(cwd, absPath);
  const options = { context: 3, timeout: DIFF_TIMEOUT_MS };
  const patch =
    structuredPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, options) ??
    // the minimal diff took too long (a huge rewrite)
    wholeFileReplacement(`a/${name}`, `b/${name}`, before, after);
  let additions = 0;
  let removals = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) removals++;
    }
  }
  const diff = patch.hunks.length ? formatPatch(patch, FILE_HEADERS_ONLY) : '';
  return { diff, additions, removals };
}

/** A range of lines of the new text, 1-based and inclusive. */
export interface LineRange {
  first: number;
  last: number;
}

/**
 * Where `after` differs from `before`: each hunk's lines in `after` with `contextLines` around them,
 * overlapping hunks merged. A hunk that only removed lines, at the end of an emptied file, has none and
 * is left out. Empty when the diff takes too long (a huge rewrite).
 */
export function changedLineRanges(before: string, after: string, contextLines: number): LineRange[] {
  const patch = structuredPatch('', '', before, after, undefined, undefined, {
    context: contextLines,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) return [];
  return patch.hunks
    .filter((h) => h.newLines > 0)
    .map((h) => ({ first: h.newStart, last: h.newStart + h.newLines - 1 }));
}

/** One hunk removing every old line and adding every new one: still a correct diff, found at once. */
function wholeFileReplacement(oldName: string, newName: string, before: string, after: string): StructuredPatch {
  const oldLines = diffLines(before, '-');
  const newLines = diffLines(after, '+');
  const oldCount = oldLines.filter((l) => l[0] === '-').length;
  const newCount = newLines.filter((l) => l[0] === '+').length;
  return {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: oldCount ? 1 : 0,
        oldLines: oldCount,
        newStart: newCount ? 1 : 0,
        newLines: newCount,
        lines: [...oldLines, ...newLines],
      },
    ],
  };
}

function diffLines(text: string, mark: '-' | '+'): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const endsWithNewline = lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const out = lines.map((l) => mark + l);
  if (!endsWithNewline) out.push('\\ No newline at end of file');
  return out;
}

function displayPath(cwd: string, absPath: string): string {
  const rel = relative(cwd, absPath);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return absPath.replace(/^\//, '');
}
