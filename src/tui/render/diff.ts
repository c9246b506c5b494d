/**
 * Unified diffs drawn for the terminal: the edit/write/patch results in the message list and the
 * permission dialog. Input is the text of the `diff` package's `formatPatch` (the tools' metadata,
 * see src/tools/diff.ts): optional `Index:`/`====` lines, `--- a/x` / `+++ b/x` file headers, `@@`
 * hunks. Several files may follow each other (the patch tool joins one diff per file).
 *
 * Output, one entry per terminal line, each at most `width` columns:
 * ```
 * src/app.ts                       ← the file headers, as one line
 * @@ -1,4 +1,5 @@
 * 1 1   a                          ← old and new line numbers, then the mark and the text
 * 2   - b                          ← diffRemoved on diffRemovedBackground
 *   2 + B                          ← diffAdded on diffAddedBackground
 * ```
 * Long lines are cut, not wrapped: each source line stays one row beside its numbers, and
 * `maxLines` then counts what the person sees.
 */
import chalk from 'chalk';
import type { Theme } from '../theme.js';
import { fitLine, normalizeText } from './text-width.js';

/** One parsed row of a unified diff. */
type DiffRow =
  | { kind: 'file'; path: string }
  | { kind: 'hunk'; header: string }
  | { kind: 'line'; mark: '+' | '-' | ' '; oldNumber?: number; newNumber?: number; text: string }
  | { kind: 'note'; text: string };

/** Lines added and removed by a diff (file headers not counted). */
export interface DiffStats {
  additions: number;
  removals: number;
}

/** Options of {@link renderDiff}. */
export interface RenderDiffOptions {
  /**
   * At most this many lines in all (at least 1). When the diff is longer, the last of them is
   * `… N more lines`, N being the diff lines left out.
   */
  maxLines?: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses unified diff text; lines it doesn't understand outside a hunk (`Index:`, `====`) are skipped. */
function parseDiff(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let oldNumber = 0;
  let newNumber = 0;
  let oldLeft = 0;
  let newLeft = 0;
  let oldPath: string | undefined;
  for (const line of lines) {
    const inHunk = oldLeft > 0 || newLeft > 0;
    if (inHunk && (line[0] === ' ' || line[0] === '-' || line[0] === '+' || line === '')) {
      // an empty line inside a hunk is a context line whose leading space was lost (some editors strip it)
      const mark = line === '' ? ' ' : (line[0] as ' ' | '-' | '+');
      const text = line.slice(1);
      if (mark === '-') {
        rows.push({ kind: 'line', mark, oldNumber: oldNumber++, text });
        oldLeft--;
      } else if (mark === '+') {
        rows.push({ kind: 'line', mark, newNumber: newNumber++, text });
        newLeft--;
      } else {
        rows.push({ kind: 'line', mark, oldNumber: oldNumber++, newNumber: newNumber++, text });
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    if (line.startsWith('\\')) {
      rows.push({ kind: 'note', text: line.slice(1).trim() });
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      oldNumber = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newNumber = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      rows.push({ kind: 'hunk', header: line });
      continue;
    }
    if (line.startsWith('--- ')) {
      oldPath = headerPath(line.slice(4), 'a/');
      continue;
    }
    if (line.startsWith('+++ ')) {
      const newPath = headerPath(line.slice(4), 'b/');
      rows.push({ kind: 'file', path: filePath(oldPath, newPath) });
      oldPath = undefined;
    }
  }
  return rows;
}

/** `a/src/x.ts\t(header)` → `src/x.ts`; `/dev/null` → undefined. */
function headerPath(raw: string, prefix: string): string | undefined {
  const name = raw.split('\t')[0]!.trim();
  if (name === '/dev/null' || name === '') return undefined;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function filePath(oldPath: string | undefined, newPath: string | undefined): string {
  if (oldPath && newPath && oldPath !== newPath) return `${oldPath} → ${newPath}`;
  return newPath ?? oldPath ?? '(unknown file)';
}

/** Counts the added and removed lines of unified diff text (hunk lines only, never the `---`/`+++` headers). */
export function diffStats(diff: string): DiffStats {
  let additions = 0;
  let removals = 0;
  for (const row of parseDiff(diff)) {
    if (row.kind !== 'line') continue;
    if (row.mark === '+') additions++;
    else if (row.mark === '-') removals++;
  }
  return { additions, removals };
}

/**
 * Draws unified diff text as terminal lines of at most `width` columns, with an old/new line-number
 * gutter (see the module comment for the layout). Empty or unparsable text gives `[]`.
 */
export function renderDiff(diff: string, width: number, theme: Theme, options: RenderDiffOptions = {}): string[] {
  const rows = parseDiff(diff);
  let largest = 0;
  for (const row of rows) {
    if (row.kind === 'line') largest = Math.max(largest, row.oldNumber ?? 0, row.newNumber ?? 0);
  }
  const digits = String(largest).length;
  const number = (n: number | undefined) => (n === undefined ? ' '.repeat(digits) : String(n).padStart(digits));
  const gutter = chalk.hex(theme.diffLineNumber);

  const drawn = rows.map((row): string => {
    switch (row.kind) {
      case 'file':
        return chalk.bold.hex(theme.text)(row.path);
      case 'hunk':
        return chalk.hex(theme.diffLineNumber)(row.header);
      case 'note':
        return chalk.hex(theme.textMuted)(`${' '.repeat(digits * 2 + 2)}  ${row.text}`);
      case 'line': {
        const numbers = gutter(`${number(row.oldNumber)} ${number(row.newNumber)} `);
        const body = `${row.mark} ${normalizeText(row.text)}`;
        if (row.mark === '+') return numbers + chalk.bgHex(theme.diffAddedBackground).hex(theme.diffAdded)(body);
        if (row.mark === '-') return numbers + chalk.bgHex(theme.diffRemovedBackground).hex(theme.diffRemoved)(body);
        return numbers + chalk.hex(theme.diffContext)(body);
      }
    }
  });

  const lines = drawn.map((line) => fitLine(line, width));
  const maxLines = options.maxLines === undefined ? Infinity : Math.max(1, Math.floor(options.maxLines));
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines - 1);
  const hidden = lines.length - kept.length;
  kept.push(fitLine(chalk.hex(theme.textMuted)(`… ${hidden} more line${hidden === 1 ? '' : 's'}`), width));
  return kept;
}
